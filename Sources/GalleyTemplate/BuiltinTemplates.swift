import GalleyMarkup
import GalleySupport

/// The compiled-in templates. Each is also written out as `templates/NAME.json`; a test checks
/// that every file decodes to exactly the value here.
enum BuiltinTemplates {
    /// In the order `galley templates` lists them.
    static let all: [Template] = [magazine, letter, tabloid, pocket, tablet, magazineChinese]

    /// Names of the built-ins, in order.
    static var names: [String] { all.map(\.name) }

    static let fallback = ["Noto Serif CJK SC", "Noto Color Emoji"]
    /// UIKit gray, what the colour name "gray" means.
    static let gray = RGBA(0.5, 0.5, 0.5)

    /// Total-fit breaking, hyphenation on (words of 6+, 2 before and 3 after the hyphen, no
    /// capitals, at most 2 hyphens in a row, not at a column's foot), widows and orphans 2,
    /// headings kept with 2 lines, baseline grid on; `HeadingsSpec()` and `LinkSpec()` (DejaVu Sans
    /// headings, links #1F4E8C without underline); `CaptionSpec()` (DejaVu Serif italic 8.5 pt
    /// #404040, 4 pt gap); text beside floats in intervals of 30 pt or more; `SocialSpec()` (off,
    /// Weibo links, no emoticon folders); no CJK auto-spacing; `TypographySpec()` (smart quotes,
    /// no dashes, curly CJK quotes). Shared by every built-in.
    static func withFlowRules(_ template: Template) -> Template {
        var t = template
        t.lineBreaking = .totalFit
        t.hyphenation = HyphenationSpec(
            enabled: true, minWord: 6, leftMin: 2, rightMin: 3, capitals: false, maxConsecutive: 2, acrossColumns: false)
        t.widows = 2
        t.orphans = 2
        t.keepWithNext = 2
        t.baselineGrid = true
        t.headings = HeadingsSpec()
        t.styles = Template.builtinStyles
        t.link = LinkSpec()
        t.caption = CaptionSpec()
        t.wrapMinWidth = 30
        t.social = SocialSpec()
        t.cjkAutoSpacing = false
        t.typography = TypographySpec()
        return t
    }

    /// A4, two columns, DejaVu Serif 10/12, justified; footer 8 pt gray, no running head
    /// (`Template.header`'s default: `{title}` in DejaVu Serif 8 pt gray); `withFlowRules`. The default.
    static let magazine = withFlowRules(
        Template(
            name: "magazine",
            summary: "A4, two columns, DejaVu Serif 10/12, justified",
            pageWidth: PageSize.a4.points.width, pageHeight: PageSize.a4.points.height,
            margins: EdgeInsets(all: LengthUnit.mm.of(15)),
            columns: 2,
            gutter: LengthUnit.mm.of(6),
            body: TextSpec(face: "DejaVu Serif", size: 10, leading: 12, color: .black),
            paragraphSpacing: 6,
            firstLineIndent: 0,
            alignment: .justify,
            paragraphMode: .newline,
            language: "en",
            fallbackFaces: fallback,
            footer: FooterSpec(enabled: true, text: "{page}", face: "DejaVu Serif", size: 8, color: gray)))

    /// US Letter, 0.6 in margins, two columns with a 0.25 in gutter; otherwise magazine.
    static let letter: Template = {
        var t = magazine
        t.name = "letter"
        t.summary = "US Letter, two columns, DejaVu Serif 10/12, justified"
        (t.pageWidth, t.pageHeight) = PageSize.letter.points
        t.margins = EdgeInsets(all: LengthUnit.in.of(0.6))
        t.gutter = LengthUnit.in.of(0.25)
        return t
    }()

    /// 11 × 17 in, 0.5 in margins, three columns with a 5 mm gutter, DejaVu Serif 9.5/11.5.
    static let tabloid: Template = {
        var t = magazine
        t.name = "tabloid"
        t.summary = "11x17 in, three columns, DejaVu Serif 9.5/11.5, justified"
        (t.pageWidth, t.pageHeight) = PageSize.tabloid.points
        t.margins = EdgeInsets(all: LengthUnit.in.of(0.5))
        t.columns = 3
        t.gutter = LengthUnit.mm.of(5)
        t.body.size = 9.5
        t.body.leading = 11.5
        return t
    }()

    /// A5, 12 mm margins, one column, DejaVu Serif 9.5/12, footer and header 7 pt.
    static let pocket: Template = {
        var t = magazine
        t.name = "pocket"
        t.summary = "A5, one column, DejaVu Serif 9.5/12, justified"
        (t.pageWidth, t.pageHeight) = PageSize.a5.points
        t.margins = EdgeInsets(all: LengthUnit.mm.of(12))
        t.columns = 1
        t.body.size = 9.5
        t.body.leading = 12
        t.footer.size = 7
        t.header.size = 7
        return t
    }()

    /// The Core Text tutorial's iPad page: 768 × 1024 pt, 20 pt margins, two columns with a
    /// 20 pt gutter, Helvetica 14/18 justified, no footer (a Helvetica one when turned on, as is
    /// the header); Helvetica bold headings at 28, 21 and 17 pt; Helvetica captions.
    static let tablet: Template = {
        var t = magazine
        t.name = "tablet"
        t.summary = "768x1024 pt iPad page, two columns, Helvetica 14/18, justified, no footer"
        t.pageWidth = 768
        t.pageHeight = 1024
        t.margins = EdgeInsets(all: 20)
        t.gutter = 20
        t.body = TextSpec(face: "Helvetica", size: 14, leading: 18, color: .black)
        t.footer.enabled = false
        t.footer.face = "Helvetica"
        t.header.face = "Helvetica"
        let gray = HeadingsSpec.headingGray
        t.headings = HeadingsSpec(
            h1: HeadingSpec(face: "Helvetica", size: 28, weight: 700, color: gray, before: 18, after: 9),
            h2: HeadingSpec(face: "Helvetica", size: 21, weight: 700, color: gray, before: 13, after: 6),
            h3: HeadingSpec(face: "Helvetica", size: 17, weight: 700, color: gray, before: 9, after: 4))
        t.caption.face = "Helvetica"
        t.dropCap.face = "Helvetica"
        return t
    }()

    /// magazine set as Chinese is: zh-Hans, every paragraph's first line indented two ems
    /// (首行缩进) but the first after a heading, no space between paragraphs. Sans headings
    /// take a CJK sans for their Chinese (a rule of the font plan, for every template).
    static let magazineChinese: Template = {
        var t = magazine
        t.name = "magazine-zh"
        t.summary = "magazine for Chinese: zh-Hans, first lines indented 2 em, no paragraph spacing"
        t.language = "zh-Hans"
        t.firstLineIndent = 2 * t.body.size
        t.firstLineIndentRule = .conventional
        t.paragraphSpacing = 0
        return t
    }()
}
