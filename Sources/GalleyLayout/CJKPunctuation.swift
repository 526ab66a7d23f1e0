import CPango
import GalleyStory
import Glibc

/// Punctuation Unicode shares between Latin and CJK text (…, —, ―, “ ” ‘ ’). Set beside
/// ideographs it must come from the CJK face, as a Chinese reader expects: full-width quotes,
/// an ellipsis centred in the em and dashes that join. Pango takes the first face of a run's
/// list that has the character, the Latin body face, so these ranges get a description with
/// the CJK face first (`FontPlan.cjkPunctuationSlot`).
enum CJKPunctuation {
    /// The second and third UTF-8 bytes (after 0xE2) of the characters concerned.
    @inline(__always) static func isShared(_ b1: UInt8, _ b2: UInt8) -> Bool {
        b1 == 0x80 && (b2 == 0x94 || b2 == 0x95 || b2 == 0xA6 || b2 == 0x98 || b2 == 0x99 || b2 == 0x9C || b2 == 0x9D)
    }

    /// The story ranges of shared punctuation that touches CJK text (the character just
    /// before or just after a run of it is CJK), in order. A quotation mark goes with its
    /// partner: an English sentence quoted in Chinese has both its marks full-width.
    static func ranges(_ text: UnsafePointer<CChar>, length: Int, from start: Int) -> [Range<Int>] {
        var found: [(range: Range<Int>, cjk: Bool)] = []
        // Open quotation marks waiting for their partner: index in `found`, and the mark's
        // last byte (0x9C “, 0x98 ‘).
        var open: [(index: Int, mark: UInt8)] = []
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        var i = 0
        while i + 2 < length {
            // Every character concerned starts with 0xE2: memchr skips the rest.
            guard let hit = memchr(bytes + i, 0xE2, length - i - 2) else { break }
            i = UnsafeRawPointer(hit) - UnsafeRawPointer(bytes)
            guard isShared(bytes[i + 1], bytes[i + 2]) else {
                i += 1
                continue
            }
            var end = i + 3
            while end + 2 < length && bytes[end] == 0xE2 && isShared(bytes[end + 1], bytes[end + 2]) { end += 3 }
            let before = scalar(before: i, bytes)
            let after = scalar(at: end, bytes, length: length)
            var cjk = isCJK(before) || isCJK(after)
            if end - i == 3 {
                let mark = bytes[i + 2]
                if mark == 0x9C || mark == 0x98 {
                    open.append((found.count, mark))
                } else if mark == 0x9D || mark == 0x99, let k = open.lastIndex(where: { $0.mark == mark - 1 }),
                    !(mark == 0x99 && isLetter(before) && isLetter(after))  // an apostrophe
                {
                    cjk = cjk || found[open[k].index].cjk
                    found[open[k].index].cjk = cjk
                    open.removeSubrange(k...)
                }
            }
            found.append(((start + i)..<(start + end), cjk))
            i = end
        }
        return found.filter(\.cjk).map(\.range)
    }

    private static func isCJK(_ v: UInt32?) -> Bool { v.flatMap(Unicode.Scalar.init)?.isCJK == true }

    private static func isLetter(_ v: UInt32?) -> Bool {
        guard let v, let s = Unicode.Scalar(v) else { return false }
        return s.properties.isAlphabetic
    }

    /// The scalar ending just before byte `i` (nil at the start).
    static func scalar(before i: Int, _ bytes: UnsafePointer<UInt8>) -> UInt32? {
        guard i > 0 else { return nil }
        var k = i - 1
        while k > 0 && bytes[k] & 0xC0 == 0x80 && i - k < 4 { k -= 1 }
        return scalar(at: k, bytes, length: i)
    }

    /// The scalar starting at byte `i` (nil past the end or on a malformed sequence).
    static func scalar(at i: Int, _ bytes: UnsafePointer<UInt8>, length: Int) -> UInt32? {
        guard i < length else { return nil }
        let b0 = UInt32(bytes[i])
        let count = b0 < 0x80 ? 1 : b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2
        guard i + count <= length else { return nil }
        if count == 1 { return b0 }
        var v = b0 & (0xFF >> (count + 1))
        for k in 1..<count { v = v << 6 | UInt32(bytes[i + k] & 0x3F) }
        return v
    }

}
