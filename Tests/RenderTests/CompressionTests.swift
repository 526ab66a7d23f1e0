import Foundation
import TestSupport
import Testing

/// The streams of a PDF whose dictionary holds `marker`, inflated, with their back-reference counts.
private func streams(_ pdf: [UInt8], marked marker: String) throws -> [(bytes: [UInt8], matches: Int)] {
    let m = Array(marker.utf8)
    let open = Array("stream\n".utf8)
    let close = Array("endstream".utf8)
    func find(_ needle: [UInt8], from: Int) -> Int? {
        guard needle.count <= pdf.count else { return nil }
        var i = from
        while i + needle.count <= pdf.count {
            if pdf[i] == needle[0] && Array(pdf[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
    var out: [(bytes: [UInt8], matches: Int)] = []
    var at = 0
    while let hit = find(m, from: at), let start = find(open, from: hit), let end = find(close, from: start) {
        out.append(try Inflate.zlibCountingMatches(Array(pdf[(start + open.count)..<end])))
        at = end
    }
    return out
}

/// Page content streams (text operators) are ordinary deflate data with back-references.
private func contentMatches(_ pdf: [UInt8]) throws -> Int {
    try streams(pdf, marked: "/Length").reduce(0) { $0 + $1.matches }
}

@Suite struct CompressionTests {
    static let chinese = String(repeating: "兰叶春葳蕤，桂华秋皎洁。欣欣此生意，自尔为佳节。谁知林栖者，闻风坐相悦。\n", count: 20)

    @Test func cffFontProgramsAreHuffmanCodedAtTheFastestLevel() throws {
        let dir = TemporaryDirectory("compression")
        dir.write("t.txt", Self.chinese)
        let r = run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf"), "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let pdf = [UInt8](try #require(dir.read("t.pdf")))
        let fonts = try streams(pdf, marked: "/CIDFontType0C")
        #expect(!fonts.isEmpty)
        for f in fonts {
            #expect(Array(f.bytes.prefix(3)) == [1, 0, 4], "a bare CFF table")
            #expect(f.matches == 0)
        }
        #expect(try contentMatches(pdf) > 0, "other streams keep LZ77")
    }

    @Test func higherLevelsCompressFontProgramsFully() throws {
        let dir = TemporaryDirectory("compression")
        dir.write("t.txt", Self.chinese)
        let r = run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf"), "-q", "--compression", "6"])
        #expect(r.status == 0, "\(r.stderr)")
        let fonts = try streams([UInt8](try #require(dir.read("t.pdf"))), marked: "/CIDFontType0C")
        #expect(!fonts.isEmpty)
        for f in fonts { #expect(f.matches > 0) }
    }
}
