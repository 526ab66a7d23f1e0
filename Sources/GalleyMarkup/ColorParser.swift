import GalleySupport
/// Why a colour value was rejected. `message` is ready to print, e.g.
/// `unknown colour 'gren'; did you mean 'green'?`.
public struct ColorError: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) { self.message = message }
}

/// Parses colour values written in markup (`<font color="…">`) and in templates.
///
/// Accepted forms (case-insensitive, surrounding whitespace ignored):
///
/// * a name: the UIKit class colours with UIKit's values (`darkGray`, `clear`, …) and every
///   CSS Color Module 4 named colour; where the two disagree UIKit wins (see `NamedColors`);
/// * `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`;
/// * `rgb(r, g, b)` and `rgba(r, g, b, a)`, where r, g and b are numbers from 0 to 255 or
///   percentages from 0% to 100%, and a is a number from 0 to 1 or a percentage. As in
///   CSS Color 4, `rgb` also takes an alpha and `rgba` may omit it.
public enum ColorParser {
    /// Parses a colour value as written in markup or templates.
    public static func parse(_ text: String) -> Result<RGBA, ColorError> {
        let s = trimmed(text)
        if s.isEmpty { return .failure(ColorError("empty colour value")) }
        if s.hasPrefix("#") { return parseHex(s) }
        let lower = s.lowercased()
        if lower.hasPrefix("rgb") && s.contains("(") { return parseFunction(s) }
        if let c = NamedColors.color(named: s) { return .success(c) }
        var message = "unknown colour '\(s)'"
        if let near = Suggestion.closest(to: s, in: NamedColors.names) {
            message += "; did you mean '\(near)'?"
        }
        return .failure(ColorError(message))
    }

    /// Every accepted colour name, for suggestions and docs: the UIKit names in UIKit's
    /// spelling (`darkGray`), then the CSS names UIKit lacks, alphabetically.
    public static var names: [String] { NamedColors.names }

    /// The shortest text that `parse` turns back into exactly `color`: a name when one has
    /// exactly this value, else `#rrggbb` / `#rrggbbaa` when the components are multiples of
    /// 1/255, else `rgba(…)` with fractional channel values.
    public static func format(_ color: RGBA) -> String {
        if let name = NamedColors.name(of: color) { return name }
        let channels = [color.red, color.green, color.blue, color.alpha]
        if channels.allSatisfy({ Double(($0 * 255).rounded()) / 255 == $0 && $0 >= 0 && $0 <= 1 }) {
            var hex = "#"
            for (i, c) in channels.enumerated() where i < 3 || color.alpha != 1 {
                let n = Int((c * 255).rounded())
                hex += (n < 16 ? "0" : "") + String(n, radix: 16)
            }
            return hex
        }
        let rgb = channels.prefix(3).map { channelText($0) }
        return "rgba(\(rgb.joined(separator: ", ")), \(number(color.alpha)))"
    }

    // MARK: - Forms

    private static func parseHex(_ s: String) -> Result<RGBA, ColorError> {
        var malformed: ColorError { ColorError("malformed hex colour '\(s)'; expected #RGB, #RRGGBB or #RRGGBBAA") }
        // Up to eight digits, read into one number.
        var value: UInt32 = 0
        var count = 0
        for d in s.unicodeScalars.dropFirst() {
            guard count < 8, let v = hexValue(d) else { return .failure(malformed) }
            value = value << 4 | UInt32(v)
            count += 1
        }
        let bits = count == 3 || count == 4 ? 4 : 8
        guard count == 3 || count == 4 || count == 6 || count == 8 else { return .failure(malformed) }
        let channels = count * 4 / bits
        let unit = bits == 4 ? 17.0 : 1.0
        func channel(_ i: Int) -> Double {
            Double((value >> UInt32((channels - 1 - i) * bits)) & (bits == 4 ? 0xF : 0xFF)) * unit / 255
        }
        return .success(RGBA(channel(0), channel(1), channel(2), channels == 4 ? channel(3) : 1))
    }

    private static func parseFunction(_ s: String) -> Result<RGBA, ColorError> {
        let malformed = ColorError(
            "malformed colour '\(s)'; expected rgb(r, g, b) or rgba(r, g, b, a)")
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else { return .failure(malformed) }
        let name = trimmed(String(s[..<open])).lowercased()
        guard name == "rgb" || name == "rgba" else { return .failure(malformed) }
        let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
        guard parts.count == 3 || parts.count == 4 else { return .failure(malformed) }
        var c: [Double] = []
        for (i, part) in parts.enumerated() {
            let isAlpha = i == 3
            let percent = part.hasSuffix("%")
            let digits = percent ? String(part.dropLast()) : part
            guard isPlainNumber(digits), let v = Double(digits) else { return .failure(malformed) }
            let scale: Double = percent ? 100 : (isAlpha ? 1 : 255)
            guard v >= 0, v <= scale else {
                let range = percent ? "0% to 100%" : (isAlpha ? "0 to 1" : "0 to 255")
                let what = isAlpha ? "alpha" : "colour component"
                return .failure(ColorError("\(what) '\(part)' in '\(s)' is out of range; use \(range)"))
            }
            c.append(v / scale)
        }
        return .success(RGBA(c[0], c[1], c[2], c.count == 4 ? c[3] : 1))
    }

    // MARK: - Helpers

    /// Digits with at most one decimal point: no signs, exponents, `inf` or `nan`.
    private static func isPlainNumber(_ s: String) -> Bool {
        var sawDigit = false, sawPoint = false
        for u in s.unicodeScalars {
            if u >= "0" && u <= "9" { sawDigit = true } else if u == "." && !sawPoint { sawPoint = true } else { return false }
        }
        return sawDigit
    }

    private static func hexValue(_ u: Unicode.Scalar) -> Int? {
        switch u {
        case "0"..."9": Int(u.value - 48)
        case "a"..."f": Int(u.value - 97 + 10)
        case "A"..."F": Int(u.value - 65 + 10)
        default: nil
        }
    }

    static func trimmed(_ s: String) -> String {
        if s.hasPrintableASCIIEnds { return s }
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    /// A channel for `rgba(…)`: a 0–255 number that divides back to exactly `c`, else a percentage.
    private static func channelText(_ c: Double) -> String {
        let n = c * 255
        for candidate in [n, n.nextUp, n.nextDown] where candidate / 255 == c {
            return number(candidate)
        }
        let p = c * 100
        for candidate in [p, p.nextUp, p.nextDown] where candidate / 100 == c {
            return number(candidate) + "%"
        }
        return number(n)
    }

    /// Plain decimal text (no exponent) that `Double(_:)` reads back exactly.
    private static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        let text = "\(v)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...])
        else { return text }
        // Swift writes very small or large values with an exponent; spell them out instead.
        var mantissa = String(text[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0]), fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        var point = whole.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        var out = String(digits.prefix(point))
        let rest = digits.dropFirst(point)
        if !rest.isEmpty { out += "." + rest }
        return (negative ? "-" : "") + out
    }
}
