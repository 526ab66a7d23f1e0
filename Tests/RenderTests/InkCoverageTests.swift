import GalleyLayout
import Testing

@testable import GalleyRender

/// The ink meter's reading of Ghostscript's `pamcmyk32` stream: pages of PAM images, however
/// the pipe cuts them.
@Suite struct InkCoverageTests {
    /// A PAM image `width` pixels wide and one high, of these CMYK pixels.
    static func pam(_ pixels: [[UInt8]]) -> [UInt8] {
        let header = "P7\nWIDTH \(pixels.count)\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE CMYK\nENDHDR\n"
        return Array(header.utf8) + pixels.flatMap { $0 }
    }

    static let stream =
        pam([[0, 0, 0, 255], [255, 255, 255, 255], [0, 0, 0, 0], [255, 255, 200, 0]]) + pam([[200, 180, 170, 230], [0, 0, 0, 0]])

    // Each page's most ink and its share over 300 %, the same read whole, a byte at a time and
    // in pieces of seven (which cut pixels and headers).
    @Test(arguments: [Self.stream.count, 1, 7]) func pagesInAnyPieces(piece: Int) {
        var ink = PAMInk(limit: 300)
        var i = 0
        while i < Self.stream.count {
            ink.consume(Array(Self.stream[i..<min(Self.stream.count, i + piece)]))
            i += piece
        }
        #expect(ink.isComplete)
        #expect(ink.pages.map(\.page) == [1, 2])
        #expect(ink.pages.map { Int($0.maximum.rounded()) } == [400, 306])
        #expect(ink.pages.map(\.overLimit) == [0.25, 0.5])
    }

    // The spots over the limit are boxed in points (2 pt a pixel at 36 dpi), row by row.
    @Test func hotBox() {
        let header = "P7\nWIDTH 3\nHEIGHT 2\nDEPTH 4\nMAXVAL 255\nTUPLTYPE CMYK\nENDHDR\n"
        let light: [UInt8] = [0, 0, 0, 10]
        let heavy: [UInt8] = [255, 255, 255, 255]
        var ink = PAMInk(limit: 300)
        ink.consume(Array(header.utf8) + light + light + heavy + light + heavy + light)
        #expect(ink.pages.first?.hot == Rect(x: 2, y: 0, width: 4, height: 4))
        var none = PAMInk(limit: 300)
        none.consume(Array(header.utf8) + Array(repeating: light, count: 6).flatMap { $0 })
        #expect(none.pages.first.map { $0.hot == nil } == true)
    }

    // A stream cut inside an image is not complete (Ghostscript failed part way).
    @Test func cutShort() {
        var ink = PAMInk(limit: 300)
        ink.consume(Array(Self.stream.prefix(Self.stream.count - 3)))
        #expect(!ink.isComplete)
    }
}
