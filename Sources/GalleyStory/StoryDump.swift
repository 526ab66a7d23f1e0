import GalleyMarkup

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
///   `fill` when the outline takes the fill colour. `lang=` appears when it is not `en`.
/// * Runs and paragraphs: `a..<b` in characters. A paragraph whose terminator is not where the
///   story's invariants put it shows `end=N`.
/// * Images: the `src` as written, the header's format and pixel size, `dpi=` when the file says,
///   `set WxH pt` for width/height attributes (`-` for one left out), and the tag's place.
public enum StoryDump {
    public static func dump(_ story: Story) -> String {
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

    /// `dumpQuoted`, with U+FFFC (an object's place in the text) escaped too.
    static func quoted(_ text: Substring) -> String {
        dumpQuoted(String(text)).replacingOccurrences(of: "\u{FFFC}", with: "\\u{FFFC}")
    }

    /// The text of UTF-8 bytes `r`, clamped to the string.
    static func slice(_ text: String, _ r: Range<Int>) -> Substring {
        let u = text.utf8
        let lo = u.index(u.startIndex, offsetBy: min(max(0, r.lowerBound), u.count))
        let hi = u.index(u.startIndex, offsetBy: min(max(r.lowerBound, r.upperBound), u.count))
        return text[lo..<hi]
    }

    /// 10 → "10", 9.5 → "9.5", -3 → "-3".
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return String(v)
    }
}
