import GalleyStory
@testable import GalleyTemplate
import TestSupport
import Testing

/// The template's first-line indent follows the book convention unless told otherwise.
@Suite struct IndentRuleTests {
    /// The first-line indent of each text paragraph of `text` under a 12 pt indent.
    func indents(_ text: String, rule: IndentRule = .conventional) -> [Double] {
        var t = Template.default
        t.firstLineIndent = 12
        t.firstLineIndentRule = rule
        let story = buildStory(text, template: t).story
        return story.paragraphs.filter { $0.content == .text }.map(\.style.firstLineIndent)
    }

    // The story's first paragraph, and the first after a heading (by name or by size), are
    // not indented; the ones after them are.
    @Test func afterHeadings() {
        #expect(indents("One\nTwo\n<h2>Head</h2>\nThree\nFour") == [0, 12, 0, 0, 12])
        #expect(indents("<font size=\"20\">Big head</font>\nThree\nFour") == [0, 0, 12])
    }

    // Centred and right-aligned paragraphs (a deck, a byline) are not indented; right-aligned
    // right-to-left text is, since that is where it starts.
    @Test func centredAndFlush() {
        #expect(
            indents("Body\n<p align=\"center\">Deck</p>\n<p align=\"right\">By X</p>\nMore") == [0, 0, 0, 12])
        #expect(indents("Body\n<p align=\"natural\">שלום עולם</p>") == [0, 12])
    }

    // After a block image, an empty line or a break the text starts afresh; a float set
    // elsewhere does not count.
    @Test func afterBreaks() {
        #expect(indents("A\n<img src=\"images/chart.png\">\nB\nC") == [0, 0, 12])
        #expect(indents("A\n\nB\nC") == [0, 0, 0, 12])
        #expect(indents("A\n<columnbreak>B\nC") == [0, 0, 12])
        #expect(indents("A\n<img src=\"images/chart.png\" float=\"right\">\nB") == [0, 12])
    }

    // A firstIndent written in the source is kept; the rule "every" indents every paragraph.
    @Test func explicitAndEvery() {
        #expect(indents("<p firstIndent=\"20\">A</p>\n<p align=\"center\" firstIndent=\"5\">B</p>") == [20, 5])
        #expect(indents("One\n<h2>Head</h2>\nThree", rule: .every) == [12, 0, 12])
    }

    // The template key takes either rule, with a suggestion for a typo.
    @Test func templateKey() {
        #expect(decoded(#"{"firstLineIndentRule": "every"}"#)?.firstLineIndentRule == .every)
        #expect(Template.default.firstLineIndentRule == .conventional)
        #expect(overrideMessage(["firstLineIndentRule=evry"])?.contains("did you mean 'every'?") == true)
    }
}

/// Messages that used to mislead, or to say nothing.
@Suite struct NumberMessageTests {
    // A bare image width is points; a small one is said so, since it may be a forgotten '%'.
    @Test func bareWidth() {
        let small = buildStory(#"<img src="images/chart.png" width="40">"#)
        #expect(
            small.diagnostics.warnings.map(\.message) == [
                #"width="40" is 40 pt (a bare number is points); write "40pt" to say so, or "40%" for a share of the column"#
            ])
        #expect(small.story.images.first?.width == 40)
        for quiet in [#"width="320""#, #"width="40pt""#, #"width="40%""#] {
            #expect(buildStory("<img src=\"images/chart.png\" \(quiet)>").diagnostics.isEmpty, "\(quiet)")
        }
    }

    // A number with an exponent is refused with the reason, not as "not a number".
    @Test func exponent() {
        let built = buildStory(#"<font size="1e9">x</font> <span kern="2E1">y</span>"#)
        #expect(
            built.diagnostics.errors.map(\.message) == [
                "size must be a number of points, got '1e9' (write it without an exponent, as digits and a point)",
                "kern must be a number of points or em, got '2E1' (write it without an exponent, as digits and a point)",
            ])
    }
}

/// A template that changes its base describes itself.
@Suite struct TemplateDescriptionTests {
    // Three columns over magazine no longer reads "A4, two columns"; a description given is kept.
    @Test func derivedFromTheValues() {
        #expect(decoded(#"{"extends": "magazine", "columns": 3}"#)?.summary == "A4, three columns, DejaVu Serif 10/12, justified")
        #expect(decoded(#"{"extends": "pocket", "alignment": "left", "footer": {"enabled": false}}"#)?.summary
            == "A5, one column, DejaVu Serif 9.5/12, ragged right, no footer")
        #expect(decoded(#"{"extends": "magazine", "columns": 3, "description": "Mine"}"#)?.summary == "Mine")
        #expect(decoded(#"{"extends": "tabloid", "name": "t"}"#)?.summary == Template.builtin(named: "tabloid")?.summary)
    }

    // The built-ins' own words are what the description says of them (tablet adds its page's name).
    @Test(arguments: ["magazine", "letter", "pocket"]) func builtinsDescribeThemselves(name: String) throws {
        let t = try #require(Template.builtin(named: name))
        #expect(TemplateLoader.describe(t) == t.summary)
    }
}
