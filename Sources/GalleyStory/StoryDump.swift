import GalleyMarkup
import GalleySupport
import GalleyTemplate

/// The readable story listing tests compare: the story layer's oracle. Offsets are characters
/// (Unicode scalars, as `Story.characterOffset(ofByte:)` counts them), never bytes.
///
///     "Hello world"
///     "\u{FFFC}"
///     style 0 face="DejaVu Serif" size=10 color=#000000
///     style 1 face="DejaVu Serif" size=10 color=#ff0000 stroke=#0000ff/-3
///     run 0..<6 style 0 "Hello "
///     run 6..<11 style 1 "world"
///     run 12..<13 style 1 "\u{FFFC}"
///     paragraph 0..<11 text
///     paragraph 12..<13 image 0
///     image 0 src="a.png" png 320x240 px @2:1
///
/// * The text comes first, one line per `\n`-separated piece, quoted with `dumpQuoted` (the
///   object replacement character U+FFFC shown as `\u{FFFC}`). A story whose text ends with a
///   terminator shows a last `""` line.
/// * Styles: `stroke=COLOR/WIDTH` appears when the style has a stroke width or colour; COLOR is
///   `fill` when the outline takes the fill colour. `lang=` appears when it is not `en`. Then,
///   only when not the default: `weight=700 style=italic background=#ffff00 ligatures=0 kern=1.5
///   underline=single strikethrough=double/#ff0000 shadow=1,2,3,#808080 baseline=3.5
///   obliqueness=0.2 expansion=0.3 dir=rtl features=smcp,onum link="https://…" hyphenate=false`
///   (a decoration shows `/COLOR` when it has its own colour; the shadow is dx,dy,blur,colour).
/// * Text the builder inserts shows escaped: `\u{2028}` for `<br>`, `\u{2066}`/`\u{2067}`/
///   `\u{2068}` … `\u{2069}` for the isolates of `dir`.
/// * Runs and paragraphs: `a..<b` in characters. A paragraph whose terminator is not where the
///   story's invariants put it shows `end=N`. Then the paragraph style's fields that differ from
///   the template's plain paragraph (`StoryBuilder.paragraphStyle(for:)`; the default template
///   unless one is passed): `align=center indent=12 firstIndent=-6 before=9 after=4
///   lineHeight=14 leadingRatio=1.5 dir=rtl h2 heading hyphenate=false break=page vertical
///   dropcap=3`.
/// * Images: the `src` as written, the header's format and pixel size, `dpi=` when the file says,
///   `set WxH pt` for width/height attributes (`-` for one left out), and the tag's place.
public enum StoryDump {
    public static func dump(_ story: Story, template: Template = .default) -> String {
        let plain = StoryBuilder.paragraphStyle(for: template)
        var s = ""
        for piece in story.text.split(separator: "\n", omittingEmptySubsequences: false) {
            s += quoted(piece) + "\n"
        }
        for (i, style) in story.styles.enumerated() {
            s += "style \(i) face=\(dumpQuoted(style.face)) size=\(number(style.size)) color=\(style.color)"
            if style.strokeWidth != 0 || style.strokeColor != nil {
                s += " stroke=\(style.strokeColor.map { "\($0)" } ?? "fill")/\(number(style.strokeWidth))"
            }
            if style.language != "en" { s += " lang=\(style.language)" }
            s += characterExtras(style)
            s += "\n"
        }
        func chars(_ r: Range<Int>) -> String {
            "\(story.characterOffset(ofByte: r.lowerBound))..<\(story.characterOffset(ofByte: r.upperBound))"
        }
        for run in story.runs {
            s += "run \(chars(run.range)) style \(run.style) \(quoted(slice(story.text, run.range)))\n"
        }
        let count = story.text.utf8.count
        for (i, p) in story.paragraphs.enumerated() {
            s += "paragraph \(chars(p.range))"
            switch p.content {
            case .text: s += " text"
            case .image(let n): s += " image \(n)"
            }
            let expectedEnd = i == story.paragraphs.count - 1 && p.range.upperBound == count ? count : p.range.upperBound + 1
            if p.end != expectedEnd { s += " end=\(story.characterOffset(ofByte: p.end))" }
            s += paragraphExtras(p.style, plain: plain)
            s += "\n"
        }
        for (i, image) in story.images.enumerated() {
            s += "image \(i) src=\(dumpQuoted(image.source)) \(image.info.format.rawValue)"
            s += " \(image.info.pixelWidth)x\(image.info.pixelHeight) px"
            if let dpi = image.info.dpi { s += " dpi=\(number(dpi))" }
            if image.width != nil || image.height != nil {
                s += " set \(image.width.map(number) ?? "-")x\(image.height.map(number) ?? "-") pt"
            }
            s += " @\(image.location)\n"
        }
        return s
    }

    /// The character attributes beyond face, size, colour, stroke and language that differ from
    /// their defaults, each ` key=value`.
    static func characterExtras(_ t: TextStyle) -> String {
        var s = ""
        if t.weight != 400 { s += " weight=\(t.weight)" }
        if t.slant != .normal { s += " style=\(t.slant.rawValue)" }
        if let c = t.background { s += " background=\(c)" }
        if t.ligatures != 1 { s += " ligatures=\(t.ligatures)" }
        if t.kern != 0 { s += " kern=\(number(t.kern))" }
        if let d = t.underline { s += " underline=\(decoration(d))" }
        if let d = t.strikethrough { s += " strikethrough=\(decoration(d))" }
        if let h = t.shadow { s += " shadow=\(number(h.dx)),\(number(h.dy)),\(number(h.blur)),\(h.color)" }
        if t.baselineOffset != 0 { s += " baseline=\(number(t.baselineOffset))" }
        if t.obliqueness != 0 { s += " obliqueness=\(number(t.obliqueness))" }
        if t.expansion != 0 { s += " expansion=\(number(t.expansion))" }
        if let d = t.direction { s += " dir=\(d.rawValue)" }
        if !t.features.isEmpty { s += " features=\(t.features.joined(separator: ","))" }
        if let l = t.link { s += " link=\(dumpQuoted(l))" }
        if !t.hyphenate { s += " hyphenate=false" }
        return s
    }

    /// `single`, or `double/#ff0000` with a colour of its own.
    static func decoration(_ d: Decoration) -> String {
        d.style.rawValue + (d.color.map { "/\($0)" } ?? "")
    }

    /// The paragraph style's fields that differ from `plain` (the template's plain paragraph),
    /// each ` key=value`, or a bare word for flags.
    static func paragraphExtras(_ p: ParagraphStyle, plain: ParagraphStyle) -> String {
        var s = ""
        if p.alignment != plain.alignment { s += " align=\(p.alignment.rawValue)" }
        if p.indent != plain.indent { s += " indent=\(number(p.indent))" }
        if p.firstLineIndent != plain.firstLineIndent { s += " firstIndent=\(number(p.firstLineIndent))" }
        if p.spacingBefore != plain.spacingBefore { s += " before=\(number(p.spacingBefore))" }
        if p.spacingAfter != plain.spacingAfter { s += " after=\(number(p.spacingAfter))" }
        if let h = p.lineHeight { s += " lineHeight=\(number(h))" }
        if p.leadingRatio != plain.leadingRatio { s += " leadingRatio=\(number(p.leadingRatio))" }
        if let d = p.direction { s += " dir=\(d.rawValue)" }
        if p.headingLevel != 0 { s += " h\(p.headingLevel)" }
        if p.isHeading != plain.isHeading { s += p.isHeading ? " heading" : " not-heading" }
        if p.hyphenate != plain.hyphenate { s += " hyphenate=\(p.hyphenate)" }
        if p.breakBefore != .none { s += " break=\(p.breakBefore.rawValue)" }
        if p.vertical { s += " vertical" }
        if let d = p.dropCap { s += " dropcap=\(d.lines)" }
        return s
    }

    /// `dumpQuoted`, with U+FFFC (an object's place in the text) escaped too.
    static func quoted(_ text: Substring) -> String {
        dumpQuoted(String(text)).replacing("\u{FFFC}", with: "\\u{FFFC}")
    }

    /// The text of UTF-8 bytes `r`, clamped to the string.
    static func slice(_ text: String, _ r: Range<Int>) -> Substring {
        let u = text.utf8
        let lo = u.index(u.startIndex, offsetBy: min(max(0, r.lowerBound), u.count))
        let hi = u.index(u.startIndex, offsetBy: min(max(r.lowerBound, r.upperBound), u.count))
        return text[lo..<hi]
    }

    /// 10 → "10", 9.5 → "9.5", -3 → "-3"; rounded to 4 decimals (4.2250000000000005 → "4.225").
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        let r = (v * 10_000).rounded() / 10_000
        if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
        return abs(v) < 1e15 ? String(r) : String(v)
    }
}
