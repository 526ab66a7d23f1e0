import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// Typographic punctuation as the builder applies it: the language in force, what is left
/// alone (`<code>`, link targets, social URLs), and source positions after a replacement.
@Suite struct TypographyStoryTests {
    /// The magazine template with `typography` and `language` changed.
    static func template(
        language: String = "en", smartQuotes: Bool = true, dashes: Bool = false, cjk: CJKQuotes = .curly
    ) -> Template {
        var t = Template.default
        t.language = language
        t.typography = TypographySpec(smartQuotes: smartQuotes, dashes: dashes, cjkQuotes: cjk)
        return t
    }

    static func text(_ source: String, _ template: Template = TypographyStoryTests.template(), social: Bool = false) -> String {
        built(source, template, social: social).text
    }

    static func built(_ source: String, _ template: Template = TypographyStoryTests.template(), social: Bool = false) -> Story {
        var builder = StoryBuilder(template: template, baseDirectory: repoPath("samples"))
        builder.socialEverywhere = social
        return builder.build(MarkupParser.parse(SourceFile(path: "t.txt", text: source))).0
    }

    // The built-in templates curl quotes; dashes wait for the key.
    @Test func builtinsCurlQuotes() {
        for t in Template.builtins {
            #expect(t.typography == TypographySpec(smartQuotes: true, dashes: false, cjkQuotes: .curly), "\(t.name)")
        }
        #expect(storyText(#""It's 1914--18," he said..."#) == "“It’s 1914--18,” he said...")
        #expect(Self.text(#""It's 1914--18," he said..."#, Self.template(dashes: true)) == "“It’s 1914–18,” he said…")
        #expect(Self.text(#""It's" --"#, Self.template(smartQuotes: false)) == #""It's" --"#)
    }

    // The template's language, and `lang` on a span, choose the marks.
    @Test func languages() {
        #expect(Self.text(#""Ja," sagte er, "ich hab's.""#, Self.template(language: "de")) == "„Ja,“ sagte er, „ich hab’s.“")
        #expect(
            Self.text(#"He said <span lang="fr">"Oui"</span> and <span lang="de-CH">'ja'</span>, "yes"."#)
                == "He said «\u{202F}Oui\u{202F}» and ‚ja‘, “yes”.")
        #expect(Self.text(#"他说："好的"。"#, Self.template(language: "zh-Hans")) == "他说：“好的”。")
        #expect(Self.text("他说：“好的”。", Self.template(language: "zh-Hans", cjk: .corner)) == "他说：「好的」。")
        #expect(Self.text(#"<span lang="ja">"はい"</span> "yes""#, Self.template(cjk: .corner)) == "「はい」 “yes”")
    }

    // Quotes see across tags and entities: the text before decides.
    @Test func acrossTags() {
        #expect(storyText(#""<i>Hi</i>," she said, <b>'no'</b>."#) == "“Hi,” she said, ‘no’.")
        #expect(storyText("&quot;People,&quot; Maren says&apos;") == "“People,” Maren says’")
        #expect(storyText(#"a<br>"b""#) == "a\u{2028}“b”")
    }

    // Each paragraph starts with no quote open; one left open does not close the next's.
    @Test func paragraphsStartAfresh() {
        #expect(storyText("\"a\n\" b") == "“a\n“ b")
        #expect(storyText("\"a \" b") == "“a ” b")
    }

    // <code> is set as typed, in a monospace face, never hyphenated.
    @Test func code() {
        let s = Self.built(#"Run <code>grep "it's" -- a...b</code>, "then" stop."#, Self.template(dashes: true))
        #expect(s.text == #"Run grep "it's" -- a...b, “then” stop."#)
        let style = s.styles[s.runs[1].style]
        #expect(style.face == "DejaVu Sans Mono" && !style.hyphenate)
        #expect(s.styles[s.runs[2].style].hyphenate && s.styles[s.runs[2].style].face == "DejaVu Serif")
    }

    // The template's code style gives <code>'s look; a class adds to it.
    @Test func codeStyle() {
        var t = Self.template()
        t.setStyle(NamedStyle("code", ["face": "Liberation Mono", "color": "teal"]))
        t.setStyle(NamedStyle("shell", ["color": "red"]))
        let s = Self.built(#"<code>a</code> <code class="shell">b</code>"#, t)
        let a = s.styles[s.runs[0].style]
        let b = s.styles[s.runs[2].style]
        #expect(a.face == "Liberation Mono" && a.color != t.body.color)
        #expect(b.face == "Liberation Mono" && b.color == RGBA(1, 0, 0))
        #expect(buildStory(#"<code class="shel">x</code>"#).rendered.contains("warning: unknown class 'shel'"))
    }

    // A link's target is never rewritten; its text is.
    @Test func linkTargets() {
        let s = Self.built(#"<a href="https://x.org/it's--a...">"Read" it's</a>"#, Self.template(dashes: true))
        #expect(s.text == "“Read” it’s")
        #expect(s.styles[s.runs[0].style].link == "https://x.org/it's--a...")
    }

    // URLs found by social text keep their characters; the text around them is rewritten.
    @Test func socialURLs() {
        let s = Self.built(#"See https://example.com/a--b...c/it's, "quoted" -- it's."#, Self.template(dashes: true), social: true)
        #expect(s.text == "See https://example.com/a--b...c/it's, “quoted” – it’s.")
        #expect(s.styles[s.runs[1].style].link == "https://example.com/a--b...c/it's")
    }

    // A pull quote's text is rewritten like the article's.
    @Test func blocks() {
        let story = buildStory(#"x <pullquote>"Quoted," it's said.</pullquote>"#).story
        #expect(story.blocks.first?.story.text == "“Quoted,” it’s said.")
    }

    // An image's caption is set like text; its other attributes are left alone.
    @Test func captions() {
        let s = Self.built(
            #"<img src="images/chart.png" float="left" caption="The shop's 'old' press -- 1914.">"#, Self.template(dashes: true))
        #expect(s.images.first?.caption == "The shop’s ‘old’ press – 1914.")
        let code = Self.built(#"<code><img src="images/chart.png" float="left" caption="it's"></code>"#)
        #expect(code.images.first?.caption == "it's")
    }

    // After a replacement that changes the length, every character still maps to its source
    // column, and every source column to its character.
    @Test func sourcePositions() {
        let source = #"ab -- "cd" e's ... f"#
        let s = Self.built(source, Self.template(dashes: true))
        #expect(s.text == "ab – “cd” e’s … f")
        let story = Array(s.text.unicodeScalars)
        let columns = Array(source.unicodeScalars)
        // Story character → source column, for the letters (each kept as typed).
        for (k, u) in story.enumerated() where u.properties.isAlphabetic {
            let byte = String(String.UnicodeScalarView(story[..<k])).utf8.count
            let loc = s.sourceMap.sourceLocation(ofByte: byte, in: s.text)!
            #expect(loc.line == 1 && columns[loc.column - 1] == u, "\(u) at \(loc)")
            #expect(loc.offset == String(String.UnicodeScalarView(columns[..<(loc.column - 1)])).utf8.count, "\(u)")
            #expect(s.sourceMap.storyByte(line: 1, column: loc.column, in: s.text) == byte, "\(u)")
            #expect(s.sourceMap.characterOffset(ofByte: byte, in: s.text) == k)
        }
        // A replacement maps to where it was typed.
        let dash = s.text.utf8.firstIndex(of: 0xE2).map { s.text.utf8.distance(from: s.text.utf8.startIndex, to: $0) }!
        #expect(s.sourceMap.sourceLocation(ofByte: dash, in: s.text)?.column == 4)
    }
}
