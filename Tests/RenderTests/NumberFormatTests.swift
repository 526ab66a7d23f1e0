import CGalleyHooks
import Foundation
import Testing

/// glibc's own formatting of one value (vsnprintf is not hooked).
private func glibc(_ format: String, _ value: CVarArg) -> String {
    var buffer = [CChar](repeating: 0, count: 96)
    _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
    return String(cString: buffer)
}

private func ours(_ format: String, _ d: Double, size: Int = 96) -> (String, Int32) {
    var buffer = [CChar](repeating: 0x7F, count: max(size, 1))
    let n = galley_format_double(&buffer, size, format, d)
    return (size > 0 ? String(cString: buffer) : "", n)
}

@Suite struct NumberFormatTests {
    // Cairo's "%f" numbers written without printf are exactly glibc's, whatever the value:
    // random ones at every magnitude a PDF holds, halves and near-halves, negative zero, huge
    // and non-finite values (those go to glibc).
    @Test func fixedPointLikeGlibc() {
        var generator = SplitMix(seed: 5)
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1e-7, -1e-7, 4.9999995e-7, 5e-7, 0.0000005, 1.0000005, 2.5e-6, 123.4567895, 999_999.9999995,
            1e6, -1e6, 1e300, .infinity, -.infinity, .nan, 42.519685039370074, 841.8897637795275, 0.1 + 0.2,
        ]
        for _ in 0..<20000 {
            let r = generator.next()
            let magnitude = pow(10, Double(Int(r % 12)) - 4)
            let unit = Double(r >> 11) / Double(1 << 53)
            values.append((r & 1 == 0 ? 1 : -1) * unit * magnitude)
            // Values on a 1/1024 grid, as Pango positions are.
            values.append(Double(Int64(bitPattern: r) % 1_000_000) / 1024)
        }
        for v in values {
            #expect(ours("%f", v).0 == glibc("%f", v), "\(v)")
        }
        // "%.*f" at every precision, ours up to 6 and glibc's beyond.
        var buffer = [CChar](repeating: 0, count: 96)
        for (i, v) in values.enumerated() {
            let digits = Int32(i % 9)
            _ = galley_format_precision(&buffer, buffer.count, digits, v)
            var expected = [CChar](repeating: 0, count: 96)
            _ = withVaList([digits, v]) { vsnprintf(&expected, expected.count, "%.*f", $0) }
            #expect(String(cString: buffer) == String(cString: expected), "\(v) to \(digits)")
        }
    }

    @Test func integersAndZerosLikeGlibc() {
        var buffer = [CChar](repeating: 0, count: 32)
        for v in [0, 1, -1, 9, 10, 123_456_789, Int32.max, Int32.min, -42] {
            _ = galley_format_int(&buffer, buffer.count, v)
            #expect(String(cString: buffer) == glibc("%d", v))
        }
        for v in [0, 1, -1, Int.max, Int.min, 1_234_567_890_123] {
            _ = galley_format_long(&buffer, buffer.count, v)
            #expect(String(cString: buffer) == glibc("%ld", v))
        }
        for v in [0, 7, -7, 15, 1_234_567_890, 12_345_678_901, -123_456_789_012, Int.max, Int.min] {
            _ = galley_format_offset(&buffer, buffer.count, v)
            #expect(String(cString: buffer) == glibc("%010ld", v), "\(v)")
        }
        for v: UInt32 in [0, 1, 0xF, 0x10, 0xABC, 0xFFFF, 0x1_0000, 0xDEAD_BEEF] {
            for width: Int32 in [0, 1, 2, 4, 6, 8] {
                _ = galley_format_hex(&buffer, buffer.count, width, v)
                var expected = [CChar](repeating: 0, count: 32)
                _ = withVaList([width, v]) { vsnprintf(&expected, expected.count, "%0*x", $0) }
                #expect(String(cString: buffer) == String(cString: expected), "\(v) \(width)")
            }
        }
        #expect(ours("%.18f", 0).0 == glibc("%.18f", 0.0))
        #expect(ours("%.18f", -0.0).0 == glibc("%.18f", -0.0))
        #expect(ours("%.18f", 0.012345).0 == glibc("%.18f", 0.012345))
        #expect(ours("%.3f", 2.5).0 == glibc("%.3f", 2.5))  // another format: glibc's
    }

    // A short buffer gets what fits and its NUL; the result is still the whole length.
    @Test func truncatesLikeSnprintf() {
        let (text, n) = ours("%f", -123.25, size: 5)
        #expect(text == "-123" && n == 11)
        #expect(ours("%f", 1.5, size: 0).1 == 8)
    }
}
