import GalleySupport
/// Why a length was rejected. `message` is ready to print, e.g.
/// `'12 qt' is not a length; use pt, mm, cm, in, pc or px`.
public struct LengthError: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) { self.message = message }
}

/// A unit a length may be written in.
public enum LengthUnit: String, Sendable, CaseIterable {
    /// PostScript point, 1/72 in: the unit everything is converted to.
    case pt
    /// Millimetre.
    case mm
    /// Centimetre.
    case cm
    /// Inch.
    case `in`
    /// Pica, 12 pt.
    case pc
    /// CSS pixel, 1/96 in = 0.75 pt.
    case px

    /// Points in one of this unit.
    public var points: Double {
        switch self {
        case .pt: 1
        case .mm: 72 / 25.4
        case .cm: 72 / 2.54
        case .in: 72
        case .pc: 12
        case .px: 0.75
        }
    }

    /// `value` of this unit in points: the exact arithmetic the parser uses, so that
    /// `LengthUnit.mm.of(15)` equals what `"15mm"` parses to.
    public func of(_ value: Double) -> Double { value * points }
}

/// Parses lengths as written in templates: `12`, `12pt`, `15mm`, `1.5cm`, `0.5in`, `1pc`, `96px`.
///
/// A bare number is points. Whitespace may surround the value and separate the number from the
/// unit; units ignore case. Negative values are accepted: callers check ranges.
public enum LengthParser {
    /// The length in points.
    public static func points(_ text: String) -> Result<Double, LengthError> {
        if let v = fastPoints(text) { return .success(v) }
        let s = Array(text.unicodeScalars)
        var i = 0
        func skipSpace() { while i < s.count, s[i].properties.isWhitespace { i += 1 } }
        skipSpace()
        if i == s.count { return .failure(LengthError("empty length value")) }
        let valueStart = i
        func notALength() -> Result<Double, LengthError> {
            let trimmedText = String(String.UnicodeScalarView(s[valueStart...].reversed().drop { $0.properties.isWhitespace }.reversed()))
            return .failure(LengthError("'\(trimmedText)' is not a length; use pt, mm, cm, in, pc or px"))
        }

        // The number: [+-] digits [. digits] or [+-] . digits.
        let numberStart = i
        if s[i] == "+" || s[i] == "-" { i += 1 }
        var digits = 0
        while i < s.count, isDigit(s[i]) { i += 1; digits += 1 }
        if i < s.count, s[i] == "." {
            i += 1
            while i < s.count, isDigit(s[i]) { i += 1; digits += 1 }
        }
        guard digits > 0, let value = Double(String(String.UnicodeScalarView(s[numberStart..<i]))) else {
            return notALength()
        }

        // The unit, if any.
        skipSpace()
        let unitStart = i
        while i < s.count, !s[i].properties.isWhitespace { i += 1 }
        let unitText = String(String.UnicodeScalarView(s[unitStart..<i])).lowercased()
        skipSpace()
        guard i == s.count else { return notALength() }
        let unit: LengthUnit
        if unitText.isEmpty {
            unit = .pt
        } else if let u = LengthUnit(rawValue: unitText) {
            unit = u
        } else {
            return notALength()
        }
        let points = unit.of(value)
        guard points.isFinite else { return notALength() }
        return .success(points)
    }

    /// The common case of `points(_:)` without building strings: an ASCII number with an
    /// optional lower-case unit and no white space (`2`, `-0.5`, `12pt`, `15mm`). Nil for
    /// anything else, which the general path reads (or reports); the value is the same
    /// arithmetic, `Double` of the number's text times the unit.
    package static func fastPoints(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { b -> Double? in
            guard !b.isEmpty, b.count <= 32 else { return nil }
            var i = 0
            if b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-") { i = 1 }
            var digits = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1; digits += 1 }
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1; digits += 1 }
            }
            guard digits > 0 else { return nil }
            let numberEnd = i
            let unit: LengthUnit
            switch b.count - numberEnd {
            case 0: unit = .pt
            case 2:
                switch (b[numberEnd], b[numberEnd + 1]) {
                case (0x70, 0x74): unit = .pt  // pt
                case (0x6D, 0x6D): unit = .mm
                case (0x63, 0x6D): unit = .cm
                case (0x69, 0x6E): unit = .in
                case (0x70, 0x63): unit = .pc
                case (0x70, 0x78): unit = .px
                default: return nil
                }
            default: return nil
            }
            guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: b[0..<numberEnd]), as: UTF8.self)) else {
                return nil
            }
            let points = unit.of(value)
            return points.isFinite ? points : nil
        }
    }

    /// True when `text`, after leading whitespace, starts like a number (a digit, sign or point):
    /// such text is meant as a length even when its unit is wrong.
    static func looksNumeric(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first(where: { !$0.properties.isWhitespace }) else { return false }
        return isDigit(first) || first == "+" || first == "-" || first == "."
    }

    /// The shortest text that `points(_:)` turns back into exactly `value`: a bare number when
    /// the value has at most three decimals in points, else `15mm`, `0.6in` and the like when one
    /// of those is exact, else the full-precision number of points.
    static func format(_ value: Double) -> (text: String, isNumber: Bool) {
        for unit in [LengthUnit.pt, .mm, .in, .cm, .pc, .px] {
            let amount = ((value / unit.points) * 1000).rounded() / 1000
            if unit.of(amount) == value, unit == .pt || abs(amount) < 1e15 {
                let text = formatNumber(amount)
                return unit == .pt ? (text, true) : (text + unit.rawValue, false)
            }
        }
        return (formatNumber(value), true)
    }

    /// A JSON number: integers without a fraction, others in Swift's shortest exact form.
    static func formatNumber(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }

    private static func isDigit(_ u: Unicode.Scalar) -> Bool { u >= "0" && u <= "9" }
}
