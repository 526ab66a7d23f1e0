import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// `<code>` as the builder sets it.
@Suite struct TypographyStoryTests {
    static func built(_ source: String, _ template: Template = .default) -> Story {
        let builder = StoryBuilder(template: template, baseDirectory: repoPath("samples"))
        return builder.build(MarkupParser.parse(SourceFile(path: "t.txt", text: source))).0
    }

    // <code> is set in a monospace face, never hyphenated.
    @Test func code() {
        let s = Self.built("Run <code>grep x</code> then stop.")
        #expect(s.text == "Run grep x then stop.")
        let style = s.styles[s.runs[1].style]
        #expect(style.face == "DejaVu Sans Mono" && !style.hyphenate)
        #expect(s.styles[s.runs[2].style].hyphenate && s.styles[s.runs[2].style].face == "DejaVu Serif")
    }

    // The template's code style gives <code>'s look; a class adds to it.
    @Test func codeStyle() {
        var t = Template.default
        t.setStyle(NamedStyle("code", ["face": "Liberation Mono", "color": "teal"]))
        t.setStyle(NamedStyle("shell", ["color": "red"]))
        let s = Self.built(#"<code>a</code> <code class="shell">b</code>"#, t)
        let a = s.styles[s.runs[0].style]
        let b = s.styles[s.runs[2].style]
        #expect(a.face == "Liberation Mono" && a.color != t.body.color)
        #expect(b.face == "Liberation Mono" && b.color == RGBA(1, 0, 0))
        #expect(buildStory(#"<code class="shel">x</code>"#).rendered.contains("warning: unknown class 'shel'"))
    }
}
