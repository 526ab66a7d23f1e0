import Testing

@testable import GalleyMarkup

/// The colour, or nil when parsing failed.
private func color(_ text: String) -> RGBA? { try? ColorParser.parse(text).get() }

/// The error message, or nil when parsing succeeded.
private func error(_ text: String) -> String? {
    if case .failure(let e) = ColorParser.parse(text) { return e.message }
    return nil
}

private func css(_ rgb: UInt32) -> RGBA { NamedColors.fromHex(rgb) }

@Suite struct ColorNameTests {
    // UIKit's black is exact zeros.
    @Test func black() { #expect(color("black") == RGBA(0, 0, 0)) }
    // UIKit's darkGray is white 1/3, not CSS #a9a9a9.
    @Test func darkGray() { #expect(color("darkGray") == RGBA(1.0 / 3, 1.0 / 3, 1.0 / 3)) }
    // UIKit's lightGray is white 2/3, not CSS #d3d3d3.
    @Test func lightGray() { #expect(color("lightGray") == RGBA(2.0 / 3, 2.0 / 3, 2.0 / 3)) }
    // white is all ones.
    @Test func white() { #expect(color("white") == RGBA(1, 1, 1)) }
    // UIKit's gray is exactly 0.5, not CSS 128/255.
    @Test func gray() { #expect(color("gray") == RGBA(0.5, 0.5, 0.5)) }
    // red is pure red.
    @Test func red() { #expect(color("red") == RGBA(1, 0, 0)) }
    // UIKit's green is (0,1,0), not CSS #008000.
    @Test func green() { #expect(color("green") == RGBA(0, 1, 0)) }
    // blue is pure blue.
    @Test func blue() { #expect(color("blue") == RGBA(0, 0, 1)) }
    // cyan is (0,1,1).
    @Test func cyan() { #expect(color("cyan") == RGBA(0, 1, 1)) }
    // yellow is (1,1,0).
    @Test func yellow() { #expect(color("yellow") == RGBA(1, 1, 0)) }
    // magenta is (1,0,1).
    @Test func magenta() { #expect(color("magenta") == RGBA(1, 0, 1)) }
    // UIKit's orange is (1,0.5,0), not CSS #ffa500.
    @Test func orange() { #expect(color("orange") == RGBA(1, 0.5, 0)) }
    // UIKit's purple is (0.5,0,0.5), not CSS #800080.
    @Test func purple() { #expect(color("purple") == RGBA(0.5, 0, 0.5)) }
    // UIKit's brown is (0.6,0.4,0.2), not CSS #a52a2a.
    @Test func brown() { #expect(color("brown") == RGBA(0.6, 0.4, 0.2)) }
    // clear is transparent black.
    @Test func clear() { #expect(color("clear") == RGBA(0, 0, 0, 0)) }
    // A CSS-only name resolves to its CSS value.
    @Test func cssOnly() { #expect(color("rebeccapurple") == css(0x663399)) }
    // The longest CSS name resolves.
    @Test func longestName() { #expect(color("lightgoldenrodyellow") == css(0xfafad2)) }
    // CSS "grey" spellings keep their CSS values: only exact UIKit names are overridden.
    @Test func greySpellingsAreCSS() {
        #expect(color("grey") == css(0x808080))
        #expect(color("darkgrey") == css(0xa9a9a9))
        #expect(color("lightgrey") == css(0xd3d3d3))
    }
    // aqua and cyan are the same colour; fuchsia and magenta too.
    @Test func synonyms() {
        #expect(color("aqua") == color("cyan"))
        #expect(color("fuchsia") == color("magenta"))
    }
    // Names ignore case.
    @Test func caseInsensitive() {
        #expect(color("DARKGRAY") == color("darkGray"))
        #expect(color("darkgray") == color("darkGray"))
        #expect(color("RebeccaPurple") == css(0x663399))
    }
    // Surrounding whitespace is ignored.
    @Test func whitespace() { #expect(color("  \tred\n") == RGBA(1, 0, 0)) }
}

@Suite struct ColorTableTests {
    // There are exactly 148 CSS names in the table, all distinct and lower-case.
    @Test func cssCount() {
        #expect(NamedColors.css.count == 148)
        #expect(Set(NamedColors.css.map(\.name)).count == 148)
        #expect(NamedColors.css.allSatisfy { $0.name == $0.name.lowercased() })
    }
    // Every CSS name parses, to the CSS value unless it collides with a UIKit name.
    @Test func everyCSSNameParses() {
        let uikit = Set(NamedColors.uikit.map { $0.name.lowercased() })
        for (name, rgb) in NamedColors.css {
            let expected = uikit.contains(name) ? NamedColors.uikit.first { $0.name.lowercased() == name }!.color : css(rgb)
            #expect(color(name) == expected, "\(name)")
        }
    }
    // The collisions are exactly the documented fourteen.
    @Test func collisions() {
        let cssNames = Set(NamedColors.css.map(\.name))
        let both = NamedColors.uikit.map { $0.name.lowercased() }.filter { cssNames.contains($0) }
        #expect(
            both == [
                "black", "darkgray", "lightgray", "white", "gray", "red", "green", "blue",
                "cyan", "yellow", "magenta", "orange", "purple", "brown",
            ])
    }
    // The collisions whose values differ are decided for UIKit.
    @Test func collisionsUseUIKit() {
        #expect(color("green") != css(0x008000))
        #expect(color("orange") != css(0xffa500))
        #expect(color("brown") != css(0xa52a2a))
        #expect(color("darkgray") != css(0xa9a9a9))
    }
    // names lists UIKit names first in UIKit spelling and `transparent`, then 134 CSS-only
    // names: 150 in all.
    @Test func namesList() {
        let names = ColorParser.names
        #expect(names.count == 150)
        #expect(Array(names.prefix(3)) == ["black", "darkGray", "lightGray"])
        #expect(names[16] == "aliceblue")
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
    }
    // Every listed name parses.
    @Test func everyNameParses() {
        for name in ColorParser.names { #expect(color(name) != nil, "\(name)") }
    }
}

@Suite struct ColorHexTests {
    // #RGB doubles each digit.
    @Test func rgb3() { #expect(color("#f80") == RGBA(1, 136.0 / 255, 0)) }
    // #RGBA doubles each digit, including alpha.
    @Test func rgba4() { #expect(color("#f808") == RGBA(1, 136.0 / 255, 0, 136.0 / 255)) }
    // #RRGGBB reads byte pairs.
    @Test func rgb6() { #expect(color("#102030") == RGBA(16.0 / 255, 32.0 / 255, 48.0 / 255)) }
    // #RRGGBBAA reads the alpha byte.
    @Test func rgba8() { #expect(color("#ff000080") == RGBA(1, 0, 0, 128.0 / 255)) }
    // Hex digits ignore case.
    @Test func hexCase() { #expect(color("#ABCDEF") == color("#abcdef")) }
    // Whitespace around a hex colour is ignored.
    @Test func hexWhitespace() { #expect(color(" #000 ") == RGBA(0, 0, 0)) }
    // Five digits is malformed, with the exact message.
    @Test func fiveDigits() {
        #expect(error("#12345") == "malformed hex colour '#12345'; expected #RGB, #RRGGBB or #RRGGBBAA")
    }
    // A bare # is malformed.
    @Test func bareHash() {
        #expect(error("#") == "malformed hex colour '#'; expected #RGB, #RRGGBB or #RRGGBBAA")
    }
    // A non-hex digit is malformed.
    @Test func badDigit() {
        #expect(error("#12g") == "malformed hex colour '#12g'; expected #RGB, #RRGGBB or #RRGGBBAA")
    }
    // Seven and nine digits are malformed.
    @Test func wrongLengths() {
        #expect(error("#1234567") != nil)
        #expect(error("#123456789") != nil)
    }
}

@Suite struct ColorFunctionTests {
    // rgb() takes 0–255 numbers.
    @Test func rgbNumbers() { #expect(color("rgb(255, 0, 51)") == RGBA(1, 0, 0.2)) }
    // rgba() adds an alpha from 0 to 1.
    @Test func rgbaNumbers() { #expect(color("rgba(0, 0, 255, 0.25)") == RGBA(0, 0, 1, 0.25)) }
    // Percentages scale 0–100%.
    @Test func percentages() { #expect(color("rgb(100%, 50%, 0%)") == RGBA(1, 0.5, 0)) }
    // Alpha may be a percentage too.
    @Test func alphaPercent() { #expect(color("rgba(0,0,0,50%)") == RGBA(0, 0, 0, 0.5)) }
    // Fractional channel values are allowed.
    @Test func fractional() { #expect(color("rgb(127.5, 0, 0)") == RGBA(0.5, 0, 0)) }
    // The function name ignores case, and spaces are allowed everywhere.
    @Test func functionCase() { #expect(color(" RGBA ( 255 , 255 , 255 , 1 ) ") == RGBA(1, 1, 1)) }
    // As in CSS Color 4, rgb() may carry an alpha and rgba() may omit it.
    @Test func aliases() {
        #expect(color("rgb(0,0,0,0)") == RGBA(0, 0, 0, 0))
        #expect(color("rgba(0,0,0)") == RGBA(0, 0, 0))
    }
    // Too few arguments is malformed.
    @Test func tooFew() {
        #expect(error("rgb(1, 2)") == "malformed colour 'rgb(1, 2)'; expected rgb(r, g, b) or rgba(r, g, b, a)")
    }
    // A missing closing parenthesis is malformed.
    @Test func unclosed() {
        #expect(error("rgb(1,2,3") == "malformed colour 'rgb(1,2,3'; expected rgb(r, g, b) or rgba(r, g, b, a)")
    }
    // A non-number argument is malformed.
    @Test func nonNumber() { #expect(error("rgb(a,b,c)")?.hasPrefix("malformed colour") == true) }
    // Negative numbers and exponents are malformed (no signs in colour channels).
    @Test func signs() {
        #expect(error("rgb(-1,0,0)")?.hasPrefix("malformed colour") == true)
        #expect(error("rgb(1e2,0,0)")?.hasPrefix("malformed colour") == true)
    }
    // A channel above 255 is out of range.
    @Test func channelRange() {
        #expect(error("rgb(256, 0, 0)") == "colour component '256' in 'rgb(256, 0, 0)' is out of range; use 0 to 255")
    }
    // A percentage above 100% is out of range.
    @Test func percentRange() {
        #expect(error("rgb(101%,0,0)") == "colour component '101%' in 'rgb(101%,0,0)' is out of range; use 0% to 100%")
    }
    // An alpha above 1 is out of range.
    @Test func alphaRange() {
        #expect(error("rgba(0,0,0,2)") == "alpha '2' in 'rgba(0,0,0,2)' is out of range; use 0 to 1")
    }
    // Some other function is reported as malformed, not as an unknown name.
    @Test func otherFunction() { #expect(error("rgbx(1,2,3)")?.hasPrefix("malformed colour") == true) }
}

@Suite struct ColorErrorTests {
    // An unknown name gets a suggestion; green wins the tie with grey.
    @Test func suggestion() { #expect(error("gren") == "unknown colour 'gren'; did you mean 'green'?") }
    // The suggestion uses the listed spelling and the message keeps the user's.
    @Test func suggestionSpelling() {
        #expect(error("DarkGrya") == "unknown colour 'DarkGrya'; did you mean 'darkGray'?")
    }
    // The suggestion is omitted when nothing is close.
    @Test func noSuggestion() { #expect(error("xyzzyplugh") == "unknown colour 'xyzzyplugh'") }
    // Surrounding whitespace is trimmed from the quoted value.
    @Test func trimmedInMessage() { #expect(error("  bleu ") == "unknown colour 'bleu'; did you mean 'blue'?") }
    // An empty value has its own message.
    @Test func empty() { #expect(error("") == "empty colour value") }
    // Whitespace only counts as empty.
    @Test func blank() { #expect(error(" \t ") == "empty colour value") }
    // CSS's transparent keyword, which the README's "every CSS name" promises, is clear.
    @Test func transparent() { #expect(color("transparent") == RGBA(0, 0, 0, 0)) }
}

@Suite struct ColorFormatTests {
    // A value with a name formats as that name, UIKit's first.
    @Test func names() {
        #expect(ColorParser.format(RGBA(0.5, 0.5, 0.5)) == "gray")
        #expect(ColorParser.format(RGBA(0, 1, 1)) == "cyan")
        #expect(ColorParser.format(css(0x808080)) == "grey")
    }
    // A value on the 1/255 grid formats as hex, with alpha only when not opaque.
    @Test func hex() {
        #expect(ColorParser.format(RGBA(0x12 / 255.0, 0x34 / 255.0, 0x56 / 255.0)) == "#123456")
        #expect(ColorParser.format(RGBA(0x12 / 255.0, 0x34 / 255.0, 0x56 / 255.0, 0x80 / 255.0)) == "#12345680")
    }
    // Off-grid values format as rgba().
    @Test func function() { #expect(ColorParser.format(RGBA(0.5, 0.25, 0, 0.5)) == "rgba(127.5, 63.75, 0, 0.5)") }
    // Tiny values are written without an exponent, so they parse again.
    @Test func tiny() {
        let c = RGBA(1e-7, 0, 0, 1e-9)
        #expect(color(ColorParser.format(c)) == c)
    }
    // Formatting then parsing gives back exactly the same colour.
    @Test func roundTrip() {
        let samples = [RGBA(0.1, 0.2, 0.3), RGBA(1.0 / 3, 0.7, 0.9, 0.3), RGBA(0.6, 0.4, 0.2), RGBA(0, 0, 0, 0)]
        for c in samples { #expect(color(ColorParser.format(c)) == c, "\(ColorParser.format(c))") }
        for name in ColorParser.names {
            let c = color(name)!
            #expect(color(ColorParser.format(c)) == c, "\(name)")
        }
    }
}
