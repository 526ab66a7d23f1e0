import Testing

@testable import GalleyStory
@testable import GalleyTemplate

/// The length in points, or nil when parsing failed.
private func pt(_ text: String) -> Double? { try? LengthParser.points(text).get() }

/// The error message, or nil when parsing succeeded.
private func error(_ text: String) -> String? {
    if case .failure(let e) = LengthParser.points(text) { return e.message }
    return nil
}

@Suite struct LengthTests {
    // A bare number is points.
    @Test func bare() { #expect(pt("12") == 12) }
    // pt is points.
    @Test func points() { #expect(pt("12pt") == 12) }
    // mm converts at 72/25.4.
    @Test func millimetres() { #expect(pt("15mm") == 15 * (72 / 25.4)) }
    // 25.4 mm is an inch, to rounding.
    @Test func inchInMillimetres() { #expect(abs(pt("25.4mm")! - 72) < 1e-9) }
    // cm converts at 72/2.54.
    @Test func centimetres() { #expect(abs(pt("1.5cm")! - 42.519685039370) < 1e-9) }
    // in is 72 pt.
    @Test func inches() { #expect(pt("0.5in") == 36) }
    // pc is a pica, 12 pt.
    @Test func picas() { #expect(pt("1pc") == 12) }
    // px is 0.75 pt, so 96 px is an inch.
    @Test func pixels() { #expect(pt("96px") == 72) }
    // Whitespace may separate number and unit, and surround the value.
    @Test func spaces() { #expect(pt("  12 \t pt ") == 12) }
    // Units ignore case.
    @Test func unitCase() { #expect(pt("1IN") == 72) }
    // Negative lengths parse; callers check ranges.
    @Test func negative() { #expect(pt("-3mm") == -3 * (72 / 25.4)) }
    // An explicit plus sign is fine.
    @Test func plus() { #expect(pt("+2pt") == 2) }
    // The fast path (ASCII, no white space) reads what the general one reads: the same text
    // with a space around it takes the general path.
    @Test func fastPathAgrees() {
        var cases = ["0", "12", "+2", "-3", ".5", "3.", "-.25", "007", "1.5", "12pt", "15mm", "1.5cm", "0.5in", "1pc", "96px"]
        cases += ["-", "+", ".", "1..2", "12qt", "12p", "1e3", "12 pt", "12PT", String(repeating: "9", count: 40)]
        for c in cases {
            let general = try? LengthParser.points(" " + c + " ").get()
            if let fast = LengthParser.fastPoints(c) {
                #expect(fast.bitPattern == general?.bitPattern, "'\(c)': \(fast) vs \(String(describing: general))")
            }
            #expect(pt(c)?.bitPattern == general?.bitPattern, "'\(c)'")
        }
        #expect(LengthParser.fastPoints("12") == 12 && LengthParser.fastPoints("12 pt") == nil)
    }
    // A leading decimal point is fine.
    @Test func leadingPoint() { #expect(pt(".5in") == 36) }
    // A trailing decimal point is fine.
    @Test func trailingPoint() { #expect(pt("3.pt") == 3) }
    // Zero is a length.
    @Test func zero() { #expect(pt("0") == 0) }
    // LengthUnit.of uses the parser's arithmetic exactly.
    @Test func unitOf() {
        for unit in LengthUnit.allCases { #expect(unit.of(1.7) == pt("1.7\(unit.rawValue)"), "\(unit)") }
    }
    // An unknown unit gets the exact message.
    @Test func unknownUnit() { #expect(error("12 qt") == "'12 qt' is not a length; use pt, mm, cm, in, pc or px") }
    // A word is not a length.
    @Test func word() { #expect(error("big") == "'big' is not a length; use pt, mm, cm, in, pc or px") }
    // The quoted value is trimmed.
    @Test func trimmedInMessage() { #expect(error(" 3 ft ") == "'3 ft' is not a length; use pt, mm, cm, in, pc or px") }
    // Empty text has its own message.
    @Test func empty() { #expect(error("  ") == "empty length value") }
    // A sign alone is not a length.
    @Test func signAlone() { #expect(error("-") != nil) }
    // Two numbers are not a length.
    @Test func twoNumbers() { #expect(error("1 2") != nil) }
    // Exponents are not accepted.
    @Test func exponent() { #expect(error("1e3") != nil) }
    // Extra text after the unit is rejected.
    @Test func trailingText() { #expect(error("12pt x") != nil) }
    // A doubled point is rejected.
    @Test func twoPoints() { #expect(error("1.2.3mm") != nil) }
    // Text starting with a digit, sign or point looks numeric; words do not.
    @Test func looksNumeric() {
        #expect(LengthParser.looksNumeric(" 12 qt"))
        #expect(LengthParser.looksNumeric("-x"))
        #expect(!LengthParser.looksNumeric("big"))
    }
    // format picks plain points, then the first exact unit.
    @Test func format() {
        #expect(LengthParser.format(12) == ("12", true))
        #expect(LengthParser.format(9.5) == ("9.5", true))
        #expect(LengthParser.format(LengthUnit.mm.of(15)) == ("15mm", false))
        #expect(LengthParser.format(LengthUnit.in.of(0.6)) == ("0.6in", false))
    }
    // Whatever format writes reads back to exactly the same value.
    @Test func formatRoundTrip() {
        for v in [0.1, 1.0 / 3, LengthUnit.cm.of(2.7), LengthUnit.mm.of(148), -4.25, 1e20, 123456.789] {
            let f = LengthParser.format(v)
            let back = f.isNumber ? Double(f.text) : pt(f.text)
            #expect(back == v, "\(v) → \(f.text)")
        }
    }
}
