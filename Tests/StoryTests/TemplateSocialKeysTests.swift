import Foundation
import GalleyMarkup
import Testing

@testable import GalleyStory
@testable import GalleyTemplate

// The template keys caption, wrapMinWidth, social and cjkAutoSpacing.

private func hex(_ s: String) -> RGBA { try! ColorParser.parse(s).get() }

/// The built-ins' caption style, spelt out.
private let standardCaption = CaptionSpec(face: "DejaVu Serif", size: 8.5, color: hex("#404040"), italic: true, gap: 4)

/// The built-ins' social settings, spelt out.
private let standardSocial = SocialSpec(
    enabled: false,
    mention: SocialStyleSpec(color: hex("#1F6FB2"), weight: 400, url: "https://weibo.com/n/{name}"),
    topic: SocialStyleSpec(color: hex("#C45A1B"), weight: 400, url: "https://s.weibo.com/weibo?q=%23{topic}%23"),
    url: SocialStyleSpec(color: hex("#1F4E8C"), weight: 400),
    emoticons: [])

// MARK: - Built-ins

@Suite struct BuiltinSocialKeysTests {
    // Every built-in: the standard caption (tablet's in Helvetica), 30 pt, social off, no auto-spacing.
    @Test func builtins() {
        for t in Template.builtins {
            var caption = standardCaption
            if t.name == "tablet" { caption.face = "Helvetica" }
            #expect(t.caption == caption, "\(t.name)")
            #expect(t.wrapMinWidth == 30, "\(t.name)")
            #expect(t.social == standardSocial, "\(t.name)")
            #expect(!t.cjkAutoSpacing, "\(t.name)")
        }
    }
    // The specs' own defaults are exactly the colours the files write.
    @Test func specDefaults() {
        #expect(CaptionSpec() == standardCaption)
        #expect(SocialSpec() == standardSocial)
    }
    // A template made with the public init gets the same values as the built-ins.
    @Test func initDefaultsMatchBuiltins() {
        let d = Template.default
        let t = Template(
            name: "x", summary: "x", pageWidth: 500, pageHeight: 700, margins: EdgeInsets(all: 10), columns: 1, gutter: 0,
            body: d.body, paragraphSpacing: 0, firstLineIndent: 0, alignment: .left, paragraphMode: .newline,
            language: "en", fallbackFaces: [], footer: d.footer)
        #expect(t.caption == d.caption && t.wrapMinWidth == d.wrapMinWidth && t.social == d.social && t.cjkAutoSpacing == d.cjkAutoSpacing)
    }
    // The new keys come after link, in this order; the objects' keys too.
    @Test func schema() {
        #expect(
            Array(TemplateSchema.topKeys.suffix(10).dropLast()) == [
                "link", "caption", "wrapMinWidth", "social", "cjkAutoSpacing", "typography", "cjk", "maxImagePixels",
                "startPage",
            ])
        #expect(TemplateSchema.objectKeys["caption"] == ["face", "size", "color", "italic", "gap"])
        #expect(TemplateSchema.objectKeys["social"] == ["enabled", "mention", "topic", "url", "emoticons"])
        #expect(TemplateSchema.objectKeys["social.mention"] == ["color", "weight", "url"])
        #expect(TemplateSchema.objectKeys["social.topic"] == ["color", "weight", "url"])
        #expect(TemplateSchema.objectKeys["social.url"] == ["color", "weight"])
        #expect(TemplateSchema.allPaths.contains("social.topic.url") && !TemplateSchema.allPaths.contains("social.url.url"))
    }
}

// MARK: - Keys

@Suite struct CaptionKeyTests {
    // Every caption key.
    @Test func all() {
        let t = decoded(#"{"caption": {"face": "Noto Sans", "size": 9, "color": "navy", "italic": false, "gap": 6}}"#)
        #expect(t?.caption == CaptionSpec(face: "Noto Sans", size: 9, color: RGBA(0, 0, 128 / 255), italic: false, gap: 6))
    }
    // Each key is set on its own; the others stay.
    @Test func eachKey() {
        var expected = standardCaption
        expected.face = "Noto Sans"
        #expect(decoded(#"{"caption": {"face": "Noto Sans"}}"#)?.caption == expected)
        expected = standardCaption
        expected.size = 9
        #expect(decoded(#"{"caption": {"size": 9}}"#)?.caption == expected)
        expected = standardCaption
        expected.color = RGBA(1, 0, 0)
        #expect(decoded(#"{"caption": {"color": "red"}}"#)?.caption == expected)
        expected = standardCaption
        expected.italic = false
        #expect(decoded(#"{"caption": {"italic": false}}"#)?.caption == expected)
        expected = standardCaption
        expected.gap = 0
        #expect(decoded(#"{"caption": {"gap": 0}}"#)?.caption == expected)
    }
    // size and gap take units.
    @Test func units() {
        let t = decoded(#"{"caption": {"size": "9pt", "gap": "2mm"}}"#)
        #expect(t?.caption.size == 9 && t?.caption.gap == LengthUnit.mm.of(2))
    }
    // An empty caption object changes nothing.
    @Test func empty() { #expect(decoded(#"{"caption": {}}"#) == .default) }
}

@Suite struct WrapAndSpacingKeyTests {
    // wrapMinWidth takes a number or a length.
    @Test func wrapMinWidth() {
        #expect(decoded(#"{"wrapMinWidth": 20}"#)?.wrapMinWidth == 20)
        #expect(decoded(#"{"wrapMinWidth": "1in"}"#)?.wrapMinWidth == 72)
        #expect(decoded(#"{"wrapMinWidth": 0.5}"#)?.wrapMinWidth == 0.5)
    }
    // cjkAutoSpacing takes a boolean.
    @Test func cjkAutoSpacing() {
        #expect(decoded(#"{"cjkAutoSpacing": true}"#)?.cjkAutoSpacing == true)
        #expect(decoded(#"{"cjkAutoSpacing": false}"#)?.cjkAutoSpacing == false)
    }
    // Setting one key leaves everything else at the base's values.
    @Test func othersKept() {
        var expected = Template.default
        expected.cjkAutoSpacing = true
        #expect(decoded(#"{"cjkAutoSpacing": true}"#) == expected)
        expected = Template.default
        expected.wrapMinWidth = 12
        #expect(decoded(#"{"wrapMinWidth": 12}"#) == expected)
    }
}

@Suite struct SocialKeyTests {
    // Every social key.
    @Test func all() {
        let t = decoded(
            #"""
            {"social": {
              "enabled": true,
              "mention": {"color": "#112233", "weight": 600, "url": "https://x.social/@{name}"},
              "topic": {"color": "red", "weight": "bold", "url": "https://x.social/tags/{topic}"},
              "url": {"color": "blue", "weight": "normal"},
              "emoticons": ["/packs/a", "/packs/b"]
            }}
            """#)
        #expect(
            t?.social
                == SocialSpec(
                    enabled: true,
                    mention: SocialStyleSpec(color: hex("#112233"), weight: 600, url: "https://x.social/@{name}"),
                    topic: SocialStyleSpec(color: RGBA(1, 0, 0), weight: 700, url: "https://x.social/tags/{topic}"),
                    url: SocialStyleSpec(color: RGBA(0, 0, 1), weight: 400),
                    emoticons: ["/packs/a", "/packs/b"]))
    }
    // enabled alone.
    @Test func enabled() {
        var expected = standardSocial
        expected.enabled = true
        #expect(decoded(#"{"social": {"enabled": true}}"#)?.social == expected)
    }
    // Each style key of each kind is set on its own; the others stay.
    @Test func styleKeys() {
        var expected = standardSocial
        expected.mention.color = RGBA(1, 0, 0)
        #expect(decoded(#"{"social": {"mention": {"color": "red"}}}"#)?.social == expected)
        expected = standardSocial
        expected.mention.weight = 700
        #expect(decoded(#"{"social": {"mention": {"weight": "bold"}}}"#)?.social == expected)
        expected = standardSocial
        expected.mention.url = "https://twitter.com/{name}"
        #expect(decoded(#"{"social": {"mention": {"url": "https://twitter.com/{name}"}}}"#)?.social == expected)
        expected = standardSocial
        expected.topic.weight = 300
        #expect(decoded(#"{"social": {"topic": {"weight": 300}}}"#)?.social == expected)
        expected = standardSocial
        expected.topic.url = "https://x/{topic}/{topic}"
        #expect(decoded(#"{"social": {"topic": {"url": "https://x/{topic}/{topic}"}}}"#)?.social == expected)
        expected = standardSocial
        expected.url.color = RGBA(0, 1, 0)
        #expect(decoded(#"{"social": {"url": {"color": "green"}}}"#)?.social == expected)
        expected = standardSocial
        expected.url.weight = 900
        #expect(decoded(#"{"social": {"url": {"weight": 900}}}"#)?.social == expected)
    }
    // weight takes 100–900 and the words, as headings do.
    @Test func weights() {
        #expect(decoded(#"{"social": {"topic": {"weight": 100}}}"#)?.social.topic.weight == 100)
        #expect(decoded(#"{"social": {"topic": {"weight": "Normal"}}}"#)?.social.topic.weight == 400)
        #expect(decoded(#"{"social": {"topic": {"weight": 700.0}}}"#)?.social.topic.weight == 700)
    }
    // emoticons: a list (possibly empty), replacing the base's list.
    @Test func emoticons() {
        #expect(decoded(#"{"social": {"emoticons": []}}"#)?.social.emoticons == [])
        #expect(decoded(#"{"social": {"emoticons": ["/a", "/b"]}}"#)?.social.emoticons == ["/a", "/b"])
    }
    // Relative pack folders are resolved against the template file's folder; absolute ones kept.
    @Test func emoticonsResolved() {
        let dir = scratchFolder()
        let t = decoded(#"{"social": {"emoticons": ["packs/weibo", "../shared", "/abs/pack"]}}"#, file: dir + "/t.json")
        #expect(t?.social.emoticons == [dir + "/packs/weibo", dir + "/../shared", "/abs/pack"])
        // Without a folder in the file name, paths stay as written (relative to the working folder).
        #expect(decoded(#"{"social": {"emoticons": ["packs"]}}"#)?.social.emoticons == ["packs"])
    }
    // load resolves against the loaded file's folder.
    @Test func emoticonsLoaded() {
        let dir = scratchFolder()
        write(#"{"social": {"emoticons": ["packs"]}}"#, to: dir + "/a.json")
        #expect((try? TemplateLoader.load(dir + "/a.json").get())?.social.emoticons == [dir + "/packs"])
    }
    // Built-ins have no pack folders.
    @Test func builtinsHaveNone() {
        for t in Template.builtins { #expect(t.social.emoticons.isEmpty, "\(t.name)") }
    }
    // An empty social object changes nothing.
    @Test func empty() { #expect(decoded(#"{"social": {"mention": {}, "topic": {}, "url": {}}}"#) == .default) }
}

// MARK: - Errors

@Suite struct SocialKeyErrorTests {
    // Misspelt top-level keys are suggested.
    @Test func topLevelTypos() {
        #expect(located(#"{"captions": {}}"#) == "1:2 unknown key 'captions'; did you mean 'caption'?")
        #expect(located(#"{"wrapMinwidth": 1}"#) == "1:2 unknown key 'wrapMinwidth'; did you mean 'wrapMinWidth'?")
        #expect(located(#"{"cjkAutospacing": true}"#) == "1:2 unknown key 'cjkAutospacing'; did you mean 'cjkAutoSpacing'?")
        #expect(located(#"{"socail": {}}"#) == "1:2 unknown key 'socail'; did you mean 'social'?")
    }
    // caption must be an object.
    @Test func captionNotObject() {
        #expect(
            located(#"{"caption": "italic"}"#)
                == #"1:13 key 'caption': expected an object with face, size, color, italic and gap, got "italic""#)
    }
    // An unknown caption key is suggested with its path, pointing at the key.
    @Test func captionUnknownKey() {
        #expect(located(#"{"caption": {"italics": true}}"#) == "1:14 unknown key 'caption.italics'; did you mean 'caption.italic'?")
        #expect(located(#"{"caption": {"xyzzy": 1}}"#) == "1:14 unknown key 'caption.xyzzy'")
    }
    // A repeated caption key is an error at the second one.
    @Test func captionDuplicate() {
        #expect(located(#"{"caption": {"gap": 1, "gap": 2}}"#) == "1:24 duplicate key 'caption.gap' (first given at 1:14)")
    }
    // Caption values: size > 0, gap ≥ 0, italic a boolean, a colour, a face.
    @Test func captionValues() {
        #expect(located(#"{"caption": {"size": 0}}"#) == "1:22 key 'caption.size': expected a length greater than 0, got 0")
        #expect(located(#"{"caption": {"gap": "-1pt"}}"#) == #"1:21 key 'caption.gap': expected a length of 0 or more, got "-1pt""#)
        #expect(located(#"{"caption": {"italic": "yes"}}"#) == #"1:24 key 'caption.italic': expected true or false, got "yes""#)
        #expect(located(#"{"caption": {"color": "gren"}}"#) == "1:23 key 'caption.color': unknown colour 'gren'; did you mean 'green'?")
        #expect(located(#"{"caption": {"face": ""}}"#) == #"1:22 key 'caption.face': expected a non-empty string, got """#)
    }
    // wrapMinWidth is a length greater than 0.
    @Test func wrapMinWidth() {
        #expect(located(#"{"wrapMinWidth": 0}"#) == "1:18 key 'wrapMinWidth': expected a length greater than 0, got 0")
        #expect(located(#"{"wrapMinWidth": "wide"}"#) == #"1:18 key 'wrapMinWidth': expected a number or length, got "wide""#)
        #expect(located(#"{"wrapMinWidth": "3 qt"}"#) == "1:18 key 'wrapMinWidth': '3 qt' is not a length; use pt, mm, cm, in, pc or px")
    }
    // cjkAutoSpacing must be a JSON boolean.
    @Test func cjkAutoSpacing() {
        #expect(located(#"{"cjkAutoSpacing": "true"}"#) == #"1:20 key 'cjkAutoSpacing': expected true or false, got "true""#)
    }
    // social and its styles must be objects.
    @Test func notObjects() {
        #expect(
            located(#"{"social": true}"#)
                == "1:12 key 'social': expected an object with enabled, mention, topic, url and emoticons, got true")
        #expect(
            located(#"{"social": {"mention": "blue"}}"#)
                == #"1:24 key 'social.mention': expected an object with color, weight and url, got "blue""#)
        #expect(located(#"{"social": {"url": []}}"#) == "1:20 key 'social.url': expected an object with color and weight, got an array")
    }
    // social.enabled must be a JSON boolean.
    @Test func enabled() {
        #expect(located(#"{"social": {"enabled": 1}}"#) == "1:24 key 'social.enabled': expected true or false, got 1")
    }
    // Unknown keys at every level are suggested with their paths.
    @Test func unknownKeys() {
        #expect(located(#"{"social": {"mentions": {}}}"#) == "1:13 unknown key 'social.mentions'; did you mean 'social.mention'?")
        #expect(
            located(#"{"social": {"mention": {"colour": "red"}}}"#)
                == "1:25 unknown key 'social.mention.colour'; did you mean 'social.mention.color'?")
        // URLs link to themselves: they have no link pattern.
        #expect(located(#"{"social": {"url": {"url": "x"}}}"#) == "1:21 unknown key 'social.url.url'")
    }
    // A mention pattern needs {name}, a topic pattern {topic}.
    @Test func patterns() {
        #expect(
            located(#"{"social": {"mention": {"url": "https://weibo.com/n/"}}}"#)
                == #"1:32 key 'social.mention.url': expected a link pattern containing {name}, got "https://weibo.com/n/""#)
        #expect(
            located(#"{"social": {"topic": {"url": "https://x/{name}"}}}"#)
                == #"1:30 key 'social.topic.url': expected a link pattern containing {topic}, got "https://x/{name}""#)
    }
    // A pattern must be a one-line string.
    @Test func patternType() {
        #expect(
            located(#"{"social": {"mention": {"url": 1}}}"#)
                == "1:32 key 'social.mention.url': expected a link pattern containing {name}, got 1")
        #expect(
            located(#"{"social": {"topic": {"url": "a\n{topic}"}}}"#)
                == #"1:30 key 'social.topic.url': expected a single line of text, got "a\n{topic}""#)
    }
    // Bad weights and colours, as for headings.
    @Test func styleValues() {
        #expect(
            located(#"{"social": {"topic": {"weight": 950}}}"#)
                == #"1:33 key 'social.topic.weight': expected a weight from 100 to 900, "bold" or "normal", got 950"#)
        #expect(
            located(#"{"social": {"url": {"weight": "heavy"}}}"#)
                == #"1:31 key 'social.url.weight': expected a weight from 100 to 900, "bold" or "normal", got "heavy""#)
        #expect(
            located(##"{"social": {"url": {"color": "#12"}}}"##)
                == "1:30 key 'social.url.color': malformed hex colour '#12'; expected #RGB, #RRGGBB or #RRGGBBAA")
    }
    // emoticons is a list of non-empty strings; a bad element is named by index and located.
    @Test func emoticons() {
        #expect(
            located(#"{"social": {"emoticons": "packs"}}"#)
                == #"1:26 key 'social.emoticons': expected a list of emoticon pack folders, got "packs""#)
        #expect(located(#"{"social": {"emoticons": ["a", 2]}}"#) == "1:32 key 'social.emoticons[1]': expected a string, got 2")
        #expect(located(#"{"social": {"emoticons": [" "]}}"#) == #"1:27 key 'social.emoticons[0]': expected a non-empty string, got " ""#)
    }
    // Errors inside a multi-line social object point at the line.
    @Test func multiline() {
        #expect(
            located("{\n  \"social\": {\n    \"enabled\": true,\n    \"topic\": {\"url\": \"#{name}#\"}\n  }\n}")
                == ##"4:22 key 'social.topic.url': expected a link pattern containing {topic}, got "#{name}#""##)
    }
}

// MARK: - Inheritance

@Suite struct SocialInheritanceTests {
    // A partial social object keeps the rest of the base's.
    @Test func partialSocial() {
        var expected = Template.default
        expected.social.enabled = true
        #expect(decoded(#"{"social": {"enabled": true}}"#) == expected)
    }
    // A partial style keeps its other keys and the other styles.
    @Test func partialStyle() {
        let t = decoded(#"{"social": {"topic": {"color": "red"}}}"#)!
        #expect(t.social.topic == SocialStyleSpec(color: RGBA(1, 0, 0), weight: 400, url: "https://s.weibo.com/weibo?q=%23{topic}%23"))
        #expect(t.social.mention == standardSocial.mention && t.social.url == standardSocial.url)
    }
    // A partial caption over tablet keeps tablet's Helvetica.
    @Test func partialCaptionOverBuiltin() {
        let t = decoded(#"{"extends": "tablet", "caption": {"size": 10}}"#)
        var expected = Template.builtin(named: "tablet")!
        expected.caption.size = 10
        #expect(t == expected && t?.caption.face == "Helvetica")
    }
    // Partial objects along an extends chain add up, key by key; each file's pack folders are
    // resolved against its own folder.
    @Test func chain() {
        let dir = scratchFolder()
        try! FileManager.default.createDirectory(atPath: dir + "/base", withIntermediateDirectories: true)
        write(
            #"{"caption": {"italic": false}, "social": {"enabled": true, "mention": {"weight": 700}, "emoticons": ["packs"]}, "wrapMinWidth": 24}"#,
            to: dir + "/base/b.json")
        write(
            #"{"extends": "base/b.json", "caption": {"gap": 2}, "social": {"mention": {"color": "red"}}, "cjkAutoSpacing": true}"#,
            to: dir + "/a.json")
        let t = try? TemplateLoader.load(dir + "/a.json").get()
        var expected = Template.default
        expected.caption.italic = false
        expected.caption.gap = 2
        expected.social.enabled = true
        expected.social.mention.weight = 700
        expected.social.mention.color = RGBA(1, 0, 0)
        expected.social.emoticons = [dir + "/base/packs"]
        expected.wrapMinWidth = 24
        expected.cjkAutoSpacing = true
        #expect(t == expected)
    }
    // A child's emoticons replace the base's list, resolved against the child's folder.
    @Test func childEmoticonsReplace() {
        let dir = scratchFolder()
        try! FileManager.default.createDirectory(atPath: dir + "/base", withIntermediateDirectories: true)
        write(#"{"social": {"emoticons": ["one", "two"]}}"#, to: dir + "/base/b.json")
        write(#"{"extends": "base/b.json", "social": {"emoticons": ["three"]}}"#, to: dir + "/a.json")
        #expect((try? TemplateLoader.load(dir + "/a.json").get())?.social.emoticons == [dir + "/three"])
    }
    // An error in the base's social object names the base file and place.
    @Test func errorInBase() {
        let dir = scratchFolder()
        write(#"{"social": {"mention": {"url": "x"}}}"#, to: dir + "/base.json")
        write(#"{"extends": "base.json"}"#, to: dir + "/a.json")
        guard case .failure(let d) = TemplateLoader.load(dir + "/a.json") else { Issue.record("loaded"); return }
        #expect(d.file == dir + "/base.json" && d.location?.description == "1:32")
        #expect(d.message == #"key 'social.mention.url': expected a link pattern containing {name}, got "x""#)
    }
}

// MARK: - --set

@Suite struct SocialOverrideTests {
    // social.enabled=true turns detection on and keeps the rest.
    @Test func enabled() {
        var expected = standardSocial
        expected.enabled = true
        #expect(overridden(["social.enabled=true"])?.social == expected)
    }
    // caption.size takes a number; the rest of the caption stays.
    @Test func captionSize() {
        var expected = standardCaption
        expected.size = 9
        #expect(overridden(["caption.size=9"])?.caption == expected)
    }
    // Every caption key, unquoted.
    @Test func captionKeys() {
        let t = overridden(["caption.face=Noto Sans", "caption.color=#336699", "caption.italic=false", "caption.gap=2mm"])
        #expect(t?.caption == CaptionSpec(face: "Noto Sans", size: 8.5, color: hex("#336699"), italic: false, gap: LengthUnit.mm.of(2)))
    }
    // A link pattern, unquoted: it is not JSON, so it is taken as a string.
    @Test func mentionURL() {
        let t = overridden(["social.mention.url=https://twitter.com/{name}?ref=galley"])
        #expect(t?.social.mention.url == "https://twitter.com/{name}?ref=galley")
        #expect(t?.social.mention.color == standardSocial.mention.color && t?.social.topic == standardSocial.topic)
        #expect(overridden(["social.topic.url=https://x.social/tags/{topic}"])?.social.topic.url == "https://x.social/tags/{topic}")
    }
    // Weights and colours of the styles.
    @Test func styles() {
        let t = overridden(["social.topic.weight=bold", "social.url.weight=300", "social.mention.color=red"])
        #expect(t?.social.topic.weight == 700 && t?.social.url.weight == 300 && t?.social.mention.color == RGBA(1, 0, 0))
    }
    // wrapMinWidth takes a number or an unquoted length.
    @Test func wrapMinWidth() {
        #expect(overridden(["wrapMinWidth=20"])?.wrapMinWidth == 20)
        #expect(overridden(["wrapMinWidth=1in"])?.wrapMinWidth == 72)
    }
    // cjkAutoSpacing takes a boolean.
    @Test func cjkAutoSpacing() { #expect(overridden(["cjkAutoSpacing=true"])?.cjkAutoSpacing == true) }
    // emoticons: a JSON list, or a comma-separated string; paths are kept as written.
    @Test func emoticons() {
        #expect(overridden([#"social.emoticons=["packs/a", "/b"]"#])?.social.emoticons == ["packs/a", "/b"])
        #expect(overridden(["social.emoticons=packs/a, /b"])?.social.emoticons == ["packs/a", "/b"])
        #expect(overridden(["social.emoticons=[]"], overridden(["social.emoticons=x"])!)?.social.emoticons == [])
    }
    // A JSON object sets only the keys it names, at any level.
    @Test func objects() {
        var expected = standardSocial
        expected.enabled = true
        expected.url.weight = 700
        #expect(overridden([#"social={"enabled": true, "url": {"weight": 700}}"#])?.social == expected)
        #expect(overridden([#"social.mention={"weight": 500}"#])?.social.mention.url == "https://weibo.com/n/{name}")
    }
    // Overrides start from the given template's values.
    @Test func base() {
        let t = overridden(["caption.size=9"], Template.builtin(named: "tablet")!)
        #expect(t?.caption.face == "Helvetica" && t?.caption.size == 9)
    }
    // Exact messages for bad values.
    @Test func errors() {
        #expect(
            overrideMessage(["social.mention.url=https://weibo.com/"])
                == "--set social.mention.url=https://weibo.com/: expected a link pattern containing {name}")
        #expect(overrideMessage(["social.topic.url={name}"]) == "--set social.topic.url={name}: expected a link pattern containing {topic}")
        #expect(overrideMessage(["social.enabled=yes"]) == "--set social.enabled=yes: expected true or false")
        #expect(overrideMessage(["caption.size=0"]) == "--set caption.size=0: expected a length greater than 0")
        #expect(overrideMessage(["caption.gap=-1"]) == "--set caption.gap=-1: expected a length of 0 or more")
        #expect(overrideMessage(["wrapMinWidth=0"]) == "--set wrapMinWidth=0: expected a length greater than 0")
        #expect(overrideMessage(["wrapMinWidth=wide"]) == "--set wrapMinWidth=wide: expected a number or length")
        #expect(overrideMessage(["cjkAutoSpacing=1"]) == "--set cjkAutoSpacing=1: expected true or false")
        #expect(
            overrideMessage(["social.topic.weight=heavy"])
                == #"--set social.topic.weight=heavy: expected a weight from 100 to 900, "bold" or "normal""#)
        #expect(overrideMessage(["social=on"]) == "--set social=on: expected an object with enabled, mention, topic, url and emoticons")
        #expect(overrideMessage(["social.url=blue"]) == "--set social.url=blue: expected an object with color and weight")
        #expect(overrideMessage(["social.emoticons=3"]) == "--set social.emoticons=3: expected a list of emoticon pack folders")
        #expect(overrideMessage(["caption.color=gren"]) == "--set caption.color=gren: unknown colour 'gren'; did you mean 'green'?")
    }
    // Unknown keys are suggested with their paths.
    @Test func unknownKeys() {
        #expect(
            overrideMessage(["social.enable=true"])
                == "--set social.enable=true: unknown key 'social.enable'; did you mean 'social.enabled'?")
        #expect(
            overrideMessage(["social.mention.colr=red"])
                == "--set social.mention.colr=red: unknown key 'social.mention.colr'; did you mean 'social.mention.color'?")
        #expect(overrideMessage(["social.url.url=x"]) == "--set social.url.url=x: unknown key 'social.url.url'")
        #expect(overrideMessage(["caption.sise=9"]) == "--set caption.sise=9: unknown key 'caption.sise'; did you mean 'caption.size'?")
        #expect(
            overrideMessage(["wrapMinWidth.x=1"]) == "--set wrapMinWidth.x=1: unknown key 'wrapMinWidth.x'; did you mean 'wrapMinWidth'?")
        #expect(
            overrideMessage(["social.topic.url.x=1"])
                == "--set social.topic.url.x=1: unknown key 'social.topic.url.x'; did you mean 'social.topic.url'?")
        #expect(overrideMessage(["socal.enabled=true"]) == "--set socal.enabled=true: unknown key 'socal'; did you mean 'social'?")
    }
}

// MARK: - Encoding

@Suite struct SocialEncodeTests {
    // The keys are written after link, exactly so, closing the object.
    @Test func written() {
        #expect(
            TemplateLoader.encode(.default).hasSuffix(
                #"""
                  "link": {"color": "#1f4e8c", "underline": "none"},
                  "caption": {"face": "DejaVu Serif", "size": 8.5, "color": "#404040", "italic": true, "gap": 4},
                  "wrapMinWidth": 30,
                  "social": {
                    "enabled": false,
                    "mention": {"color": "#1f6fb2", "weight": 400, "url": "https://weibo.com/n/{name}"},
                    "topic": {"color": "#c45a1b", "weight": 400, "url": "https://s.weibo.com/weibo?q=%23{topic}%23"},
                    "url": {"color": "#1f4e8c", "weight": 400},
                    "emoticons": []
                  },
                  "cjkAutoSpacing": false,
                  "typography": {"smartQuotes": true, "dashes": false, "cjkQuotes": "curly"},
                  "cjk": {"punctuation": "compress", "hanging": false},
                  "maxImagePixels": 100000000,
                  "startPage": 1,
                  "print": {"bleed": "3mm", "slug": "10mm", "marks": ["crop", "registration", "slug"]}
                }

                """#))
    }
    // tablet's captions are written in Helvetica.
    @Test func tablet() {
        #expect(
            TemplateLoader.encode(Template.builtin(named: "tablet")!).contains(
                ##"  "caption": {"face": "Helvetica", "size": 8.5, "color": "#404040", "italic": true, "gap": 4},"##))
    }
    // Non-default values survive encode then decode, and are written as expected.
    @Test func roundTrip() {
        var t = Template.builtin(named: "pocket")!
        t.caption = CaptionSpec(face: "Noto \"Sans\"", size: 7.25, color: RGBA(0.1, 0.2, 0.3, 0.4), italic: false, gap: 0)
        t.wrapMinWidth = LengthUnit.mm.of(12)
        t.social = SocialSpec(
            enabled: true,
            mention: SocialStyleSpec(color: RGBA(1, 0, 0), weight: 700, url: "https://x.social/@{name}?q=\"{name}\""),
            topic: SocialStyleSpec(color: .black, weight: 100, url: "{topic}"),
            url: SocialStyleSpec(color: RGBA(0, 0, 1), weight: 900),
            emoticons: ["/packs/a b", "/packs/ü,v"])
        t.cjkAutoSpacing = true
        let text = TemplateLoader.encode(t)
        #expect(decoded(text) == t)
        #expect(text.contains(#""wrapMinWidth": "12mm""#) && text.contains(#""cjkAutoSpacing": true"#))
        #expect(text.contains(#"    "mention": {"color": "red", "weight": 700, "url": "https://x.social/@{name}?q=\"{name}\""},"#))
        #expect(text.contains(#"    "url": {"color": "blue", "weight": 900},"#))
        #expect(text.contains(#"    "emoticons": ["/packs/a b", "/packs/ü,v"]"#))
    }
    // Overrides of every new key survive encode then decode.
    @Test func overriddenRoundTrip() {
        let t = overridden([
            "caption.face=F", "caption.size=9", "caption.color=navy", "caption.italic=false", "caption.gap=1",
            "wrapMinWidth=20", "social.enabled=true", "social.mention.url=https://m/{name}", "social.topic.weight=bold",
            "social.url.color=green", #"social.emoticons=["/p"]"#, "cjkAutoSpacing=true",
        ])!
        #expect(decoded(TemplateLoader.encode(t)) == t)
    }
    // Every built-in, encoded, decodes back to itself.
    @Test func builtinsRoundTrip() {
        for t in Template.builtins { #expect(decoded(TemplateLoader.encode(t)) == t, "\(t.name)") }
    }
}
