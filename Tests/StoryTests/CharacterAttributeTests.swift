import GalleyMarkup
import GalleyStory
import TestSupport
import Testing

@testable import GalleyTemplate

/// The body style as the dump writes it.
let body = #"face="DejaVu Serif" size=10 color=#000000"#

/// The dump's style line (without `style N `) of the first character of `<TAG ATTRIBUTES>x</TAG>`,
/// then the diagnostics rendered.
func styleOf(_ attributes: String, tag: String = "span") -> String {
    let b = buildStory("<\(tag) \(attributes)>x</\(tag)>")
    let id = b.story.runs[0].style
    let line = StoryDump.dump(b.story).split(separator: "\n").first { $0.hasPrefix("style \(id) ") }!
    return line.dropFirst("style \(id) ".count) + "\n" + b.rendered
}

// MARK: - One attribute at a time

@Suite struct CharacterAttributeTests {
    // weight: a number from 100 to 900, or bold (700) / normal (400).
    @Test func weight() {
        #expect(styleOf(#"weight="300""#) == "\(body) weight=300\n")
        #expect(styleOf(#"weight="bold""#) == "\(body) weight=700\n")
        #expect(styleOf(#"weight="Bold""#) == "\(body) weight=700\n")
        #expect(buildStory(#"<b><span weight="normal">x"#).story.styles.map(\.weight) == [400])
    }
    // style: italic, oblique or normal sets the slant.
    @Test func style() {
        #expect(styleOf(#"style="italic""#) == "\(body) style=italic\n")
        #expect(styleOf(#"style="oblique""#) == "\(body) style=oblique\n")
        #expect(buildStory(#"<i><span style="normal">x"#).story.styles.map(\.slant) == [.normal])
    }
    // background: a colour, or none.
    @Test func background() {
        #expect(styleOf(#"background="yellow""#) == "\(body) background=#ffff00\n")
        #expect(buildStory(#"<span background="red"><span background="none">x"#).story.styles[0].background == nil)
    }
    // ligatures: 0, 1 (the default, not shown) or 2.
    @Test func ligatures() {
        #expect(styleOf(#"ligatures="0""#) == "\(body) ligatures=0\n")
        #expect(styleOf(#"ligatures="2""#) == "\(body) ligatures=2\n")
        #expect(styleOf(#"ligatures="1""#) == "\(body)\n")
    }
    // kern: points, negative allowed, any unit, or em of the size in force.
    @Test func kern() {
        #expect(styleOf(#"kern="1.5""#) == "\(body) kern=1.5\n")
        #expect(styleOf(#"kern="-0.5pt""#) == "\(body) kern=-0.5\n")
        #expect(styleOf(#"kern="0.05em""#) == "\(body) kern=0.5\n")
    }
    // em is relative to the size the same tag sets.
    @Test func kernEmUsesTheNewSize() {
        #expect(styleOf(#"kern="0.1em" size="20""#) == #"face="DejaVu Serif" size=20 color=#000000 kern=2"# + "\n")
    }
    // underline: every line style; a colour of its own after a slash.
    @Test func underline() {
        for style in ["single", "double", "thick", "dotted", "dashed", "wavy"] {
            #expect(styleOf(#"underline="\#(style)""#) == "\(body) underline=\(style)\n")
        }
        #expect(styleOf(#"underline="double" underlineColor="red""#) == "\(body) underline=double/#ff0000\n")
        // NSUnderlineStyle's numbers, as Core Text files write them, and true or false: errors before.
        for (value, style) in [("1", "single"), ("2", "thick"), ("9", "double"), ("true", "single")] {
            #expect(styleOf(#"underline="\#(value)""#) == "\(body) underline=\(style)\n", "\(value)")
        }
        #expect(styleOf(#"underline="0""#) == "\(body)\n")
        #expect(styleOf(#"strikethrough="1""#) == "\(body) strikethrough=single\n")
    }
    // An underline colour alone implies a single underline.
    @Test func underlineColourAlone() {
        #expect(styleOf(#"underlineColor="blue""#) == "\(body) underline=single/#0000ff\n")
    }
    // An underline colour keeps the style in force; underline="none" wins over a colour.
    @Test func underlineColourKeepsStyle() {
        #expect(
            buildStory(#"<span underline="wavy"><span underlineColor="red">x"#).story.styles[0].underline
                == Decoration(style: .wavy, color: RGBA(1, 0, 0)))
        #expect(styleOf(#"underline="none" underlineColor="red""#) == "\(body)\n")
    }
    // strikethrough: the same styles and colour rules.
    @Test func strikethrough() {
        #expect(styleOf(#"strikethrough="thick""#) == "\(body) strikethrough=thick\n")
        #expect(styleOf(#"strikethroughColor="red""#) == "\(body) strikethrough=single/#ff0000\n")
        #expect(buildStory(#"<s><span strikethrough="none">x"#).story.styles[0].strikethrough == nil)
    }
    // strokeColor and strokeWidth work on <span> as on <font>.
    @Test func stroke() {
        #expect(styleOf(#"strokeColor="blue""#) == "\(body) stroke=#0000ff/-3\n")
        #expect(styleOf(#"strokeWidth="2""#) == "\(body) stroke=fill/2\n")
        // A percent of the size, not a length: "3mm" was read as 8.5 (points) and set as 8.5 %.
        for written in ["3mm", "0x10", "abc"] {
            let b = buildStory("<span strokeWidth=\"\(written)\">x</span>")
            #expect(b.story.styles.allSatisfy { $0.strokeWidth == 0 })
            #expect(
                b.diagnostics.all.map(\.message) == [
                    "strokeWidth must be a number, a percent of the font size (negative: filled as well), got '\(written)'"
                ])
        }
    }
    // shadow: dx dy blur colour; the colour may contain spaces, or come first; none removes it.
    @Test func shadow() {
        #expect(styleOf(#"shadow="1 2 3 gray""#) == "\(body) shadow=1,2,3,#808080\n")
        #expect(styleOf(#"shadow="1 -1 0 rgb(0, 0, 255)""#) == "\(body) shadow=1,-1,0,#0000ff\n")
        #expect(styleOf(#"shadow="red 0.1em 1pt 2""#) == "\(body) shadow=1,1,2,#ff0000\n")
        #expect(buildStory(#"<span shadow="1 1 1 red"><span shadow="none">x"#).story.styles[0].shadow == nil)
    }
    // A blur is at most 100 pt (its mask grows with its square): past it, a located error at
    // the blur, and no shadow; 100 itself is read.
    @Test func shadowBlurBound() {
        let b = buildStory(#"<span shadow="1 1 1000 gray">x</span>"#)
        #expect(
            b.rendered.hasPrefix(
                "t.txt:1:19: error: shadow blur '1000' is out of range (at most 100 pt: a blur's mask grows with its square)\n"))
        #expect(b.story.styles.allSatisfy { $0.shadow == nil })
        #expect(styleOf(#"shadow="1 1 100 gray""#) == "\(body) shadow=1,1,100,#808080\n")
    }
    // baseline: points up, negative down, em allowed.
    @Test func baseline() {
        #expect(styleOf(#"baseline="3""#) == "\(body) baseline=3\n")
        #expect(styleOf(#"baseline="-0.2em""#) == "\(body) baseline=-2\n")
    }
    // obliqueness and expansion: numbers from -1 to 1.
    @Test func obliquenessAndExpansion() {
        #expect(styleOf(#"obliqueness="0.2""#) == "\(body) obliqueness=0.2\n")
        #expect(styleOf(#"expansion="-0.3""#) == "\(body) expansion=-0.3\n")
    }
    // features: space- or comma-separated tags, each optionally =N; none clears them.
    @Test func features() {
        #expect(styleOf(#"features="smcp onum, ss01=1""#) == "\(body) features=smcp,onum,ss01=1\n")
        #expect(buildStory(#"<span features="smcp"><span features="none">x"#).story.styles[0].features == [])
    }
    // lang: a BCP 47 tag.
    @Test func lang() {
        #expect(styleOf(#"lang="zh-Hans""#) == "\(body) lang=zh-Hans\n")
        #expect(styleOf(#"lang="sr-Latn-RS""#) == "\(body) lang=sr-Latn-RS\n")
    }
    // lang on a paragraph, a heading or a vertical block: its text is in that language, and the
    // text after it is not.
    @Test func paragraphLang() {
        #expect(styleOf(#"lang="zh-Hant""#, tag: "p") == "\(body) lang=zh-Hant\n")
        #expect(styleOf(#"lang="ja""#, tag: "h2").contains(" lang=ja"))
        #expect(styleOf(#"lang="zh-Hant""#, tag: "vertical").contains(" lang=zh-Hant"))
        let b = buildStory("<p lang=\"zh-Hant\">逗號，句號。</p>\nAfter.")
        let after = b.story.runs.last!.style
        #expect(b.story.styles[after].language != "zh-Hant" && b.rendered.isEmpty)
        #expect(styleOf(#"lang="zh_Hant""#, tag: "p").contains("error: 'zh_Hant' is not a BCP 47 language tag; did you mean 'zh-Hant'?"))
    }
    // hyphenate: false turns dictionary hyphenation off for the run.
    @Test func hyphenate() {
        #expect(styleOf(#"hyphenate="false""#) == "\(body) hyphenate=false\n")
        #expect(styleOf(#"hyphenate="true""#) == "\(body)\n")
    }
    // dir: the run's direction (the isolates are tested below).
    @Test func dir() {
        #expect(styleOf(#"dir="rtl""#) == "\(body) dir=rtl\n")
        #expect(styleOf(#"dir="ltr""#) == "\(body) dir=ltr\n")
        #expect(styleOf(#"dir="auto""#) == "\(body)\n")
    }
    // face, size and color on <span>, as on <font>.
    @Test func faceSizeColour() {
        #expect(styleOf(#"face="DejaVu Sans" size="12" color="red""#) == #"face="DejaVu Sans" size=12 color=#ff0000"# + "\n")
    }
    // Every new attribute works on <font> too.
    @Test func onFont() {
        let b = buildStory(#"<font weight="bold" style="italic" underline="single" kern="1" baseline="2">x"#)
        assertDump(
            StoryDump.dump(b.story) + b.rendered,
            #"""
            "x"
            style 0 face="DejaVu Serif" size=10 color=#000000 weight=700 style=italic kern=1 underline=single baseline=2
            run 0..<1 style 0 "x"
            paragraph 0..<1 text
            """#)
    }
    // All at once, in the dump's field order.
    @Test func everything() {
        let attributes =
            ##"weight="600" style="italic" background="#eeeeee" ligatures="2" kern="1" underline="dotted" "##
            + #"strikethrough="double" shadow="1 1 1 black" baseline="1" obliqueness="0.1" expansion="0.1" dir="rtl" "#
            + #"features="tnum" lang="ar" hyphenate="false""#
        #expect(
            styleOf(attributes) == body + " lang=ar weight=600 style=italic background=#eeeeee ligatures=2 kern=1"
                + " underline=dotted strikethrough=double shadow=1,1,1,#000000 baseline=1 obliqueness=0.1 expansion=0.1"
                + " dir=rtl features=tnum hyphenate=false\n")
    }
}

// MARK: - Short tags

@Suite struct ShortTagTests {
    // <b> is weight 700, <i> italic, <u> a single underline, <s> a single strikethrough.
    @Test func boldItalicUnderlineStrike() {
        assertDump(
            listing("<b>b</b><i>i</i><u>u</u><s>s</s>"),
            #"""
            "bius"
            style 0 face="DejaVu Serif" size=10 color=#000000 weight=700
            style 1 face="DejaVu Serif" size=10 color=#000000 style=italic
            style 2 face="DejaVu Serif" size=10 color=#000000 underline=single
            style 3 face="DejaVu Serif" size=10 color=#000000 strikethrough=single
            run 0..<1 style 0 "b"
            run 1..<2 style 1 "i"
            run 2..<3 style 2 "u"
            run 3..<4 style 3 "s"
            paragraph 0..<4 text
            """#)
    }
    // <u> inside a coloured underline keeps the colour.
    @Test func underlineKeepsColour() {
        #expect(
            buildStory(#"<span underline="wavy" underlineColor="red"><u>x"#).story.styles[0].underline
                == Decoration(style: .single, color: RGBA(1, 0, 0)))
    }
    // <sup>: 0.65 of the size, raised 0.35 of the size before shrinking; <sub> lowered 0.15.
    @Test func supAndSub() {
        assertDump(
            listing("E=mc<sup>2</sup>, H<sub>2</sub>O"),
            #"""
            "E=mc2, H2O"
            style 0 face="DejaVu Serif" size=10 color=#000000
            style 1 face="DejaVu Serif" size=6.5 color=#000000 baseline=3.5
            style 2 face="DejaVu Serif" size=6.5 color=#000000 baseline=-1.5
            run 0..<4 style 0 "E=mc"
            run 4..<5 style 1 "2"
            run 5..<8 style 0 ", H"
            run 8..<9 style 2 "2"
            run 9..<10 style 0 "O"
            paragraph 0..<10 text
            """#)
    }
    // Nested <sup> shrinks again and adds its raise, from the size in force.
    @Test func nestedSup() {
        let s = story("<font size=\"20\">x<sup>y<sup>z</sup></sup>")
        #expect(s.styles.map(\.size) == [20, 20 * 0.65, 20 * 0.65 * 0.65])
        #expect(s.styles.map(\.baselineOffset) == [0, 7, 7 + 13 * 0.35])
    }
    // A <sub> inside a <sup> goes down from the raised baseline.
    @Test func subInsideSup() {
        let s = story("<sup><sub>x</sub></sup>")
        #expect(s.styles[0].size == 10 * 0.65 * 0.65)
        #expect(s.styles[0].baselineOffset == 3.5 - 0.15 * 6.5)
    }
}

// MARK: - Nesting and restoring

@Suite struct NestingTests {
    // Containers nest; each end tag restores the style before its start tag.
    @Test func nestedContainers() {
        assertDump(
            listing("a<b>b<i>c</i>d</b>e"),
            #"""
            "abcde"
            style 0 face="DejaVu Serif" size=10 color=#000000
            style 1 face="DejaVu Serif" size=10 color=#000000 weight=700
            style 2 face="DejaVu Serif" size=10 color=#000000 weight=700 style=italic
            run 0..<1 style 0 "a"
            run 1..<2 style 1 "b"
            run 2..<3 style 2 "c"
            run 3..<4 style 1 "d"
            run 4..<5 style 0 "e"
            paragraph 0..<5 text
            """#)
    }
    // A span's attributes left out keep the value in force, as with <font>.
    @Test func spanInherits() {
        let s = story(#"<span color="red"><span weight="bold">x</span>y</span>z"#)
        #expect(s.styles.map { "\($0.color) \($0.weight)" } == ["#ff0000 700", "#ff0000 400", "#000000 400"])
    }
    // A <font> left open inside a container ends with it, silently.
    @Test func fontEndsWithItsContainer() {
        let b = buildStory(#"<span size="12"><font color="red">a</span>b"#)
        #expect(b.story.styles.map { "\($0.color)/\(Int($0.size))" } == ["#ff0000/12", "#000000/10"])
        #expect(b.diagnostics.isEmpty)
    }
    // </font> inside a container closes the container's <font>, not the one outside.
    @Test func fontInsideSpan() {
        let s = story(#"<font size="20"><span color="red"><font color="blue">a</font>b</span>c</font>d"#)
        #expect(s.styles.map { "\($0.color)/\(Int($0.size))" } == ["#0000ff/20", "#ff0000/20", "#000000/20", "#000000/10"])
    }
    // Saved states are shared and their slots reused once no open element needs them: closing
    // and opening again, deep in open <font>s, still restores each element's own state.
    @Test func savedStatesReusedAfterClosing() {
        let s = story(
            #"<font color="red">a<b>b</b><font color="blue">c<i>d<u>e</u>f</i><font color="red">g<s>h</s></font>i</font>j</font>k"#)
        #expect(
            s.runs.map { r in
                let t = s.styles[r.style]
                return
                    "\(t.color) \(t.weight) \(t.slant == .italic ? "i" : "-") \(t.underline == nil ? "-" : "u") \(t.strikethrough == nil ? "-" : "s")"
            } == [
                "#ff0000 400 - - -", "#ff0000 700 - - -", "#0000ff 400 - - -", "#0000ff 400 i - -", "#0000ff 400 i u -",
                "#0000ff 400 i - -", "#ff0000 400 - - -", "#ff0000 400 - - s", "#0000ff 400 - - -", "#ff0000 400 - - -",
                "#000000 400 - - -",
            ])
    }
    // Containers cross newlines: the style carries into the next paragraph.
    @Test func spanAcrossParagraphs() {
        let s = story("<b>one\ntwo</b>three")
        #expect(s.runs.map { s.styles[$0.style].weight } == [700, 700, 400])
    }
    // A self-closing <span/> changes nothing.
    @Test func selfClosingSpan() {
        let b = buildStory(#"a<span color="red"/>b"#)
        #expect(b.story.styles.count == 1 && b.diagnostics.isEmpty)
    }
    // The same style from different tags is one style.
    @Test func deduplicatedAcrossTags() {
        let s = story(#"<b>a</b><span weight="700">b</span><font weight="bold">c"#)
        #expect(s.styles.count == 1 && s.runs.count == 1)
    }
}

// MARK: - Direction and isolates

@Suite struct IsolateTests {
    // dir="rtl" on a span wraps its text in RLI … PDI, in the span's style.
    @Test func rtlSpan() {
        assertDump(
            listing(#"a <span dir="rtl">שלום</span> b"#),
            #"""
            "a \u{2067}שלום\u{2069} b"
            style 0 face="DejaVu Serif" size=10 color=#000000
            style 1 face="DejaVu Serif" size=10 color=#000000 dir=rtl
            run 0..<2 style 0 "a "
            run 2..<8 style 1 "\u{2067}שלום\u{2069}"
            run 8..<10 style 0 " b"
            paragraph 0..<10 text
            """#)
    }
    // dir="ltr" is LRI … PDI; dir="auto" is FSI … PDI with no direction; they nest.
    @Test func ltrAndAuto() {
        #expect(storyText(#"<span dir="auto">a<span dir="ltr">b</span></span>"#) == "\u{2068}a\u{2066}b\u{2069}\u{2069}")
    }
    // A <font dir> left open across paragraphs: each paragraph closes the isolate and the next reopens it.
    @Test func fontDirAcrossParagraphs() {
        assertDump(
            listing(#"<font dir="rtl">one\#ntwo</font>three"#),
            #"""
            "\u{2067}one\u{2069}"
            "\u{2067}two\u{2069}three"
            style 0 face="DejaVu Serif" size=10 color=#000000 dir=rtl
            style 1 face="DejaVu Serif" size=10 color=#000000
            run 0..<5 style 0 "\u{2067}one\u{2069}"
            run 6..<11 style 0 "\u{2067}two\u{2069}"
            run 11..<16 style 1 "three"
            paragraph 0..<5 text
            paragraph 6..<16 text
            """#)
    }
    // An empty span with dir inserts nothing; so does an empty paragraph inside one.
    @Test func noTextNoIsolates() {
        #expect(storyText(#"a<span dir="rtl"></span>b"#) == "ab")
        #expect(storyText("<span dir=\"rtl\">x\n\ny</span>") == "\u{2067}x\u{2069}\n\n\u{2067}y\u{2069}")
    }
    // A block image inside an isolate ends the text before it; the image paragraph holds no isolate.
    @Test func imageInsideIsolate() {
        #expect(storyText(#"<span dir="rtl">a<img src="images/chart.png">b</span>"#) == "\u{2067}a\u{2069}\n\u{FFFC}\n\u{2067}b\u{2069}")
    }
    // <p dir> sets the paragraph's direction and inserts no isolates.
    @Test func paragraphDirHasNoIsolates() {
        let s = story(#"<p dir="rtl">שלום</p>"#)
        #expect(s.text == "שלום" && s.paragraphs[0].style.direction == .rtl)
    }
    // An opening isolate maps to the text it comes before, a closing one to the end tag; the text keeps its columns.
    @Test func isolatesSourceMap() {
        let s = story(#"<span dir="rtl">ab</span>"#)
        #expect(source(s, byte: 0) == "1:17")  // RLI: at "a"
        #expect(source(s, byte: 3) == "1:17")  // "a"
        #expect(source(s, byte: 5) == "1:19")  // PDI: the </span
    }
}

// MARK: - Links

@Suite struct LinkTests {
    // <a href> sets the link and the template's link colour (no underline by default).
    @Test func link() {
        assertDump(
            listing(#"see <a href="https://example.org">the site</a>."#),
            #"""
            "see the site."
            style 0 face="DejaVu Serif" size=10 color=#000000
            style 1 face="DejaVu Serif" size=10 color=#1f4e8c link="https://example.org"
            run 0..<4 style 0 "see "
            run 4..<12 style 1 "the site"
            run 12..<13 style 0 "."
            paragraph 0..<13 text
            """#)
    }
    // The template's link style: a colour and an underline.
    @Test func templateLinkStyle() {
        var t = Template.default
        t.link = LinkSpec(color: RGBA(1, 0, 0), underline: .dashed)
        let s = buildStory(#"<a href="x">y</a>"#, template: t).story
        #expect(s.styles[0].color == RGBA(1, 0, 0) && s.styles[0].underline == Decoration(style: .dashed))
        #expect(s.styles[0].link == "x")
    }
    // Tags inside a link add to its style and keep the link.
    @Test func styledLinkText() {
        let s = story(#"<a href="x">a<b>b</b></a>"#)
        #expect(s.styles.map { "\($0.link ?? "-") \($0.weight)" } == ["x 400", "x 700"])
    }
    // A link inside a link: a warning; the inner <a> is ignored, its </a> still matches it.
    @Test func nestedLink() {
        assertDump(
            listing(#"<a href="a">x<a href="b">y</a>z</a>w"#),
            #"""
            "xyzw"
            style 0 face="DejaVu Serif" size=10 color=#1f4e8c link="a"
            style 1 face="DejaVu Serif" size=10 color=#000000
            run 0..<3 style 0 "xyz"
            run 3..<4 style 1 "w"
            paragraph 0..<4 text
            t.txt:1:14: warning: links may not nest: this <a> is inside the <a> opened at 1:1; it is ignored
            <a href="a">x<a href="b">y</a>z</a>w
                         ^~
            """#)
    }
}
