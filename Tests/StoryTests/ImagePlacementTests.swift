import GalleyMarkup
import GalleyStory
import TestSupport
import Testing

@testable import GalleyTemplate

/// `<img>` placement attributes: where the image goes, how text wraps, its caption and shape.
@Suite struct ImagePlacementTests {
    func images(_ markup: String) -> (Story, String) {
        let built = buildStory(markup)
        return (built.story, built.rendered)
    }

    // With no placement attributes an image is the tutorial's block, a paragraph of its own.
    @Test func block() {
        let (story, messages) = images("<img src=\"images/chart.png\">")
        #expect(messages.isEmpty)
        #expect(story.images[0].placement == .block && story.images[0].anchor == nil)
        #expect(story.paragraphs[0].content == .image(0))
    }

    // float left/right/center on a line of its own: a paragraph holding the float.
    @Test func floats() {
        for (value, placement) in [
            ("left", ImagePlacement.float(.left)), ("right", .float(.right)), ("center", .float(.center)), ("top", .top),
            ("bottom", .bottom),
        ] {
            let (story, messages) = images("<img src=\"images/chart.png\" float=\"\(value)\">")
            #expect(messages.isEmpty)
            #expect(story.images[0].placement == placement, "\(value)")
        }
    }

    // A float inside running text is anchored there: its U+FFFC stands in the paragraph.
    @Test func anchoredFloat() {
        let (story, _) = images("Text before <img src=\"images/chart.png\" float=\"right\"> and after.")
        let image = story.images[0]
        #expect(story.paragraphs.count == 1)
        let anchor = try! #require(image.anchor)
        #expect(Array(story.text.utf8)[anchor..<(anchor + 3)] == Array("\u{FFFC}".utf8)[...])
    }

    // inline images stand in the text; width as a percentage, margin, caption and wrap are read.
    @Test func inlineAndOptions() {
        let (story, messages) = images(
            """
            An <img src="images/compass.svg" inline> inline image.
            <img src="images/badge.png" float="left" width="40%" wrap="contour" margin="8" caption="The emblem.">
            """)
        #expect(messages.isEmpty)
        #expect(story.images[0].placement == .inline && story.images[0].anchor != nil)
        let float = story.images[1]
        #expect(float.widthSpec == .percent(40))
        #expect(float.wrap == .contour && float.margin == 8 && float.caption == "The emblem.")
        // A contour around a PNG with no shape follows its alpha channel.
        #expect(float.shape == .alpha)
    }

    // span="page" and columns="2" go across the columns.
    @Test func spans() {
        #expect(images("<img src=\"images/harbour.jpg\" span=\"page\">").0.images[0].placement == .span)
        #expect(images("<img src=\"images/harbour.jpg\" columns=\"2\">").0.images[0].placement == .span)
    }

    // Shapes: circle, polygon in pixels or percentages.
    @Test func shapes() {
        #expect(images("<img src=\"images/badge.png\" float=\"left\" shape=\"circle\">").0.images[0].shape == .ellipse)
        let polygon = images("<img src=\"images/badge.png\" float=\"left\" shape=\"polygon(0 0, 400 0, 50% 100%)\">").0.images[0]
        #expect(polygon.shape == .polygon([0, 0, 400, 0, 200, 400]))
        #expect(polygon.wrap == .contour)
    }

    // Bad values are located errors, with suggestions where one is close.
    @Test func errors() {
        #expect(
            images("<img src=\"images/chart.png\" float=\"rigth\">").1 == """
                t.txt:1:36: error: unknown float 'rigth'; did you mean 'right'? (use left, right, center, top, bottom or none)
                <img src="images/chart.png" float="rigth">
                                                   ^~~~~

                """)
        #expect(images("<img src=\"images/chart.png\" float=\"left\" wrap=\"around\">").1.contains("unknown wrap 'around'"))
        #expect(images("<img src=\"images/chart.png\" width=\"140%\">").1.contains("width must be a percentage above 0 and at most 100"))
        #expect(images("<img src=\"images/chart.png\" width=\"-3\">").1.contains("width must be greater than 0"))
        #expect(
            images("<img src=\"images/chart.png\" float=\"left\" shape=\"polygon(0 0, 1)\">").1.contains(
                "malformed polygon: point 2 is '1'"))
        #expect(images("<img src=\"images/chart.png\" float=\"left\" shape=\"polygon(0 0, 1 1)\">").1.contains("at least 3 points"))
        for odd in ["nan", "inf", "1e9", "2000000"] {
            let said = images("<img src=\"images/chart.png\" float=\"left\" shape=\"polygon(0 0, 100 0, 50 \(odd))\">").1
            #expect(said.contains("malformed polygon: point 3 is '50 \(odd)'"), "\(odd): \(said)")
        }
        #expect(images("<img src=\"images/chart.png\" float=\"left\" shape=\"circel\">").1.contains("did you mean 'circle'"))
    }

    // What had no effect, unsaid: a float or span on an inline image, a height beside a width in
    // percent, an alpha shape on a JPEG, a polygon point off the image (text ran over it).
    @Test func attributesOfNoEffectAreSaid() {
        let cases = [
            (#"<img src="images/chart.png" inline float="left">"#, #"float="left" has no effect on an inline image"#),
            (#"<img src="images/chart.png" inline span="page">"#, #"span="page" has no effect on an inline image"#),
            (#"<img src="images/chart.png" width="50%" height="50">"#, "height has no effect beside a width in percent"),
            (#"<img src="images/harbour.jpg" float="left" shape="alpha">"#, "a JPEG image has no alpha channel to follow"),
            (#"<img src="images/chart.png" float="left" shape="polygon(0 0, 200 0, 0 -5)">"#, "polygon point 3 (0 -5) lies off the image"),
        ]
        for (text, said) in cases {
            let out = images(text).1
            #expect(out.contains("warning: " + said), "\(text): \(out)")
        }
        #expect(!images(#"<img src="images/chart.png" float="left" shape="polygon(0 0, 100% 0, 50% 100%)">"#).1.contains("warning"))
    }
}

/// Social text through the builder: links styled by kind, emoticons as emoji or images, and
/// every range after a replacement still covering exactly its own text.
@Suite struct SocialStoryTests {
    func story(_ markup: String, everywhere: Bool = true) -> Story {
        TestFonts.pin()
        let source = SourceFile(path: "t.txt", text: markup)
        var builder = StoryBuilder(template: .default, baseDirectory: repoPath("samples"))
        builder.socialEverywhere = everywhere
        return builder.build(MarkupParser.parse(source)).0
    }

    /// The links of a story: (linked text, target), in order.
    func links(_ s: Story) -> [(String, String)] {
        var out: [(String, String)] = []
        for run in s.runs {
            guard let target = s.styles[run.style].link else { continue }
            let text = String(s.text.utf8Slice(run.range))
            if let last = out.last, last.1 == target { out[out.count - 1].0 += text } else { out.append((text, target)) }
        }
        return out
    }

    // Mentions, topics and URLs become links with the template's targets.
    @Test func kinds() {
        let s = story("转发 @张三: 看 #活字印刷# 和 https://example.com/a。")
        let found = links(s)
        #expect(found.map(\.0) == ["@张三", "#活字印刷#", "https://example.com/a"])
        #expect(found[0].1 == "https://weibo.com/n/%E5%BC%A0%E4%B8%89")
        #expect(found[2].1 == "https://example.com/a")
    }

    // Many emoticon codes before a link do not shift it: the link covers exactly its text.
    @Test func noIndexShift() {
        let codes = String(repeating: "[哈哈][心][赞]", count: 50)
        let s = story(codes + " see https://example.com/x and @toto97 ok")
        let found = links(s)
        #expect(found.map(\.0) == ["https://example.com/x", "@toto97"])
        #expect(!s.text.contains("[哈哈]"))
    }

    // Detection stays inside <social> blocks when it is not on everywhere.
    @Test func blocks() {
        let s = story("@outside\n<social>@inside</social>", everywhere: false)
        #expect(links(s).map(\.0) == ["@inside"])
    }
}
