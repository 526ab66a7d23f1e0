import GalleyMarkup
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// A template's `fallback` by script: text of a script takes its own faces first.
@Suite struct ScriptFallbackTests {
    /// The family of each shaped run of the first paragraph, with the run's text.
    func families(_ text: String, _ t: Template) -> [(String, String)] {
        let fs = framesetter(text, template: t)
        let line = pages(of: fs)[0].frames[0].lines[0]
        let shaped = line.paragraph.text
        return shaped.runs.map { r in
            let name = FontRegistry.shared.description(of: r.font)
            let bytes = shaped.bytes[Int(r.bytes.lowerBound)..<Int(r.bytes.upperBound)]
            return (
                String(name.split(separator: ",")[0].split(separator: " ").prefix(4).joined(separator: " ")),
                String(decoding: bytes, as: UTF8.self)
            )
        }
    }

    @Test func hanTakesItsOwnFacesFirst() throws {
        let t = try TemplateLoader.decode(
            #"{"extends": "magazine", "fallback": {"default": ["Noto Serif CJK SC"], "Hani": ["Noto Sans CJK SC"]}}"#, file: "t.json"
        ).get()
        #expect(t.fallbackFaces == ["Noto Serif CJK SC"] && t.scriptFallbacks == ["Hani": ["Noto Sans CJK SC"]])
        let runs = families("Latin 中文，标点。 Latin", t)
        #expect(runs.contains { $0.0.hasPrefix("Noto Sans CJK SC") && $0.1.contains("中文") })
        #expect(runs.contains { $0.0.hasPrefix("DejaVu Serif") && $0.1.hasPrefix("Latin") })
        #expect(!runs.contains { $0.0.hasPrefix("Noto Serif CJK") })
        // Without it, the default list sets the Chinese.
        let plain = families("Latin 中文，标点。 Latin", .default)
        #expect(plain.contains { $0.0.hasPrefix("Noto Serif CJK SC") && $0.1.contains("中文") })
    }

    @Test func encodedAndReadBack() throws {
        var t = Template.default
        t.scriptFallbacks = ["Hani": ["Noto Sans CJK SC"], "Arab": ["DejaVu Sans"]]
        let json = TemplateLoader.encode(t)
        #expect(
            json.contains(
                #""fallback": {"default": ["Noto Serif CJK SC", "Noto Color Emoji"], "Arab": ["DejaVu Sans"], "Hani": ["Noto Sans CJK SC"]}"#
            ))
        #expect(try TemplateLoader.decode(json, file: "t.json").get() == t)
        // A list replaces the per-script faces too.
        let listed = try TemplateLoader.decode(#"{"extends": "magazine", "fallback": ["DejaVu Sans"]}"#, file: "t.json").get()
        #expect(listed.scriptFallbacks.isEmpty && listed.fallbackFaces == ["DejaVu Sans"])
    }

    @Test func aKeyThatIsNoScriptIsALocatedError() {
        guard case .failure(let d) = TemplateLoader.decode(#"{"fallback": {"Han": ["Noto Sans CJK SC"]}}"#, file: "t.json") else {
            Issue.record("accepted")
            return
        }
        #expect(d.message.hasPrefix("key 'fallback.Han': 'Han' is not a script code"))
        #expect(d.location?.line == 1 && d.location?.column == 15)
    }
}

/// `lang` on a paragraph reaches the shaper: Traditional Chinese punctuation takes its own
/// (centred) forms from the same font.
@Suite struct ParagraphLanguageTests {
    func commaGlyph(_ lang: String) -> UInt32? {
        let fs = framesetter("<p lang=\"\(lang)\">逗號，句號。</p>")
        let t = pages(of: fs)[0].frames[0].lines[0].paragraph.text
        let comma = Array("逗號".utf8).count
        return t.glyphs.indices.first { t.clusters[$0] == Int32(comma) }.map { t.glyphs[$0].glyph }
    }

    @Test func traditionalPunctuationForms() throws {
        let hant = try #require(commaGlyph("zh-Hant"))
        let hans = try #require(commaGlyph("zh-Hans"))
        #expect(hant != hans)
    }
}
