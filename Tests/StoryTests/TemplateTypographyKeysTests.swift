import GalleyMarkup
import Testing

@testable import GalleyTemplate

/// The template key `typography`: its values, its checks, overrides and the file written.
@Suite struct TemplateTypographyKeysTests {
    // Keys left out keep the base's values: smart quotes on, dashes off, curly CJK quotes.
    @Test func partialObject() {
        #expect(decoded(#"{"typography": {"dashes": true}}"#)?.typography == TypographySpec(dashes: true))
        #expect(decoded(#"{"typography": {"smartQuotes": false}}"#)?.typography == TypographySpec(smartQuotes: false))
        #expect(decoded(#"{"typography": {"cjkQuotes": "corner"}}"#)?.typography == TypographySpec(cjkQuotes: .corner))
        #expect(decoded("{}")?.typography == TypographySpec())
    }

    // Booleans must be booleans, the CJK style one of its two names, the object an object.
    @Test func checked() {
        #expect(located(#"{"typography": {"dashes": 1}}"#) == "1:27 key 'typography.dashes': expected true or false, got 1")
        #expect(
            located(#"{"typography": {"cjkQuotes": "angle"}}"#)
                == "1:30 key 'typography.cjkQuotes': unknown CJK quote style 'angle'; use curly or corner")
        #expect(
            located(#"{"typography": {"smartQuote": true}}"#)
                == "1:17 unknown key 'typography.smartQuote'; did you mean 'typography.smartQuotes'?")
        #expect(
            located(#"{"typography": true}"#)
                == "1:16 key 'typography': expected an object with smartQuotes, dashes and cjkQuotes, got true")
    }

    // --set reaches each key, and what is written reads back the same.
    @Test func overrides() {
        let t = overridden(["typography.dashes=true", "typography.cjkQuotes=corner", "typography.smartQuotes=false"])
        #expect(t?.typography == TypographySpec(smartQuotes: false, dashes: true, cjkQuotes: .corner))
        #expect(decoded(TemplateLoader.encode(t!)) == t)
        #expect(
            overrideMessage(["typography.dashs=true"])
                == "--set typography.dashs=true: unknown key 'typography.dashs'; did you mean 'typography.dashes'?")
    }
}
