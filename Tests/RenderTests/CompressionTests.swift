import Foundation
import TestSupport
import Testing

/// The streams of a PDF whose dictionary holds `marker`, inflated.
private func streams(_ pdf: [UInt8], marked marker: String) throws -> [[UInt8]] {
    let m = Array(marker.utf8)
    let open = Array("stream\n".utf8)
    let close = Array("endstream".utf8)
    func find(_ needle: [UInt8], from: Int) -> Int? {
        var i = from
        while i + needle.count <= pdf.count {
            if pdf[i] == needle[0] && Array(pdf[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
    var out: [[UInt8]] = []
    var at = 0
    while let hit = find(m, from: at), let start = find(open, from: hit), let end = find(close, from: start) {
        out.append(try Inflate.zlib(Array(pdf[(start + open.count)..<end])))
        at = end + close.count
    }
    return out
}

/// Compresses `input` through the executable's hooks the way Cairo has it compressed: chunks
/// of `chunk` bytes with Z_NO_FLUSH (or a sync flush), then Z_FINISH, draining `space` bytes of
/// output at a time, at `level`, with streams held whole up to `limit` bytes. The zlib stream.
private func compress(
    _ input: [UInt8], level: Int = 1, chunk: Int = 16384, space: Int = 4096, syncFlush: Bool = false, limit: Int = 32 << 20
) -> [UInt8] {
    let r = runExecutable(
        ["__hooks", "deflate", "\(level)", "\(chunk)", "\(space)", syncFlush ? "1" : "0", "\(limit)"], stdin: Data(input))
    #expect(r.status == 0, "\(r.stderr)")
    return [UInt8](r.stdout)
}

/// Text that compresses the way page content does, `count` bytes.
private func pageLikeText(_ count: Int) -> [UInt8] {
    var generator = SplitMix(seed: 11)
    var out: [UInt8] = []
    out.reserveCapacity(count + 64)
    while out.count < count {
        out += Array("[(w)\(generator.next() % 90)(or)\(generator.next() % 9)(d )]TJ\n0 -1.2 Td\n".utf8)
    }
    return Array(out.prefix(count))
}

@Suite struct CompressionTests {
    static let chinese = String(repeating: "兰叶春葳蕤，桂华秋皎洁。欣欣此生意，自尔为佳节。谁知林栖者，闻风坐相悦。\n", count: 20)

    // Cairo's streams are compressed whole: whatever the chunks and the output space, the result
    // is one zlib stream of the input.
    @Test(arguments: [(0, 16384, 4096), (1, 16384, 4096), (100_000, 16384, 7), (300_000, 3000, 65536)])
    func wholeStreamsRoundTrip(_ size: Int, _ chunk: Int, _ space: Int) throws {
        let input = pageLikeText(size)
        #expect(try Inflate.zlib(compress(input, chunk: chunk, space: space)) == input)
    }

    // Level 1 (igzip) and levels 2 to 9 (libdeflate) both make one zlib stream of the input,
    // for text and for bytes that barely compress (like a font program), and text shrinks.
    @Test(arguments: [1, 2, 6, 9]) func everyLevelRoundTrips(level: Int) throws {
        let text = pageLikeText(250_000)
        let packed = compress(text, level: level)
        #expect(try Inflate.zlib(packed) == text)
        #expect(packed.count * 4 < text.count)
        var generator = SplitMix(seed: UInt64(level))
        let noise = (0..<120_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        #expect(try Inflate.zlib(compress(noise, level: level, chunk: 7000, space: 999)) == noise)
    }

    // Past the limit a stream carries on through zlib's streaming deflate, its held input first.
    @Test func bigStreamsCarryOnThroughZlib() throws {
        let input = pageLikeText(200_000)
        let out = compress(input, chunk: 16384, space: 1000, limit: 50_000)
        #expect(try Inflate.zlib(out) == input)
    }

    // A flush point asks for output now: the stream goes through zlib, which can give it.
    @Test func flushPointsGoThroughZlib() throws {
        let input = pageLikeText(50_000)
        #expect(try Inflate.zlib(compress(input, chunk: 7000, space: 512, syncFlush: true)) == input)
    }

    // In a PDF made with the hooks: the CFF font programs and the page streams read back, and a
    // higher level makes a file no bigger.
    @Test func pdfStreamsReadBackAtEveryLevel() throws {
        let dir = TemporaryDirectory("compression")
        dir.write("t.txt", Self.chinese)
        var sizes: [Int] = []
        for level in ["1", "9"] {
            let r = runExecutable(["build", dir.file("t.txt"), "-o", dir.file("t\(level).pdf"), "-q", "--compression", level])
            #expect(r.status == 0, "\(r.stderr)")
            let pdf = [UInt8](try #require(dir.read("t\(level).pdf")))
            let fonts = try streams(pdf, marked: "/CIDFontType0C")
            #expect(!fonts.isEmpty)
            for f in fonts { #expect(Array(f.prefix(3)) == [1, 0, 4], "a bare CFF table") }
            let pages = try streams(pdf, marked: "/Length")
            #expect(pages.contains { String(decoding: $0, as: UTF8.self).contains(" Tm\n") })
            sizes.append(pdf.count)
            #expect(tool("qpdf", ["--check", dir.file("t\(level).pdf")]).status == 0)
        }
        #expect(sizes[1] <= sizes[0])
    }
}
