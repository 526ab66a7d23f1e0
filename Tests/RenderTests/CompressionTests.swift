import CGalleyHooks
import CGalleyPixels
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

/// Compresses `input` the way Cairo does: chunks of `chunk` bytes with Z_NO_FLUSH (or `flush`),
/// then Z_FINISH, draining `space` bytes of output at a time. Returns the zlib stream.
private func compress(_ input: [UInt8], chunk: Int = 16384, space: Int = 4096, flush: Int32 = Z_NO_FLUSH) -> [UInt8] {
    var strm = z_stream()
    #expect(galley_deflate_init_whole(&strm) == Z_OK)
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: space)
    var position = 0
    var calls = 0
    input.withUnsafeBufferPointer { all in
        repeat {
            let n = min(chunk, all.count - position)
            let finish = position + n == all.count
            strm.next_in = UnsafeMutablePointer(mutating: all.baseAddress.map { $0 + position })
            strm.avail_in = UInt32(n)
            var status: Int32 = Z_OK
            repeat {
                buffer.withUnsafeMutableBufferPointer { b in
                    strm.next_out = b.baseAddress
                    strm.avail_out = UInt32(space)
                    status = deflate(&strm, finish ? Z_FINISH : flush)
                    out += b[0..<(space - Int(strm.avail_out))]
                }
                calls += 1
            } while (strm.avail_in > 0 || (finish && status != Z_STREAM_END)) && calls < 1_000_000
            #expect(status == (finish ? Z_STREAM_END : Z_OK))
            position += n
        } while position < all.count
    }
    #expect(Int(strm.total_in) == input.count && Int(strm.total_out) == out.count)
    #expect(deflateEnd(&strm) == Z_OK)
    return out
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
    @Test(arguments: [1, 2, 6, 9]) func everyLevelRoundTrips(level: Int32) throws {
        let before = galley_get_deflate_level()
        galley_set_deflate_level(level)
        defer { galley_set_deflate_level(before) }
        let text = pageLikeText(250_000)
        let packed = compress(text)
        #expect(try Inflate.zlib(packed) == text)
        #expect(packed.count * 4 < text.count)
        var generator = SplitMix(seed: UInt64(level))
        let noise = (0..<120_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        #expect(try Inflate.zlib(compress(noise, chunk: 7000, space: 999)) == noise)
    }

    // Past the limit a stream carries on through zlib's streaming deflate, its held input first.
    @Test func bigStreamsCarryOnThroughZlib() throws {
        let input = pageLikeText(200_000)
        let limit = galley_get_deflate_limit()
        galley_set_deflate_limit(50_000)
        defer { galley_set_deflate_limit(limit) }
        let out = compress(input, chunk: 16384, space: 1000)
        #expect(try Inflate.zlib(out) == input)
    }

    // A flush point asks for output now: the stream goes through zlib, which can give it.
    @Test func flushPointsGoThroughZlib() throws {
        let input = pageLikeText(50_000)
        #expect(try Inflate.zlib(compress(input, chunk: 7000, space: 512, flush: Z_SYNC_FLUSH)) == input)
    }

    // A noted shadow mask is found among the streams by its bytes (its rows, whatever the
    // stride it was noted with): the first sixteen are compressed as any stream and teach the
    // tables, the others are compressed with them. Every one reads back, and once learned they
    // are barely bigger than level 3 makes them. Other bytes are not taken for a mask.
    @Test func notedMasksUseLearnedTables() throws {
        defer { galley_deflate_forget_masks() }
        galley_deflate_forget_masks()
        var generator = SplitMix(seed: 5)
        func mask(_ w: Int, _ h: Int) -> [UInt8] {
            var m = [UInt8](repeating: 0, count: w * h)
            for y in 4..<(h - 4) { for x in 4..<(w - 4) where generator.next() % 3 == 0 { m[y * w + x] = 255 } }
            _ = m.withUnsafeMutableBufferPointer { galley_box_blur($0.baseAddress!, Int32(w), Int32(h), Int32(w), 1, 3) }
            return m
        }
        let before = galley_deflate_masks_matched()
        var sizes: [(learned: Int, level3: Int)] = []
        for i in 0..<24 {
            let (w, h) = (60 + i, 20 + i % 5)
            let m = mask(w, h)
            let stride = w + 3
            var padded = [UInt8](repeating: 7, count: stride * h)
            for y in 0..<h { padded[(y * stride)..<(y * stride + w)] = m[(y * w)..<(y * w + w)] }
            galley_deflate_note_mask(padded, Int32(w), Int32(h), Int32(stride))
            let packed = compress(m)
            #expect(try Inflate.zlib(packed) == m, "mask \(i)")
            // Compressed again, its note used up: level 3, to compare with.
            if i >= 16 { sizes.append((packed.count, compress(m).count)) }
        }
        #expect(galley_deflate_masks_matched() - before == 24)
        let learned = sizes.map(\.learned).reduce(0, +)
        let level3 = sizes.map(\.level3).reduce(0, +)
        #expect(learned < level3 * 11 / 10, "learned tables: \(learned) bytes, level 3: \(level3)")
        // Other bytes of the same length are not taken for a noted mask; the mask's own are.
        let m = mask(64, 20)
        galley_deflate_note_mask(m, 64, 20, 64)
        let matched = galley_deflate_masks_matched()
        _ = compress(Array(m.reversed()))
        #expect(galley_deflate_masks_matched() == matched)
        _ = compress(m)
        #expect(galley_deflate_masks_matched() == matched + 1)
    }

    // In a PDF: the CFF font programs and the page streams read back, and a higher level makes
    // a file no bigger.
    @Test func pdfStreamsReadBackAtEveryLevel() throws {
        let dir = TemporaryDirectory("compression")
        dir.write("t.txt", Self.chinese)
        var sizes: [Int] = []
        for level in ["1", "9"] {
            let r = run(["build", dir.file("t.txt"), "-o", dir.file("t\(level).pdf"), "-q", "--compression", level])
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
