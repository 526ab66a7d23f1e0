import GalleyMarkup
import GalleyStory
import TestSupport
import Testing

// `<meta>`: the story's title, section and issue, for running heads and footers.

@Suite struct MetaTests {
    // The three fields are stored on the story; the tag and its line add no text or paragraph.
    @Test func fields() {
        let b = buildStory("<meta title=\"The Last Compositors\" section=\"Features\" issue=\"No. 12\">\nBody text.\n")
        #expect(b.story.title == "The Last Compositors" && b.story.section == "Features" && b.story.issue == "No. 12")
        #expect(b.story.text == "Body text." && b.story.paragraphs.count == 1)
        #expect(b.diagnostics.all.isEmpty)
        #expect(b.story.fields == ["title": "The Last Compositors", "section": "Features", "issue": "No. 12"])
    }
    // Several tags, self-closing or not, at the top of a blank-line file: later values win, and no
    // paragraph is made of them.
    @Test func severalTags() {
        let t = template(.blankLine)
        let b = buildStory("<meta title=\"A\" issue=\"1\"/>\n<meta title=\"B\">\n\nOne\nparagraph.\n", template: t)
        #expect(b.story.title == "B" && b.story.issue == "1" && b.story.section == nil)
        #expect(b.story.text == "One paragraph." && b.story.paragraphs.count == 1)
    }
    // Without a meta title the first <h1>'s text is the title (line breaks as spaces, isolates
    // dropped); a meta title wins over it.
    @Test func titleFromFirstHeading() {
        let text = "<h2>Kicker</h2>\n<h1>The <i>Last</i><br>Compositors <span dir=\"rtl\">x</span></h1>\nBody.\n<h1>Second</h1>\n"
        #expect(buildStory(text).story.title == "The Last Compositors x")
        #expect(buildStory("<meta section=\"S\">\n" + text).story.title == "The Last Compositors x")
        #expect(buildStory("<meta title=\"Given\">\n" + text).story.title == "Given")
        #expect(buildStory("No heading.\n").story.title == nil)
    }
    // A value written over several lines is one line.
    @Test func multilineValue() {
        #expect(buildStory("<meta title=\"Two\n  lines \">\nBody.").story.title == "Two lines")
    }
    // Inside a paragraph the tag adds nothing, and the paragraph goes on.
    @Test func insideParagraph() {
        let b = buildStory("One <meta issue=\"9\">two.\nThree.")
        #expect(b.story.text == "One two.\nThree." && b.story.issue == "9")
    }
    // An unknown field is a located warning with a suggestion; the known ones still count.
    @Test func unknownField() {
        let b = buildStory("<meta titel=\"X\" issue=\"No. 12\" author=\"Y\">\nBody.")
        #expect(b.story.issue == "No. 12" && b.story.title == nil)
        #expect(
            b.rendered == """
                t.txt:1:7: warning: unknown attribute 'titel' on <meta>; did you mean 'title'?
                <meta titel="X" issue="No. 12" author="Y">
                      ^~~~~
                t.txt:1:32: warning: unknown attribute 'author' on <meta>
                <meta titel="X" issue="No. 12" author="Y">
                                               ^~~~~~

                """)
    }
}
