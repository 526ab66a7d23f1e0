import Foundation
import GalleyMarkup
import TestSupport
import Testing

@testable import GalleyStory
@testable import GalleyTemplate

/// Loads a pack folder `mine/` holding `pack.json` (and `files`) on top of the built-in pack:
/// "loaded", or the error rendered as the CLI prints it (source line and caret), with `<dir>`
/// for the temporary folder.
func packError(_ json: String, files: [String: Data] = [:]) -> String {
    let dir = TemporaryDirectory("pack")
    dir.write("mine/pack.json", json)
    for (name, data) in files { dir.write("mine/" + name, data) }
    return packResult(dir.file("mine"), json: json, dir: dir)
}

/// The result of loading `folder`, rendered as `packError` does.
func packResult(_ folder: String, json: String = "", dir: TemporaryDirectory) -> String {
    switch EmoticonPacks.builtin.adding(folder: folder) {
    case .success: return "loaded"
    case .failure(let d):
        let source = SourceFile(path: d.file ?? "", text: json)
        return DiagnosticRenderer.render(d, sources: { $0 == d.file ? source : nil })
            .replacingOccurrences(of: dir.path, with: "<dir>")
    }
}

// MARK: - The built-in pack

@Suite struct EmoticonBuiltinTests {
    /// The codes the built-in pack must have.
    static let required = """
        [微笑] [哈哈] [泪] [心] [赞] [doge] [笑cry] [二哈] [允悲] [抱抱] [鼓掌] [怒] [可怜] [思考] [吃瓜] [加油] \
        [太开心] [偷笑] [晕] [衰] [good] [ok] [耶] [握手] [作揖] [蛋糕] [礼物] [太阳] [月亮] [鲜花] [伤心] [挖鼻] [酷] \
        [馋嘴] [哼] [并不简单] [费解] [憧憬] [拜拜] [害羞]
        """.split(separator: " ").map(String.init)

    // Every required code maps to emoji, and there are at least 40 codes.
    @Test func requiredCodes() {
        #expect(Self.required.count == 40)
        for code in Self.required {
            guard case .emoji(let e)? = EmoticonPacks.builtin.lookup(code) else {
                Issue.record("\(code) is missing")
                continue
            }
            #expect(!e.isEmpty)
        }
        #expect(EmoticonPacks.builtin.codes.count >= 40)
        #expect(EmoticonPacks.builtin.names == ["builtin"])
    }

    // Each built-in emoji is one character, sequences included ([晕] is a ZWJ sequence); [中国赞] is a flag and a thumb.
    @Test func emojiAreWhole() {
        for code in EmoticonPacks.builtin.codes {
            guard case .emoji(let e)? = EmoticonPacks.builtin.lookup(code) else { continue }
            #expect(e.count == (code == "[中国赞]" ? 2 : 1), "\(code)")
        }
        #expect(EmoticonPacks.builtin.lookup("[晕]") == .emoji("😵\u{200D}💫"))
        #expect(EmoticonPacks.builtin.lookup("[中国赞]") == .emoji("\u{1F1E8}\u{1F1F3}👍"))
    }

    // Codes are looked up exactly, brackets included.
    @Test func exactLookup() {
        #expect(EmoticonPacks.builtin.lookup("微笑") == nil)
        #expect(EmoticonPacks.builtin.lookup("[OK]") == nil)
        #expect(EmoticonPacks.none.lookup("[微笑]") == nil)
    }
}

// MARK: - Loading packs

@Suite struct EmoticonPackLoadingTests {
    // A pack's images resolve to absolute paths in its folder; its emoji override the built-in ones.
    @Test func loadsImagesAndEmoji() {
        let pack = FixturePack()
        let p = pack.packs
        #expect(p.lookup("[微笑]") == .image(path: pack.folder + "/smile.png"))
        #expect(p.lookup("[doge]") == .image(path: pack.folder + "/img/doge.svg"))
        #expect(p.lookup("[赞]") == .emoji("👍🏽"))
        #expect(p.lookup("[家]") == .emoji("👨\u{200D}👩\u{200D}👧"))
        #expect(p.lookup("[哈哈]") == EmoticonPacks.builtin.lookup("[哈哈]"))
        #expect(p.names == ["builtin", "test pack"])
    }

    // A later pack overrides the codes it shares with an earlier one.
    @Test func laterPacksOverride() throws {
        let dir = TemporaryDirectory("packs")
        dir.write("a/pack.json", #"{"name": "a", "emoticons": {"[x]": {"emoji": "🅰"}, "[y]": {"emoji": "🇾"}}}"#)
        dir.write("b/pack.json", #"{"name": "b", "emoticons": {"[x]": {"emoji": "🅱"}}}"#)
        let p = try EmoticonPacks.builtin.adding(folder: dir.file("a")).get().adding(folder: dir.file("b")).get()
        #expect(p.lookup("[x]") == .emoji("🅱") && p.lookup("[y]") == .emoji("🇾"))
        #expect(p.names == ["builtin", "a", "b"])
    }

    // Without "name", the folder's name stands in; image paths are normalised.
    @Test func nameDefaultsToTheFolder() throws {
        let dir = TemporaryDirectory("packs")
        dir.write("faces/pack.json", #"{"emoticons": {"[s]": "../faces/s.png"}}"#)
        dir.write("faces/s.png", Data(tinyPNG))
        let p = try EmoticonPacks.none.adding(folder: dir.file("faces")).get()
        #expect(p.names == ["none", "faces"])
        #expect(p.lookup("[s]") == .image(path: dir.file("faces/s.png")))
    }

    // Codes of a loaded pack are found in text, however long they are.
    @Test func longCodesAreFound() throws {
        let dir = TemporaryDirectory("packs")
        dir.write("long/pack.json", #"{"emoticons": {"[a-rather-long-code-name]": {"emoji": "🦒"}}}"#)
        let p = try EmoticonPacks.builtin.adding(folder: dir.file("long")).get()
        let nodes = SocialText.transform(socialNodes("x[a-rather-long-code-name]"), settings: SocialSettings(), packs: p, everywhere: true)
        #expect(count("emoticon", in: nodes) == 1)
    }
}

// MARK: - Pack errors

@Suite struct EmoticonPackErrorTests {
    // A folder without pack.json.
    @Test func noPackFile() {
        let dir = TemporaryDirectory("pack")
        dir.write("mine/readme.txt", "")
        assertDump(
            packResult(dir.file("mine"), dir: dir),
            #"""
            <dir>/mine/pack.json: error: pack 'mine': there is no pack.json in '<dir>/mine'
            """#)
    }

    // A folder that does not exist, and a file given as the folder.
    @Test func noFolder() {
        let dir = TemporaryDirectory("pack")
        dir.write("file.txt", "")
        assertDump(
            packResult(dir.file("gone"), dir: dir) + packResult(dir.file("file.txt"), dir: dir),
            #"""
            <dir>/gone/pack.json: error: pack 'gone': the folder '<dir>/gone' does not exist
            <dir>/file.txt/pack.json: error: pack 'file.txt': '<dir>/file.txt' is not a folder
            """#)
    }

    // pack.json that is not UTF-8.
    @Test func notUTF8() {
        let dir = TemporaryDirectory("pack")
        dir.write("mine/pack.json", Data([0x7B, 0xFF, 0x7D]))
        assertDump(
            packResult(dir.file("mine"), dir: dir),
            #"""
            <dir>/mine/pack.json: error: pack 'mine': pack.json is not valid UTF-8 text
            """#)
    }

    // Malformed JSON is located where the reader stopped.
    @Test func malformedJSON() {
        assertDump(
            packError(#"{"emoticons": {"[a]": {"emoji": "x"},}}"#),
            #"""
            <dir>/mine/pack.json:1:38: error: pack 'mine': malformed JSON: trailing comma before '}'
            {"emoticons": {"[a]": {"emoji": "x"},}}
                                                 ^
            """#)
    }

    // The top level must be an object.
    @Test func notAnObject() {
        assertDump(
            packError(#"["[a]"]"#),
            #"""
            <dir>/mine/pack.json:1:1: error: pack 'mine': pack.json must be a JSON object, got an array
            ["[a]"]
            ^~~~~~~
            """#)
    }

    // "name" must be a string.
    @Test func nameNotAString() {
        assertDump(
            packError(#"{"name": 3, "emoticons": {}}"#),
            #"""
            <dir>/mine/pack.json:1:10: error: pack 'mine': "name" must be a string, got 3
            {"name": 3, "emoticons": {}}
                     ^
            """#)
    }

    // Without "emoticons" there is nothing to load.
    @Test func missingEmoticons() {
        assertDump(
            packError(#"{"name": "my pack"}"#),
            #"""
            <dir>/mine/pack.json:1:1: error: pack 'my pack': missing "emoticons", an object mapping codes such as "[微笑]" to image files or {"emoji": "…"}
            {"name": "my pack"}
            ^
            """#)
    }

    // A misspelt key is reported with a suggestion (before "emoticons" is found missing).
    @Test func unknownKey() {
        assertDump(
            packError(#"{"name": "my pack", "emoticon": {}}"#),
            #"""
            <dir>/mine/pack.json:1:21: error: pack 'my pack': unknown key "emoticon"; did you mean "emoticons"?
            {"name": "my pack", "emoticon": {}}
                                ^~~~~~~~~~
            """#)
    }

    // "emoticons" must be an object.
    @Test func emoticonsNotAnObject() {
        assertDump(
            packError(#"{"name": "my pack", "emoticons": ["[a]"]}"#),
            #"""
            <dir>/mine/pack.json:1:34: error: pack 'my pack': "emoticons" must be an object, got an array
            {"name": "my pack", "emoticons": ["[a]"]}
                                             ^~~~~~~
            """#)
    }

    // A code must be written in brackets.
    @Test func codeNotInBrackets() {
        assertDump(
            packError(#"{"name": "my pack", "emoticons": {"smile": "s.png"}}"#),
            #"""
            <dir>/mine/pack.json:1:35: error: pack 'my pack': code 'smile' must be written in brackets, as in '[smile]'
            {"name": "my pack", "emoticons": {"smile": "s.png"}}
                                              ^~~~~~~
            """#)
    }

    // An empty code, and a code with a space inside.
    @Test func emptyAndSpacedCodes() {
        assertDump(
            packError(#"{"emoticons": {"[]": "s.png"}}"#) + packError(#"{"emoticons": {"[a b]": "s.png"}}"#),
            #"""
            <dir>/mine/pack.json:1:16: error: pack 'mine': empty code '[]'
            {"emoticons": {"[]": "s.png"}}
                           ^~~~
            <dir>/mine/pack.json:1:16: error: pack 'mine': code '[a b]' may not contain spaces or brackets inside its brackets
            {"emoticons": {"[a b]": "s.png"}}
                           ^~~~~~~
            """#)
    }

    // An image that does not exist.
    @Test func missingImage() {
        assertDump(
            packError(#"{"name": "my pack", "emoticons": {"[doge]": "doge.svg"}}"#),
            #"""
            <dir>/mine/pack.json:1:45: error: pack 'my pack': [doge] points to 'doge.svg', which does not exist
            {"name": "my pack", "emoticons": {"[doge]": "doge.svg"}}
                                                        ^~~~~~~~~~
            """#)
    }

    // A JPEG is not an emoticon image; nor is a file that is no image at all.
    @Test func wrongImageKinds() {
        let jpeg = FileManager.default.contents(atPath: repoPath("samples/images/harbour.jpg"))!
        assertDump(
            packError(#"{"emoticons": {"[a]": "a.jpg"}}"#, files: ["a.jpg": jpeg])
                + packError(#"{"emoticons": {"[b]": "b.png"}}"#, files: ["b.png": Data("not a png".utf8)]),
            #"""
            <dir>/mine/pack.json:1:23: error: pack 'mine': [a] points to 'a.jpg', a JPEG image; emoticons must be PNG or SVG
            {"emoticons": {"[a]": "a.jpg"}}
                                  ^~~~~~~
            <dir>/mine/pack.json:1:23: error: pack 'mine': [b] points to 'b.png', which cannot be used: it is not a PNG, JPEG or SVG image
            {"emoticons": {"[b]": "b.png"}}
                                  ^~~~~~~
            """#)
    }

    // An image name that is empty, or names a folder.
    @Test func emptyImageNameAndFolder() {
        assertDump(
            packError(#"{"emoticons": {"[a]": ""}}"#)
                + packError(#"{"emoticons": {"[a]": "sub"}}"#, files: ["sub/x.png": Data(tinyPNG)]),
            #"""
            <dir>/mine/pack.json:1:23: error: pack 'mine': [a] has an empty file name
            {"emoticons": {"[a]": ""}}
                                  ^~
            <dir>/mine/pack.json:1:23: error: pack 'mine': [a] points to 'sub', which is a folder
            {"emoticons": {"[a]": "sub"}}
                                  ^~~~~
            """#)
    }

    // An empty emoji.
    @Test func emptyEmoji() {
        assertDump(
            packError(#"{"name": "my pack", "emoticons": {"[赞]": {"emoji": " "}}}"#),
            #"""
            <dir>/mine/pack.json:1:52: error: pack 'my pack': [赞] has an empty emoji
            {"name": "my pack", "emoticons": {"[赞]": {"emoji": " "}}}
                                                                ^~~
            """#)
    }

    // An emoji that is not a string, an object without "emoji", and a misspelt "emoji".
    @Test func badEmojiObjects() {
        assertDump(
            packError(#"{"emoticons": {"[a]": {"emoji": 1}}}"#) + packError(#"{"emoticons": {"[a]": {}}}"#)
                + packError(#"{"emoticons": {"[a]": {"emojj": "x"}}}"#),
            #"""
            <dir>/mine/pack.json:1:33: error: pack 'mine': the emoji of [a] must be a string, got 1
            {"emoticons": {"[a]": {"emoji": 1}}}
                                            ^
            <dir>/mine/pack.json:1:23: error: pack 'mine': [a] has no "emoji"; write {"emoji": "…"}
            {"emoticons": {"[a]": {}}}
                                  ^~
            <dir>/mine/pack.json:1:24: error: pack 'mine': unknown key "emojj" in [a]; did you mean "emoji"?
            {"emoticons": {"[a]": {"emojj": "x"}}}
                                   ^~~~~~~
            """#)
    }

    // A value that is neither a file name nor an emoji object.
    @Test func valueOfTheWrongKind() {
        assertDump(
            packError(#"{"emoticons": {"[a]": 42}}"#),
            #"""
            <dir>/mine/pack.json:1:23: error: pack 'mine': [a] must be an image file name or {"emoji": "…"}, got 42
            {"emoticons": {"[a]": 42}}
                                  ^~
            """#)
    }

    // The same code twice in one pack.
    @Test func duplicateCode() {
        assertDump(
            packError("{\"emoticons\": {\n  \"[a]\": {\"emoji\": \"x\"},\n  \"[a]\": {\"emoji\": \"y\"}}}"),
            #"""
            <dir>/mine/pack.json:3:3: error: pack 'mine': [a] is defined twice (first at 2:3)
              "[a]": {"emoji": "y"}}}
              ^~~~~
            """#)
    }
}
