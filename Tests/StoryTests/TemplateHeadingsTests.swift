import Foundation
import GalleyMarkup
import Testing

@testable import GalleyStory
@testable import GalleyTemplate

// The template keys `headings` and `link`.

@Suite struct TemplateHeadingsTests {
    // The built-ins' heading levels: DejaVu Sans bold #222222, 20/15/12 pt, spacing 12/6, 9/4, 6/3.
    @Test func defaults() {
        let h = Template.default.headings
        #expect(
            h.h1 == HeadingSpec(face: "DejaVu Sans", size: 20, weight: 700, color: RGBA(34 / 255, 34 / 255, 34 / 255), before: 12, after: 6)
        )
        #expect([h.h2.size, h.h2.before, h.h2.after] == [15, 9, 4])
        #expect([h.h3.size, h.h3.before, h.h3.after] == [12, 6, 3])
        #expect(Template.default.link == LinkSpec(color: try! ColorParser.parse("#1F4E8C").get(), underline: nil))
    }
    // The tablet's headings are Helvetica, larger than its 14 pt body.
    @Test func tablet() {
        let h = Template.builtin(named: "tablet")!.headings
        #expect(h.h1.face == "Helvetica" && [h.h1.size, h.h2.size, h.h3.size] == [28, 21, 17])
    }
    // Every built-in's headings grow from h3 to h1 and are larger than its body.
    @Test func builtinsOrdered() {
        for t in Template.builtins {
            #expect(t.headings.h1.size > t.headings.h2.size && t.headings.h2.size > t.headings.h3.size, "\(t.name)")
            #expect(t.headings.h3.size > t.body.size, "\(t.name)")
        }
    }
    // A file may give one key of one level; the others keep the base's values.
    @Test func partial() {
        let t = decoded(#"{"headings": {"h2": {"size": "14pt", "color": "navy"}}}"#)!
        #expect(t.headings.h2.size == 14 && t.headings.h2.color == RGBA(0, 0, 128 / 255))
        #expect(t.headings.h2.face == "DejaVu Sans" && t.headings.h1 == Template.default.headings.h1)
    }
    // weight takes 100–900 or the words bold and normal.
    @Test func weightWords() {
        #expect(decoded(#"{"headings": {"h1": {"weight": "normal"}, "h3": {"weight": 300}}}"#)?.headings.h1.weight == 400)
        #expect(decoded(#"{"headings": {"h3": {"weight": 300}}}"#)?.headings.h3.weight == 300)
    }
    // A bad weight, located at the value.
    @Test func badWeight() {
        #expect(
            located(#"{"headings": {"h1": {"weight": 950}}}"#)
                == #"1:32 key 'headings.h1.weight': expected a weight from 100 to 900, "bold" or "normal", got 950"#)
    }
    // An unknown level is suggested.
    @Test func unknownLevel() {
        #expect(located(#"{"headings": {"h4": {}}}"#) == "1:15 unknown key 'headings.h4'; did you mean 'headings.h1'?")
    }
    // An unknown key inside a level is suggested with its full path.
    @Test func unknownLevelKey() {
        #expect(located(#"{"headings": {"h2": {"sise": 3}}}"#) == "1:22 unknown key 'headings.h2.sise'; did you mean 'headings.h2.size'?")
    }
    // A level must be an object.
    @Test func levelNotObject() {
        #expect(
            located(#"{"headings": {"h2": 14}}"#)
                == "1:21 key 'headings.h2': expected an object with face, size, weight, color, before, after and span, got 14")
    }
    // headings must be an object.
    @Test func headingsNotObject() {
        #expect(located(#"{"headings": true}"#) == "1:14 key 'headings': expected an object with h1, h2 and h3, got true")
    }
    // Sizes must be positive; spacing may be 0 but not negative.
    @Test func lengths() {
        #expect(located(#"{"headings": {"h1": {"size": 0}}}"#) == "1:30 key 'headings.h1.size': expected a length greater than 0, got 0")
        #expect(
            located(#"{"headings": {"h1": {"before": -1}}}"#) == "1:32 key 'headings.h1.before': expected a length of 0 or more, got -1")
        #expect(decoded(#"{"headings": {"h1": {"after": 0}}}"#)?.headings.h1.after == 0)
    }
    // A colour error, with its suggestion.
    @Test func badColour() {
        #expect(
            located(#"{"headings": {"h3": {"color": "gren"}}}"#)
                == "1:31 key 'headings.h3.color': unknown colour 'gren'; did you mean 'green'?")
    }
    // --set reaches one key of one level.
    @Test func setOneKey() {
        #expect(overridden(["headings.h2.size=14"])?.headings.h2.size == 14)
        #expect(overridden(["headings.h1.face=DejaVu Serif"])?.headings.h1.face == "DejaVu Serif")
    }
    // --set of a whole level as JSON keeps the keys it leaves out.
    @Test func setLevelObject() {
        let t = overridden([#"headings.h3={"weight": 400}"#])!
        #expect(t.headings.h3.weight == 400 && t.headings.h3.size == 12)
    }
    // --set errors name the override and the full key.
    @Test func setErrors() {
        #expect(
            overrideMessage(["headings.h2.sise=14"])
                == "--set headings.h2.sise=14: unknown key 'headings.h2.sise'; did you mean 'headings.h2.size'?")
        #expect(
            overrideMessage(["headings.h5.size=14"]) == "--set headings.h5.size=14: unknown key 'headings.h5'; did you mean 'headings.h1'?")
        #expect(
            overrideMessage(["headings.h2.size.x=1"])
                == "--set headings.h2.size.x=1: unknown key 'headings.h2.size.x'; did you mean 'headings.h2.size'?")
        #expect(overrideMessage(["headings.h2.size=big"]) == "--set headings.h2.size=big: expected a number or length")
    }
    // Encoding writes the levels one per line and decodes back to the same template.
    @Test func roundTrip() {
        var t = Template.default
        t.headings.h2 = HeadingSpec(face: "F", size: 13.5, weight: 600, color: RGBA(1, 0, 0), before: 0, after: 2)
        t.link = LinkSpec(color: RGBA(0, 0, 1), underline: .dotted)
        let text = TemplateLoader.encode(t)
        #expect(text.contains(#"    "h2": {"face": "F", "size": 13.5, "weight": 600, "color": "red", "before": 0, "after": 2, "span": "none"},"#))
        #expect(text.contains(#"  "link": {"color": "blue", "underline": "dotted"}"#))
        #expect(decoded(text) == t)
    }
}

@Suite struct TemplateLinkTests {
    // link.underline takes a line style; none leaves the text's underline alone.
    @Test func underline() {
        #expect(decoded(#"{"link": {"underline": "single"}}"#)?.link.underline == .single)
        #expect(decoded(#"{"link": {"underline": "none"}}"#)?.link.underline == nil)
    }
    // A misspelt underline style is suggested.
    @Test func badUnderline() {
        #expect(
            located(#"{"link": {"underline": "wavey"}}"#)
                == "1:24 key 'link.underline': unknown underline style 'wavey'; did you mean 'wavy'?")
    }
    // link.color is a colour.
    @Test func badColour() {
        #expect(located(#"{"link": {"color": 3}}"#) == ##"1:20 key 'link.color': expected a colour such as "black" or "#336699", got 3"##)
    }
    // --set link.underline and link.color.
    @Test func set() {
        let t = overridden(["link.underline=double", "link.color=#ff0000"])!
        #expect(t.link == LinkSpec(color: RGBA(1, 0, 0), underline: .double))
    }
    // link must be an object.
    @Test func notObject() {
        #expect(located(#"{"link": "blue"}"#) == #"1:10 key 'link': expected an object with color and underline, got "blue""#)
    }
}
