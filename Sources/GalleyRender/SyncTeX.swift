import CZlib
import FoundationEssentials
import GalleyLayout
import GalleyStory
import GalleySupport

/// Where each placed line and image of a PDF came from, in SyncTeX's format (`OUT.synctex.gz`
/// beside `OUT.pdf`), so that PDF viewers jump from a click to the source line and editors
/// from a line to its place on the page. One sheet per page; in it one vbox per frame and one
/// hbox per line (its baseline, width, ascent and descent) or image, tagged with the source
/// file and line. Coordinates are in TeX's scaled points (65536 to the TeX point, 72.27 to the
/// inch) from the top left of the page, down.
public struct SyncTeXWriter {
    private var text: [UInt8] = []
    /// Where the last `!` anchor began: each anchor gives the bytes written since the last one.
    private var anchor = 0
    private var inputs: [String: Int] = [:]
    private var sheets = 0
    private var records = 0
    /// The PDF's folder: inputs under it are named from it (`./article.txt`), as TeX does, which
    /// viewers and the `synctex` tool match whether asked with that name, a bare one or a full
    /// path; others by their full path.
    private let folder: String

    static let pointsToScaled = 65536 * 72.27 / 72

    /// `pdf`: the PDF the records describe; `files`: the source files its pages come from.
    public init(pdf: String, files: [String]) {
        folder = FileRoot.canonicalPath(FilePath.directory(of: pdf))
        append("SyncTeX Version:1\n")
        for file in files where inputs[file] == nil {
            let t = inputs.count + 1
            inputs[file] = t
            let path = FileRoot.canonicalPath(file)
            let name = path.hasPrefix(folder + "/") ? "." + path.dropFirst(folder.count) : Substring(path)
            append("Input:\(t):\(name)\n")
        }
        append("Output:pdf\nMagnification:1000\nUnit:1\nX Offset:0\nY Offset:0\nContent:\n")
    }

    /// Records a page: its `placements` (a laid-out page and the story and file it belongs to,
    /// one of the files the writer was made with), as sheet `number` of the PDF (from 1).
    public mutating func add(sheet number: Int, _ placements: [(page: Page, story: Story, file: String)]) {
        let tags = placements.map { inputs[$0.file] ?? 1 }
        markAnchor()
        append("{\(number)\n")
        for ((page, story, _), tag) in zip(placements, tags) {
            for frame in page.frames where !frame.isEmpty {
                let top = frame.lines.first?.box.y ?? frame.rect.y
                let firstLine = frame.lines.first.map { line(of: $0.storyRange.lowerBound, story) } ?? 1
                box(
                    "[", tag, firstLine, x: frame.rect.x, baseline: frame.rect.maxY, width: frame.rect.width, ascent: frame.rect.maxY - top,
                    descent: 0)
                for l in frame.lines {
                    let ascent = l.origin.y - l.box.y
                    box(
                        "(", tag, line(of: l.storyRange.lowerBound, story), x: l.box.x, baseline: l.origin.y, width: l.box.width,
                        ascent: ascent, descent: l.box.height - ascent)
                    append(")\n")
                }
                for i in frame.images { image(i, tag, story) }
                append("]\n")
            }
            for i in page.floats { image(i, tag, story) }
        }
        markAnchor()
        append("}\(number)\n")
        sheets += 1
    }

    /// The file: postamble added, compressed with gzip.
    public func gzipped() throws(RenderError) -> [UInt8] {
        var copy = self
        copy.markAnchor()
        copy.append("Postamble:\nCount:\(records)\n")
        copy.markAnchor()
        copy.append("Post scriptum:\n")
        return try Self.gzip(copy.text)
    }

    private func line(of byte: Int, _ story: Story) -> Int {
        story.sourceMap.sourceLocation(ofByte: byte, in: story.text)?.line ?? 1
    }

    private mutating func image(_ i: PlacedImage, _ tag: Int, _ story: Story) {
        box(
            "(", tag, line(of: i.storyOffset, story), x: i.rect.x, baseline: i.rect.maxY, width: i.rect.width, ascent: i.rect.height,
            descent: 0)
        append(")\n")
    }

    private mutating func box(
        _ kind: String, _ tag: Int, _ line: Int, x: Double, baseline: Double, width: Double, ascent: Double, descent: Double
    ) {
        func sp(_ v: Double) -> Int { Int((v * Self.pointsToScaled).rounded()) }
        append("\(kind)\(tag),\(line):\(sp(x)),\(sp(baseline)):\(sp(width)),\(sp(ascent)),\(sp(descent))\n")
        records += 1
    }

    private mutating func markAnchor() {
        let since = text.count - anchor
        anchor = text.count
        append("!\(since)\n")
    }

    private mutating func append(_ s: String) { text.append(contentsOf: s.utf8) }

    /// `bytes` in gzip's format (zlib's deflate with a gzip wrapper).
    static func gzip(_ bytes: [UInt8]) throws(RenderError) -> [UInt8] {
        var stream = z_stream()
        // 15 window bits, plus 16 for the gzip header and trailer.
        guard
            deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw RenderError(.error("cannot compress the SyncTeX file: zlib refused")) }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                stream.next_in = src.baseAddress
                stream.avail_in = UInt32(src.count)
                stream.next_out = dst.baseAddress
                stream.avail_out = UInt32(dst.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw RenderError(.error("cannot compress the SyncTeX file: zlib status \(status)")) }
        return Array(out.prefix(Int(stream.total_out)))
    }

    /// Where the SyncTeX file of `pdf` goes: beside it, named as viewers look for it.
    public static func path(for pdf: String) -> String {
        FilePath.deletingExtension(pdf) + ".synctex.gz"
    }
}
