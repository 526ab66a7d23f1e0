import GalleyMarkup
import Testing

@testable import GalleyTemplate

/// The template key `cjk`: punctuation width and hanging, checked, overridden, written.
@Suite struct TemplateCJKKeysTests {
    // clreq's default (compression, no hanging); keys left out keep the base's values.
    @Test func partialObject() {
        #expect(decoded("{}")?.cjk == CJKSpec(punctuation: .compress, hanging: false))
        #expect(decoded(#"{"cjk": {"punctuation": "full"}}"#)?.cjk == CJKSpec(punctuation: .full))
        #expect(decoded(#"{"cjk": {"hanging": true}}"#)?.cjk == CJKSpec(hanging: true))
    }

    @Test func checked() {
        #expect(
            located(#"{"cjk": {"punctuation": "tight"}}"#)
                == "1:25 key 'cjk.punctuation': unknown CJK punctuation width 'tight'; use compress, full or half")
        #expect(located(#"{"cjk": {"hanging": "yes"}}"#) == "1:21 key 'cjk.hanging': expected true or false, got \"yes\"")
    }

    // --set reaches each key, and what is written reads back the same.
    @Test func overrides() {
        let t = overridden(["cjk.punctuation=half", "cjk.hanging=true"])
        #expect(t?.cjk == CJKSpec(punctuation: .half, hanging: true))
        #expect(decoded(TemplateLoader.encode(t!)) == t)
    }
}
