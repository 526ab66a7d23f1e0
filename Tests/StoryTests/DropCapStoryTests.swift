import GalleyMarkup
import GalleyStory
import TestSupport
import Testing

@testable import GalleyTemplate

// Drop caps as the story asks for them: `<p dropcap="N">` and the template's `dropcap` key.

/// The default template with `dropcap.after` set to heading level `after`.
private func dropCapTemplate(after: Int) -> Template {
    var t = Template.default
    t.dropCap.after = after
    return t
}

/// The paragraphs of `text` that have a drop cap, as their text.
private func withDropCaps(_ text: String, template: Template = .default) -> [String] {
    let story = buildStory(text, template: template).story
    return story.paragraphs.filter { $0.style.dropCap != nil }.map { String(story.text.utf8Slice($0.range)) }
}

@Suite struct DropCapAttributeTests {
    // `dropcap` takes 2 to 10 lines; the initial has the template's face and colour, and the
    // paragraph no first-line indent.
    @Test func linesFaceAndColour() throws {
        var t = Template.default
        t.firstLineIndent = 12
        t.firstLineIndentRule = .every
        t.dropCap.face = "P052"
        t.dropCap.color = RGBA(1, 0, 0)
        let b = buildStory("<p dropcap=\"3\">The first.</p>\n<p dropcap=\"10\">The second.</p>", template: t)
        #expect(b.diagnostics.all.isEmpty)
        let caps = b.story.paragraphs.map(\.style.dropCap)
        #expect(caps[0] == DropCapRequest(lines: 3, face: "P052", color: RGBA(1, 0, 0)))
        #expect(caps[1]?.lines == 10)
        #expect(b.story.paragraphs.allSatisfy { $0.style.firstLineIndent == 0 })
        #expect(StoryDump.dump(b.story).contains("dropcap=3"))
    }

    // Values outside 2…10, or not whole numbers, are errors at the value; the paragraph is set
    // without a drop cap.
    @Test func badValues() {
        for value in ["0", "-1", "40", "x", "1", "11", "2.5", ""] {
            let b = buildStory("<p dropcap=\"\(value)\">Text.</p>")
            #expect(b.story.paragraphs[0].style.dropCap == nil, "\(value)")
            #expect(b.diagnostics.errors.count == 1, "\(value)")
        }
        #expect(
            buildStory("<p dropcap=\"0\">Text.</p>").rendered == """
                t.txt:1:13: error: dropcap must be a whole number of lines from 2 to 10, got '0'
                <p dropcap="0">Text.</p>
                            ^

                """)
        let negative = buildStory("<p dropcap=\"-1\">Text.</p>").rendered
        #expect(negative.hasPrefix("t.txt:1:13: error: dropcap must be a whole number of lines from 2 to 10, got '-1'\n"))
        #expect(buildStory("<p dropcap=\"40\">Text.</p>").rendered.contains("<p dropcap=\"40\">Text.</p>\n            ^~\n"))
    }

    // The request ends with its paragraph.
    @Test func onlyItsParagraph() {
        #expect(withDropCaps("<p dropcap=\"2\">One.</p>\nTwo.\n<p>Three.</p>") == ["One."])
    }
}

@Suite struct DropCapTemplateRuleTests {
    // With `after: h2`, the first paragraph after each <h2> gets one, and no other paragraph:
    // not the second after it, not the first after an <h1> or an <h3>.
    @Test func afterTheGivenLevelOnly() {
        let text = "<h1>A</h1>\nOne.\n<h2>B</h2>\nTwo.\nThree.\n<h3>C</h3>\nFour.\n<h2>D</h2>\nFive."
        #expect(withDropCaps(text, template: dropCapTemplate(after: 2)) == ["Two.", "Five."])
        #expect(withDropCaps(text, template: dropCapTemplate(after: 1)) == ["One."])
        #expect(withDropCaps(text, template: dropCapTemplate(after: 3)) == ["Four."])
        #expect(withDropCaps(text).isEmpty)
    }

    // The template's drop cap has its lines; one written on the tag keeps its own.
    @Test func tagWins() {
        var t = dropCapTemplate(after: 1)
        t.dropCap.lines = 4
        let story = buildStory("<h1>A</h1>\n<p dropcap=\"2\">One.</p>\n<h1>B</h1>\nTwo.", template: t).story
        #expect(story.paragraphs.compactMap(\.style.dropCap?.lines) == [2, 4])
    }

    // A float between the heading and the paragraph is looked past; an empty paragraph is not.
    @Test func floatsLookedPast() {
        let t = dropCapTemplate(after: 1)
        #expect(withDropCaps("<h1>A</h1>\n<img src=\"images/chart.png\" float=\"left\">\nOne.", template: t) == ["One."])
        #expect(withDropCaps("<h1>A</h1>\n\nOne.", template: t).isEmpty)
    }

    // The key: every part decoded, with located errors for bad values; `--set` reaches each.
    @Test func key() throws {
        let t = try #require(decoded(#"{"dropcap": {"lines": 5, "face": "P052", "color": "navy", "after": "H2"}}"#))
        #expect(t.dropCap == DropCapSpec(lines: 5, face: "P052", color: try ColorParser.parse("navy").get(), after: 2))
        #expect(decoded(#"{"dropcap": {"after": "none"}}"#)?.dropCap == DropCapSpec())
        #expect(located(#"{"dropcap": {"lines": 1}}"#) == "1:23 key 'dropcap.lines': expected a whole number from 2 to 10, got 1")
        #expect(located(#"{"dropcap": {"after": "h4"}}"#) == "1:23 key 'dropcap.after': unknown heading level 'h4'; did you mean 'h1'?")
        #expect(located(#"{"dropcap": {"size": 3}}"#)?.hasPrefix("1:14 unknown key 'dropcap.size'") == true)
        #expect(located(#"{"dropcap": {"color": "gren"}}"#)?.contains("did you mean 'green'?") == true)
        #expect(overridden(["dropcap.after=h3", "dropcap.lines=2"])?.dropCap == DropCapSpec(lines: 2, after: 3))
        #expect(overrideMessage(["dropcap.lines=11"]) == "--set dropcap.lines=11: expected a whole number from 2 to 10")
    }

    // Every built-in gives no drop cap of its own, so existing documents are set as before.
    @Test func builtinsGiveNone() {
        for t in Template.builtins { #expect(t.dropCap.after == 0 && t.dropCap.lines == 3, "\(t.name)") }
        #expect(Template.builtin(named: "tablet")?.dropCap.face == "Helvetica")
    }
}
