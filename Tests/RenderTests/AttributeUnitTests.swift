import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyRender

@Suite struct AttributeUnitTests {
    // Three box passes of width 2r + 1 have variance 3((2r+1)² − 1)/12 ≈ σ²: the radius for σ.
    @Test func blurRadius() {
        #expect(BoxBlur.radius(sigma: 0) == 0)
        for sigma in [2.0, 5.0, 10.0, 40.0] {
            let r = Double(BoxBlur.radius(sigma: sigma))
            let variance = 3 * ((2 * r + 1) * (2 * r + 1) - 1) / 12
            #expect(abs(variance.squareRoot() - sigma) < 1.2, "σ \(sigma): r \(r)")
        }
    }

    // A blurred dot spreads symmetrically, keeps (nearly) its total, and peaks where it was.
    @Test func blurOfADot() {
        let w = 41
        let h = 31
        let stride = 44
        var data = [UInt8](repeating: 0, count: stride * h)
        for y in 14...16 { for x in 19...21 { data[y * stride + x] = 255 } }
        let before = data.reduce(0) { $0 + Int($1) }
        data.withUnsafeMutableBufferPointer { BoxBlur.apply($0.baseAddress!, width: w, height: h, stride: stride, radius: 2) }
        let after = data.reduce(0) { $0 + Int($1) }
        #expect(abs(after - before) < before / 20)
        #expect(data[15 * stride + 20] == data.max())
        #expect(data[15 * stride + 14] == data[15 * stride + 26])
        #expect(data[9 * stride + 20] == data[21 * stride + 20])
        #expect(data[15 * stride + 14] > 0 && data[15 * stride + 12] == 0)
        // The padding bytes past the width are left alone.
        #expect((0..<h).allSatisfy { y in (w..<stride).allSatisfy { data[y * stride + $0] == 0 } })
    }

    // The fast blur gives what the definition gives: each pass, every pixel becomes the rounded
    // mean of the 2r + 1 pixels around it in its row (then column), pixels outside counting 0.
    @Test func blurMatchesTheDefinition() {
        var generator = SplitMix(seed: 7)
        for (w, h, r) in [(1, 1, 1), (5, 3, 2), (37, 23, 3), (64, 9, 7), (8, 40, 12)] {
            let stride = w + 3
            var data = (0..<stride * h).map { i in i % stride < w ? UInt8(truncatingIfNeeded: generator.next()) : 0 }
            var expected = data
            func mean(_ sum: Int) -> UInt8 { UInt8(min(255, (Double(sum) / Double(2 * r + 1)).rounded())) }
            for _ in 0..<3 {
                let before = expected
                for y in 0..<h {
                    for x in 0..<w {
                        let sum = (max(0, x - r)...min(w - 1, x + r)).reduce(0) { $0 + Int(before[y * stride + $1]) }
                        expected[y * stride + x] = mean(sum)
                    }
                }
            }
            for _ in 0..<3 {
                let before = expected
                for y in 0..<h {
                    for x in 0..<w {
                        let sum = (max(0, y - r)...min(h - 1, y + r)).reduce(0) { $0 + Int(before[$1 * stride + x]) }
                        expected[y * stride + x] = mean(sum)
                    }
                }
            }
            data.withUnsafeMutableBufferPointer { BoxBlur.apply($0.baseAddress!, width: w, height: h, stride: stride, radius: r) }
            let off = zip(data, expected).map { abs(Int($0) - Int($1)) }
            // The 16.16 reciprocal may round a mean that is within a hair of a half the other way.
            #expect(off.max()! <= 1 && off.filter { $0 > 0 }.count * 50 <= data.count, "\(w)×\(h) r \(r)")
            // The padding bytes past the width are left alone.
            #expect((0..<h).allSatisfy { y in (w..<stride).allSatisfy { data[y * stride + $0] == 0 } })
        }
    }

    // The Gaussian's kernel for small σ: symmetric, summing to exactly 1 (65536), with the
    // variance of σ.
    @Test func smallBlurKernel() {
        for sigma in [0.2, 0.5, 0.79, 0.8, 1.0, 1.5, 1.99] {
            let k = ShadowBlur.kernel(sigma: sigma)
            let r = k.count / 2
            #expect(k.count % 2 == 1 && k.reduce(0, +) == 65536, "σ \(sigma)")
            #expect((0..<r).allSatisfy { k[$0] == k[k.count - 1 - $0] && k[$0] <= k[$0 + 1] }, "σ \(sigma): \(k)")
            let variance = (0..<k.count).reduce(0.0) { $0 + Double(k[$1]) / 65536 * Double(($1 - r) * ($1 - r)) }
            #expect(abs(variance.squareRoot() - sigma) < 0.05 * sigma + 0.02, "σ \(sigma): \(variance.squareRoot())")
        }
    }

    // A line blurred at any σ spreads as a Gaussian of that σ (within a tenth): the exact
    // kernel below 2 pixels (where three box passes of whole-pixel widths would make a σ of 1
    // pixel 1.4), box passes from there.
    @Test func blurWidthIsSigma() {
        for sigma in [0.75, 1.0, 1.5, 2.5, 4.0, 8.0] {
            let w = 81
            let h = 81
            var data = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h { data[y * w + 40] = 255 }
            data.withUnsafeMutableBufferPointer { ShadowBlur.apply($0.baseAddress!, width: w, height: h, stride: w, sigma: sigma) }
            // The middle row's spread along x (a vertical line: the vertical pass leaves it be).
            let row = (0..<w).map { Double(data[40 * w + $0]) }
            let total = row.reduce(0, +)
            let variance = row.enumerated().reduce(0.0) { $0 + $1.element * Double(($1.offset - 40) * ($1.offset - 40)) } / total
            #expect(abs(variance.squareRoot() - sigma) < 0.1 * sigma, "σ \(sigma): spread \(variance.squareRoot())")
        }
    }

    // The kernel blur gives what its definition gives: each pixel the rounded weighted sum of
    // its row's pixels around it, then its column's, pixels outside counting 0.
    @Test func kernelBlurMatchesTheDefinition() {
        var generator = SplitMix(seed: 11)
        for (w, h, sigma) in [(1, 1, 0.5), (6, 4, 0.75), (37, 23, 1.0), (9, 30, 1.8)] {
            let stride = w + 2
            var data = (0..<stride * h).map { i in i % stride < w ? UInt8(truncatingIfNeeded: generator.next()) : 0 }
            let k = ShadowBlur.kernel(sigma: sigma)
            let r = k.count / 2
            // The rounded weighted sum of `count` pixels around `at` (`pixel(i)` is the i-th).
            func blurred(at: Int, count: Int, _ pixel: (Int) -> UInt8) -> UInt8 {
                var sum = 32768
                for i in -r...r where (0..<count).contains(at + i) { sum += Int(pixel(at + i)) * Int(k[i + r]) }
                return UInt8(min(255, sum >> 16))
            }
            var rows = data
            for y in 0..<h {
                for x in 0..<w { rows[y * stride + x] = blurred(at: x, count: w) { data[y * stride + $0] } }
            }
            var expected = rows
            for y in 0..<h {
                for x in 0..<w { expected[y * stride + x] = blurred(at: y, count: h) { rows[$0 * stride + x] } }
            }
            data.withUnsafeMutableBufferPointer { ShadowBlur.apply($0.baseAddress!, width: w, height: h, stride: stride, sigma: sigma) }
            #expect(data == expected, "\(w)×\(h) σ \(sigma)")
        }
    }

    // Cairo's attribute strings escape ' and \ with a backslash.
    @Test func attributeEscaping() {
        #expect(LinkAttributes.escape("a'b\\c") == "a\\'b\\\\c")
        #expect(LinkAttributes.escape("plain") == "plain")
    }

    // A link's rectangles make one annotation while they stand one under the other, and a new
    // one where the link goes on in another column (or elsewhere on its line).
    @Test func linkPieces() {
        let column1 = [Rect(x: 10, y: 100, width: 50, height: 12), Rect(x: 0, y: 112, width: 60, height: 12)]
        let column2 = [Rect(x: 80, y: 10, width: 60, height: 12), Rect(x: 80, y: 22, width: 20, height: 12)]
        #expect(PageRenderer.pieces(column1 + column2) == [column1, column2])
        let apart = [Rect(x: 0, y: 10, width: 50, height: 12), Rect(x: 0, y: 60, width: 50, height: 12)]
        #expect(PageRenderer.pieces(apart) == [[apart[0]], [apart[1]]])
    }

    // Link rectangles are written as plain decimals, at most 3 decimals, no trailing zeros.
    @Test func attributeNumbers() {
        func text(_ v: Double) -> String {
            var bytes: [UInt8] = []
            PageRenderer.appendDecimal(v, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(text(0) == "0")
        #expect(text(115) == "115")
        #expect(text(654.889764) == "654.89")
        #expect(text(12.0004) == "12")
        #expect(text(0.05) == "0.05")
        #expect(text(1000.007) == "1000.007")
        #expect(text(-3.5) == "-3.5")
        #expect(text(-0.0001) == "0")
    }

    // URIs are made printable ASCII, with PDF string delimiters and non-ASCII percent-encoded.
    @Test func uriEncoding() {
        #expect(LinkAttributes.uri("https://x.org/a b(c)\\d/é") == "https://x.org/a%20b%28c%29%5Cd/%C3%A9")
        #expect(LinkAttributes.uri("mailto:a@b.c?subject=%41") == "mailto:a@b.c?subject=%41")
    }

    // Story links: runs with one target merge across a paragraph break, not across other text.
    @Test func linkIndex() {
        var story = buildStory("<font color=\"red\">a</font><font color=\"blue\">b\nc</font> d <font color=\"red\">e</font>").story
        for i in story.styles.indices where story.styles[i].color != .black { story.styles[i].link = "u" }
        let index = LinkIndex(story: story)
        // "ab" + "\n" + "c" is one link (a and b differ in style only), "e" another.
        #expect(index.links.map(\.range) == [0..<4, 7..<8])
        #expect(index.link(at: 0) == 0 && index.link(at: 3) == 0 && index.link(at: 5) == nil && index.link(at: 7) == 1)
    }
}
