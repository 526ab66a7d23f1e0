import Foundation
import GalleyMarkup
import TestSupport
import Testing

@testable import GalleyStory
@testable import GalleyTemplate

/// The style of the first run of paragraph `i`.
private func firstStyle(_ s: Story, paragraph i: Int) -> TextStyle {
    s.styles[s.runs[s.paragraphs[i].runs.lowerBound].style]
}

@Suite struct NamedStyleTests {
    // class="deck" on a <p> sets its character and paragraph attributes from the template; the
    // tag's own attributes win over the style's.
    @Test func paragraphClass() {
        let b = buildStory("<p class=\"deck\">A deck.</p>\n<p class=\"deck\" after=\"2\">Another.</p>\nBody.")
        #expect(b.diagnostics.all.isEmpty)
        let deck = firstStyle(b.story, paragraph: 0)
        #expect(deck.size == 13 && deck.slant == .italic)
        #expect(b.story.paragraphs[0].style.spansColumns && b.story.paragraphs[0].style.spacingAfter == 10)
        #expect(b.story.paragraphs[1].style.spacingAfter == 2)
        #expect(firstStyle(b.story, paragraph: 2).size == 10 && !b.story.paragraphs[2].style.spansColumns)
    }

    // On a <span> only character attributes apply; on a heading the style comes after the
    // template's heading look; several names apply in order.
    @Test func spanHeadingAndSeveral() {
        let b = buildStory(
            "Text <span class=\"byline\">by hand</span> on.\n<h2 class=\"pullquote\">Head</h2>\n<p class=\"byline deck\">Both</p>")
        #expect(b.diagnostics.all.isEmpty)
        let runs = b.story.runs.filter { $0.range.lowerBound >= 5 && $0.range.upperBound <= 12 }
        #expect(runs.contains { b.story.styles[$0.style].weight == 700 && b.story.styles[$0.style].size == 8 })
        #expect(!b.story.paragraphs[0].style.spansColumns)
        let head = firstStyle(b.story, paragraph: 1)
        #expect(head.size == 14 && head.slant == .italic && head.weight == 700)
        #expect(b.story.paragraphs[1].style.alignment == .center && b.story.paragraphs[1].style.isHeading)
        let both = firstStyle(b.story, paragraph: 2)
        #expect(both.size == 13 && both.weight == 700 && both.slant == .italic)
    }

    // basedOn: the base's attributes first, the style's own over them.
    @Test func basedOn() throws {
        let t = try #require(
            decoded(#"{"extends": "magazine", "styles": {"note": {"basedOn": "deck", "size": 9, "color": "navy"}}}"#))
        let attributes = try #require(t.resolvedStyle("note"))
        #expect(attributes.map(\.name) == ["size", "style", "color", "span", "after"])
        #expect(attributes.first { $0.name == "size" }?.value == "9")
        let b = buildStory("<p class=\"note\">Note.</p>", template: t)
        #expect(firstStyle(b.story, paragraph: 0).slant == .italic && firstStyle(b.story, paragraph: 0).size == 9)
    }

    // An unknown class is a located warning with a suggestion; a bad value in a style is
    // reported at the class that applied it.
    @Test func unknownClassAndBadValue() throws {
        let b = buildStory("<p class=\"dek\">x</p>")
        #expect(b.rendered == "t.txt:1:11: warning: unknown class 'dek'; did you mean 'deck'?\n<p class=\"dek\">x</p>\n          ^~~\n")
        let t = try #require(decoded(#"{"extends": "magazine", "styles": {"odd": {"color": "gren"}}}"#))
        let bad = buildStory("<p class=\"odd\">x</p>", template: t)
        #expect(bad.rendered.hasPrefix("t.txt:1:11: error: unknown colour 'gren'; did you mean 'green'?"))
    }

    // Template errors are located with their key path: a cycle, an unknown base, an unknown key,
    // a value of the wrong kind.
    @Test func templateErrors() {
        #expect(
            located(#"{"styles": {"a": {"basedOn": "b"}, "b": {"basedOn": "a"}}}"#)
                == "1:30 key 'styles.a.basedOn': basedOn makes a cycle: a → b → a")
        #expect(
            located(#"{"styles": {"a": {"basedOn": "dek"}}}"#) == "1:30 key 'styles.a.basedOn': unknown style 'dek'; did you mean 'deck'?")
        #expect(located(#"{"styles": {"a": {"sise": 9}}}"#) == "1:19 unknown key 'styles.a.sise'; did you mean 'styles.a.size'?")
        #expect(
            located(#"{"styles": {"a": {"size": [9]}}}"#)
                == "1:27 key 'styles.a.size': expected a string, a number or true or false, got an array")
        #expect(located(#"{"styles": {"a": 3}}"#) == "1:18 key 'styles.a': expected an object of attributes, got 3")
    }

    // Keys are read in any case (strokeColor as strokecolor); --set reaches one key of a style,
    // adding to it; the built-ins define the magazine styles.
    @Test func keysOverridesAndBuiltins() throws {
        let t = try #require(decoded(#"{"styles": {"hollow": {"strokeColor": "navy"}}}"#))
        #expect(t.resolvedStyle("hollow") == [StyleAttribute(name: "strokecolor", value: "navy")])
        let set = try #require(overridden(["styles.deck.size=15"]))
        #expect(set.resolvedStyle("deck")?.first { $0.name == "size" }?.value == "15")
        #expect(
            overrideMessage(["styles.deck.sise=15"])
                == "--set styles.deck.sise=15: unknown key 'styles.deck.sise'; did you mean 'styles.deck.size'?")
        for template in Template.builtins {
            #expect(["kicker", "deck", "byline", "pullquote", "sidebar"].allSatisfy { template.style(named: $0) != nil })
        }
    }
}
