import GalleySupport

/// Character references: `&name;`, `&#N;` and `&#xH;`.
enum Entities {
    /// The named entities Galley decodes: HTML 4's (its Latin-1 letters and symbols, Greek,
    /// arrows, mathematical signs and punctuation) and XML's `&apos;`. Names are case-sensitive,
    /// as in HTML.
    static let named: [String: Unicode.Scalar] = [
        "Aacute": "\u{C1}", "aacute": "\u{E1}", "Acirc": "\u{C2}", "acirc": "\u{E2}", "acute": "\u{B4}",
        "AElig": "\u{C6}", "aelig": "\u{E6}", "Agrave": "\u{C0}", "agrave": "\u{E0}", "alefsym": "\u{2135}",
        "Alpha": "\u{391}", "alpha": "\u{3B1}", "amp": "&", "and": "\u{2227}", "ang": "\u{2220}", "apos": "'",
        "Aring": "\u{C5}", "aring": "\u{E5}", "asymp": "\u{2248}", "Atilde": "\u{C3}", "atilde": "\u{E3}",
        "Auml": "\u{C4}", "auml": "\u{E4}", "bdquo": "\u{201E}", "Beta": "\u{392}", "beta": "\u{3B2}",
        "brvbar": "\u{A6}", "bull": "\u{2022}", "cap": "\u{2229}", "Ccedil": "\u{C7}", "ccedil": "\u{E7}",
        "cedil": "\u{B8}", "cent": "\u{A2}", "Chi": "\u{3A7}", "chi": "\u{3C7}", "circ": "\u{2C6}",
        "clubs": "\u{2663}", "cong": "\u{2245}", "copy": "\u{A9}", "crarr": "\u{21B5}", "cup": "\u{222A}",
        "curren": "\u{A4}", "Dagger": "\u{2021}", "dagger": "\u{2020}", "dArr": "\u{21D3}", "darr": "\u{2193}",
        "deg": "\u{B0}", "Delta": "\u{394}", "delta": "\u{3B4}", "diams": "\u{2666}", "divide": "\u{F7}",
        "Eacute": "\u{C9}", "eacute": "\u{E9}", "Ecirc": "\u{CA}", "ecirc": "\u{EA}", "Egrave": "\u{C8}",
        "egrave": "\u{E8}", "empty": "\u{2205}", "emsp": "\u{2003}", "ensp": "\u{2002}", "Epsilon": "\u{395}",
        "epsilon": "\u{3B5}", "equiv": "\u{2261}", "Eta": "\u{397}", "eta": "\u{3B7}", "ETH": "\u{D0}",
        "eth": "\u{F0}", "Euml": "\u{CB}", "euml": "\u{EB}", "euro": "\u{20AC}", "exist": "\u{2203}",
        "fnof": "\u{192}", "forall": "\u{2200}", "frac12": "\u{BD}", "frac14": "\u{BC}", "frac34": "\u{BE}",
        "frasl": "\u{2044}", "Gamma": "\u{393}", "gamma": "\u{3B3}", "ge": "\u{2265}", "gt": ">",
        "hArr": "\u{21D4}", "harr": "\u{2194}", "hearts": "\u{2665}", "hellip": "\u{2026}", "Iacute": "\u{CD}",
        "iacute": "\u{ED}", "Icirc": "\u{CE}", "icirc": "\u{EE}", "iexcl": "\u{A1}", "Igrave": "\u{CC}",
        "igrave": "\u{EC}", "image": "\u{2111}", "infin": "\u{221E}", "int": "\u{222B}", "Iota": "\u{399}",
        "iota": "\u{3B9}", "iquest": "\u{BF}", "isin": "\u{2208}", "Iuml": "\u{CF}", "iuml": "\u{EF}",
        "Kappa": "\u{39A}", "kappa": "\u{3BA}", "Lambda": "\u{39B}", "lambda": "\u{3BB}", "lang": "\u{2329}",
        "laquo": "\u{AB}", "lArr": "\u{21D0}", "larr": "\u{2190}", "lceil": "\u{2308}", "ldquo": "\u{201C}",
        "le": "\u{2264}", "lfloor": "\u{230A}", "lowast": "\u{2217}", "loz": "\u{25CA}", "lrm": "\u{200E}",
        "lsaquo": "\u{2039}", "lsquo": "\u{2018}", "lt": "<", "macr": "\u{AF}", "mdash": "\u{2014}",
        "micro": "\u{B5}", "middot": "\u{B7}", "minus": "\u{2212}", "Mu": "\u{39C}", "mu": "\u{3BC}",
        "nabla": "\u{2207}", "nbsp": "\u{A0}", "ndash": "\u{2013}", "ne": "\u{2260}", "ni": "\u{220B}",
        "not": "\u{AC}", "notin": "\u{2209}", "nsub": "\u{2284}", "Ntilde": "\u{D1}", "ntilde": "\u{F1}",
        "Nu": "\u{39D}", "nu": "\u{3BD}", "Oacute": "\u{D3}", "oacute": "\u{F3}", "Ocirc": "\u{D4}",
        "ocirc": "\u{F4}", "OElig": "\u{152}", "oelig": "\u{153}", "Ograve": "\u{D2}", "ograve": "\u{F2}",
        "oline": "\u{203E}", "Omega": "\u{3A9}", "omega": "\u{3C9}", "Omicron": "\u{39F}", "omicron": "\u{3BF}",
        "oplus": "\u{2295}", "or": "\u{2228}", "ordf": "\u{AA}", "ordm": "\u{BA}", "Oslash": "\u{D8}",
        "oslash": "\u{F8}", "Otilde": "\u{D5}", "otilde": "\u{F5}", "otimes": "\u{2297}", "Ouml": "\u{D6}",
        "ouml": "\u{F6}", "para": "\u{B6}", "part": "\u{2202}", "permil": "\u{2030}", "perp": "\u{22A5}",
        "Phi": "\u{3A6}", "phi": "\u{3C6}", "Pi": "\u{3A0}", "pi": "\u{3C0}", "piv": "\u{3D6}", "plusmn": "\u{B1}",
        "pound": "\u{A3}", "Prime": "\u{2033}", "prime": "\u{2032}", "prod": "\u{220F}", "prop": "\u{221D}",
        "Psi": "\u{3A8}", "psi": "\u{3C8}", "quot": "\"", "radic": "\u{221A}", "rang": "\u{232A}",
        "raquo": "\u{BB}", "rArr": "\u{21D2}", "rarr": "\u{2192}", "rceil": "\u{2309}", "rdquo": "\u{201D}",
        "real": "\u{211C}", "reg": "\u{AE}", "rfloor": "\u{230B}", "Rho": "\u{3A1}", "rho": "\u{3C1}",
        "rlm": "\u{200F}", "rsaquo": "\u{203A}", "rsquo": "\u{2019}", "sbquo": "\u{201A}", "Scaron": "\u{160}",
        "scaron": "\u{161}", "sdot": "\u{22C5}", "sect": "\u{A7}", "shy": "\u{AD}", "Sigma": "\u{3A3}",
        "sigma": "\u{3C3}", "sigmaf": "\u{3C2}", "sim": "\u{223C}", "spades": "\u{2660}", "sub": "\u{2282}",
        "sube": "\u{2286}", "sum": "\u{2211}", "sup": "\u{2283}", "sup1": "\u{B9}", "sup2": "\u{B2}",
        "sup3": "\u{B3}", "supe": "\u{2287}", "szlig": "\u{DF}", "Tau": "\u{3A4}", "tau": "\u{3C4}",
        "there4": "\u{2234}", "Theta": "\u{398}", "theta": "\u{3B8}", "thetasym": "\u{3D1}", "thinsp": "\u{2009}",
        "THORN": "\u{DE}", "thorn": "\u{FE}", "tilde": "\u{2DC}", "times": "\u{D7}", "trade": "\u{2122}",
        "Uacute": "\u{DA}", "uacute": "\u{FA}", "uArr": "\u{21D1}", "uarr": "\u{2191}", "Ucirc": "\u{DB}",
        "ucirc": "\u{FB}", "Ugrave": "\u{D9}", "ugrave": "\u{F9}", "uml": "\u{A8}", "upsih": "\u{3D2}",
        "Upsilon": "\u{3A5}", "upsilon": "\u{3C5}", "Uuml": "\u{DC}", "uuml": "\u{FC}", "weierp": "\u{2118}",
        "Xi": "\u{39E}", "xi": "\u{3BE}", "Yacute": "\u{DD}", "yacute": "\u{FD}", "yen": "\u{A5}",
        "Yuml": "\u{178}", "yuml": "\u{FF}", "Zeta": "\u{396}", "zeta": "\u{3B6}", "zwj": "\u{200D}",
        "zwnj": "\u{200C}",
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
