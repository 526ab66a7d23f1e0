import GalleySupport

/// Character references: `&name;`, `&#N;` and `&#xH;`.
enum Entities {
    /// The named entities Galley decodes (names are case-sensitive, as in HTML).
    static let named: [String: Unicode.Scalar] = [
        "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "mdash": "\u{2014}", "ndash": "\u{2013}", "hellip": "\u{2026}", "shy": "\u{AD}",
        "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
        "sbquo": "\u{201A}", "bdquo": "\u{201E}", "laquo": "\u{AB}", "raquo": "\u{BB}",
        "lsaquo": "\u{2039}", "rsaquo": "\u{203A}", "thinsp": "\u{2009}", "ensp": "\u{2002}",
        "emsp": "\u{2003}", "copy": "\u{A9}", "reg": "\u{AE}", "trade": "\u{2122}",
        "bull": "\u{2022}", "middot": "\u{B7}", "deg": "\u{B0}", "times": "\u{D7}",
        "minus": "\u{2212}", "prime": "\u{2032}", "Prime": "\u{2033}", "sect": "\u{A7}",
        "para": "\u{B6}", "dagger": "\u{2020}", "Dagger": "\u{2021}", "euro": "\u{20AC}",
        "pound": "\u{A3}",
    ]

    /// Entity names sorted, for "did you mean" suggestions that do not depend on hashing.
    static let sortedNames: [String] = named.keys.sorted()

    /// Longest name considered; a longer run of letters after `&` is plain text.
    static let maxNameLength = 32

    /// What an `&` at some offset turns out to be.
    enum Scan: Equatable {
        /// Not a reference (`AT&T`, `& `): the `&` is an ordinary character.
        case none
        /// A reference to one scalar; `length` bytes (all ASCII) from the `&` to the `;`.
        case scalar(Unicode.Scalar, length: Int)
        /// A well-formed `&name;` with a name Galley does not know, or `&#…;` that is no number.
        case unknown(name: String, length: Int)
        /// A numeric reference to 0, a surrogate, or beyond U+10FFFF.
        case invalid(length: Int)
    }

    /// Looks at the bytes from `i` (which holds `&`). Reads only ASCII; at most the run of
    /// name characters or digits after `&`, so a caller that treats a `.none` `&` as text
    /// reads those bytes at most twice.
    static func scan(_ b: [UInt8], at i: Int) -> Scan {
        let n = b.count
        var j = i + 1
        guard j < n else { return .none }
        if b[j] == UInt8(ascii: "#") {
            j += 1
            var hex = false
            if j < n, b[j] == UInt8(ascii: "x") || b[j] == UInt8(ascii: "X") {
                hex = true
                j += 1
            }
            let digitsStart = j
            var value: UInt32 = 0
            while j < n, let d = digitValue(b[j], hex: hex) {
                value = min(value * (hex ? 16 : 10) + d, 0x110000)  // saturate: stays invalid
                j += 1
            }
            guard j > digitsStart, j < n, b[j] == UInt8(ascii: ";") else { return malformedNumber(b, at: i) }
            let length = j + 1 - i
            guard value != 0, let scalar = Unicode.Scalar(value) else { return .invalid(length: length) }
            return .scalar(scalar, length: length)
        }
        guard isASCIILetter(b[j]) else { return .none }
        while j < n, j - i - 1 <= maxNameLength, isASCIILetter(b[j]) || isASCIIDigit(b[j]) { j += 1 }
        guard j < n, b[j] == UInt8(ascii: ";"), j - i - 1 <= maxNameLength else { return .none }
        let name = String(decoding: b[(i + 1)..<j], as: UTF8.self)
        let length = j + 1 - i
        if let scalar = named[name] { return .scalar(scalar, length: length) }
        return .unknown(name: name, length: length)
    }

    /// `&#` and a few letters, digits or signs up to a `;` that are no number (`&#12a;`,
    /// `&#xZZ;`, `&#-5;`, `&#;`): a reference written wrong, kept as written and said (as an
    /// unknown name is), not taken silently as text.
    static func malformedNumber(_ b: [UInt8], at i: Int) -> Scan {
        var j = i + 2
        while j < b.count, j - i < 16, isASCIILetter(b[j]) || isASCIIDigit(b[j]) || b[j] == UInt8(ascii: "-") || b[j] == UInt8(ascii: "+") {
            j += 1
        }
        guard j < b.count, b[j] == UInt8(ascii: ";") else { return .none }
        return .unknown(name: String(decoding: b[(i + 1)..<j], as: UTF8.self), length: j + 1 - i)
    }

    private static func digitValue(_ c: UInt8, hex: Bool) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

@inline(__always) func isASCIILetter(_ c: UInt8) -> Bool {
    let l = c | 0x20
    return l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")
}

@inline(__always) func isASCIIUpper(_ c: UInt8) -> Bool {
    c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")
}

@inline(__always) func isASCIIDigit(_ c: UInt8) -> Bool {
    c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")

}
