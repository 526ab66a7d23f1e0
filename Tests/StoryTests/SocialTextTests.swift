import Foundation
import GalleyMarkup
import TestSupport
import Testing

@testable import GalleyStory
@testable import GalleyTemplate

// MARK: - Helpers

/// The parser's vocabulary with the tags social text deals in (the builder's own vocabulary
/// will have them; here they only need to reach the transform as nodes).
let socialVocabulary = Vocabulary.standard
    .adding(.tag("a", "href", "class"))
    .adding(.tag("social"))
    .adding(.tag("span", "class", "alt"))

/// The parser's nodes for `text`.
func socialNodes(_ text: String) -> [MarkupNode] {
    MarkupParser.parse(SourceFile(path: "t.txt", text: text), vocabulary: socialVocabulary).nodes
}

/// A 4 × 4 PNG (opaque orange): small enough to write out in full.
let tinyPNG: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 0x04, 0x08, 0x06, 0x00, 0x00, 0x00, 0xA9, 0xF1, 0x9E, 0x7E, 0x00, 0x00, 0x00, 0x12, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0x7F, 0x86, 0xE1, 0x3F, 0x32, 0x66, 0x20, 0x5D, 0x00, 0x00, 0xF4, 0x2F,
    0x2C, 0xA1, 0x32, 0xA6, 0x32, 0x8B, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]

/// A 16 × 16 SVG.
let tinySVG =
    ##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#e0a040"/></svg>"##

/// A pack folder written for a test (removed with the value): `weibo/` with two images, a
/// skin-tone, a ZWJ and a flag sequence, and `[微笑]` overriding the built-in emoji.
/// (Written at test time rather than kept under Fixtures/, so the test target has no files
/// SwiftPM would warn about.)
struct FixturePack {
    let dir = TemporaryDirectory("emoticons")
    let packs: EmoticonPacks
    var folder: String { dir.file("weibo") }

    static let json = #"""
        {
          "name": "test pack",
          "description": "Two images, three emoji sequences.",
          "emoticons": {
            "[微笑]": "smile.png",
            "[doge]": "img/doge.svg",
            "[赞]": {"emoji": "👍🏽"},
            "[家]": {"emoji": "👨‍👩‍👧"},
            "[骄傲]": {"emoji": "🏳️‍🌈"}
          }
        }
        """#

    init() {
        dir.write("weibo/smile.png", Data(tinyPNG))
        dir.write("weibo/img/doge.svg", tinySVG)
        dir.write("weibo/pack.json", Self.json)
        packs = try! EmoticonPacks.builtin.adding(folder: dir.file("weibo")).get()
    }
}

/// Transforms `text` and dumps the result, after checking every produced location against the source.
func social(
    _ text: String, settings: SocialSettings = SocialSettings(), packs: EmoticonPacks = .builtin,
    everywhere: Bool = true, pack: FixturePack? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> String {
    let out = SocialText.transform(socialNodes(text), settings: settings, packs: pack?.packs ?? packs, everywhere: everywhere)
    checkLocations(out, in: text, sourceLocation: sourceLocation)
    return socialDump(out, folder: pack?.folder)
}

/// One line per node: `line:col`, then `text("…")`, `newline`, `<tag name="value" …>` or `</tag>`.
/// Image paths in `folder` are shown as `<pack>/…`.
func socialDump(_ nodes: [MarkupNode], folder: String? = nil) -> String {
    var out = ""
    for node in nodes {
        out += "\(node.location) "
        switch node {
        case .text(let s, _): out += "text(\(dumpQuoted(s)))"
        case .newline: out += "newline"
        case .startTag(let tag):
            out += "<" + tag.name
            for a in tag.attributes {
                out += " " + a.name
                if !a.value.isEmpty || a.key != "inline" {
                    var value = a.value
                    if let folder, value.hasPrefix(folder + "/") { value = "<pack>" + value.dropFirst(folder.count) }
                    out += "=" + dumpQuoted(value)
                }
            }
            out += tag.selfClosing ? "/>" : ">"
        case .endTag(let name, _): out += "</\(name)>"
        }
        out += "\n"
    }
    return out
}

/// Every location in the output is a real place in `source` (line and column agree with the byte
/// offset), and every text node copied from the source is found at its offset; the emoji text of
/// an emoticon span is located at its code's `[`.
func checkLocations(_ nodes: [MarkupNode], in source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let bytes = Array(source.utf8)
    func place(_ offset: Int) -> (line: Int, column: Int)? {
        guard offset >= 0, offset <= bytes.count else { return nil }
        var line = 1
        var column = 1
        for b in bytes[..<offset] {
            if b == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
    var inEmoticon = false
    for node in nodes {
        let loc = node.location
        guard let p = place(loc.offset), p.line == loc.line, p.column == loc.column else {
            Issue.record("\(node): \(loc) is not at offset \(loc.offset)", sourceLocation: sourceLocation)
            continue
        }
        switch node {
        case .startTag(let tag) where tag.name == "span": inEmoticon = true
        case .endTag("span", _): inEmoticon = false
        case .text(let s, _):
            let here = bytes[loc.offset...]
            if inEmoticon {
                #expect(here.first == UInt8(ascii: "["), "emoji \(s) not at a code", sourceLocation: sourceLocation)
            } else if here.first == UInt8(ascii: "&") && s.unicodeScalars.count == 1 {
                break  // a decoded entity
            } else {
                #expect(here.starts(with: Array(s.utf8)), "text \(dumpQuoted(s)) not at \(loc)", sourceLocation: sourceLocation)
            }
        default: break
        }
    }
}

/// The number of nodes that are start tags with this class.
func count(_ cls: String, in nodes: [MarkupNode]) -> Int {
    nodes.reduce(0) { n, node in
        if case .startTag(let t) = node, t.attribute("class")?.value == cls { return n + 1 }
        return n
    }
}

// MARK: - Mentions

@Suite struct SocialMentionTests {
    // A mention ends at the first character that cannot be in a name (here ':').
    @Test func mentionEndsAtColon() {
        assertDump(
            social("hi @toto97: yes"),
            #"""
            1:1 text("hi ")
            1:4 <a href="https://weibo.com/n/toto97" class="mention">
            1:4 text("@toto97")
            1:11 </a>
            1:11 text(": yes")
            """#)
    }

    // Chinese text runs straight into a mention; a CJK name ends at fullwidth punctuation.
    @Test func mentionAfterChineseText() {
        assertDump(
            social("转发@张三：好"),
            #"""
            1:1 text("转发")
            1:3 <a href="https://weibo.com/n/%E5%BC%A0%E4%B8%89" class="mention">
            1:3 text("@张三")
            1:6 </a>
            1:6 text("：好")
            """#)
    }

    // The @ of an e-mail address is not a mention; a mention after a space on the same line is.
    @Test func emailIsNotAMention() {
        assertDump(
            social("me@example.com, @ann"),
            #"""
            1:1 text("me@example.com, ")
            1:17 <a href="https://weibo.com/n/ann" class="mention">
            1:17 text("@ann")
            1:21 </a>
            """#)
    }

    // Code is set as typed: an annotation, a macro and an index are no mention, topic or
    // emoticon; the text after the code is scanned again.
    @Test func nothingFoundInCode() {
        assertDump(
            social("<code>@Override #define X# a[ok]</code> @ann"),
            #"""
            1:1 <code>
            1:7 text("@Override #define X# a[ok]")
            1:33 </code>
            1:40 text(" ")
            1:41 <a href="https://weibo.com/n/ann" class="mention">
            1:41 text("@ann")
            1:45 </a>
            """#)
    }

    // A lone @, an @ after '.' or '_', and an @ after a Latin letter with an accent stay text.
    @Test func loneAndGluedAtSignsStayText() {
        assertDump(
            social("a @ b @, x.@y z_@w josé@q"),
            #"""
            1:1 text("a @ b @, x.@y z_@w josé@q")
            """#)
    }

    // Names take letters, digits, '-' and '_'; a '.' ends them.
    @Test func nameCharacters() {
        assertDump(
            social("@a-b_c9.d"),
            #"""
            1:1 <a href="https://weibo.com/n/a-b_c9" class="mention">
            1:1 text("@a-b_c9")
            1:8 </a>
            1:8 text(".d")
            """#)
    }

    // A Weibo repost chain: each `//@name:` is a mention.
    @Test func repostChain() {
        assertDump(
            social("好//@张三:对//@li_si: 嗯"),
            #"""
            1:1 text("好//")
            1:4 <a href="https://weibo.com/n/%E5%BC%A0%E4%B8%89" class="mention">
            1:4 text("@张三")
            1:7 </a>
            1:7 text(":对//")
            1:11 <a href="https://weibo.com/n/li_si" class="mention">
            1:11 text("@li_si")
            1:17 </a>
            1:17 text(": 嗯")
            """#)
    }

    // The word rule looks through tags (`me` in a font tag glues to the @) but not across lines.
    @Test func wordBeforeTheAtSignAcrossTags() {
        assertDump(
            social("<font color=\"red\">me</font>@x\n@y"),
            #"""
            1:1 <font color="red">
            1:19 text("me")
            1:21 </font>
            1:28 text("@x")
            1:30 newline
            2:1 <a href="https://weibo.com/n/y" class="mention">
            2:1 text("@y")
            2:3 </a>
            """#)
    }
}

// MARK: - Topics

@Suite struct SocialTopicTests {
    // A Weibo topic runs from # to the next #, with no spaces needed around it.
    @Test func topicInChineseText() {
        assertDump(
            social("看#话题#吧"),
            #"""
            1:1 text("看")
            1:2 <a href="https://s.weibo.com/weibo?q=%23%E8%AF%9D%E9%A2%98%23" class="topic">
            1:2 text("#话题#")
            1:6 </a>
            1:6 text("吧")
            """#)
    }

    // Spaces inside a topic are kept (and encoded in the link).
    @Test func spacesInsideATopic() {
        assertDump(
            social("#Apple WWDC#"),
            #"""
            1:1 <a href="https://s.weibo.com/weibo?q=%23Apple%20WWDC%23" class="topic">
            1:1 text("#Apple WWDC#")
            1:13 </a>
            """#)
    }

    // Unmatched, empty, and space-padded # stay text.
    @Test func unmatchedHashStaysText() {
        assertDump(
            social("a # b ## #c #d"),
            #"""
            1:1 text("a # b ## #c #d")
            """#)
    }

    // C# and F# are not topics: an opening # glued to a Latin word is not one.
    @Test func languageNamesAreNotTopics() {
        assertDump(
            social("C#/F# and C# or F#"),
            #"""
            1:1 text("C#/F# and C# or F#")
            """#)
    }

    // 64 characters between the #s make a topic; 65 do not.
    @Test func topicLengthLimit() {
        let ok = String(repeating: "话", count: 64)
        let long = String(repeating: "话", count: 65)
        let nodes = SocialText.transform(socialNodes("#\(ok)# #\(long)#"), settings: SocialSettings(), packs: .builtin, everywhere: true)
        #expect(count("topic", in: nodes) == 1)
        #expect(nodes.last == .text(" #\(long)#", SourceLocation(line: 1, column: 67, offset: 2 + 64 * 3)))
    }

    // Two topics back to back: the third # opens the second topic.
    @Test func adjacentTopics() {
        assertDump(
            social("#a##b#"),
            #"""
            1:1 <a href="https://s.weibo.com/weibo?q=%23a%23" class="topic">
            1:1 text("#a#")
            1:4 </a>
            1:4 <a href="https://s.weibo.com/weibo?q=%23b%23" class="topic">
            1:4 text("#b#")
            1:7 </a>
            """#)
    }

    // An emoticon code inside a topic becomes its emoticon; the link covers the whole topic.
    @Test func codeInsideATopic() {
        assertDump(
            social("#好[赞]#!"),
            #"""
            1:1 <a href="https://s.weibo.com/weibo?q=%23%E5%A5%BD%5B%E8%B5%9E%5D%23" class="topic">
            1:1 text("#好")
            1:3 <span class="emoticon" alt="[赞]">
            1:3 text("👍")
            1:6 </span>
            1:6 text("#")
            1:7 </a>
            1:7 text("!")
            """#)
    }

    // An image code inside a topic is an inline image inside the link.
    @Test func imageCodeInsideATopic() {
        assertDump(
            social("#[doge]#", pack: FixturePack()),
            #"""
            1:1 <a href="https://s.weibo.com/weibo?q=%23%5Bdoge%5D%23" class="topic">
            1:1 text("#")
            1:2 <img src="<pack>/img/doge.svg" inline class="emoticon" alt="[doge]">
            1:8 text("#")
            1:9 </a>
            """#)
    }

    // The keycap emoji #️⃣ is never a topic's #, and stays whole.
    @Test func keycapIsNotATopicMark() {
        assertDump(
            social("#\u{FE0F}\u{20E3} #a# #\u{20E3}"),
            #"""
            1:1 text("#️⃣ ")
            1:5 <a href="https://s.weibo.com/weibo?q=%23a%23" class="topic">
            1:5 text("#a#")
            1:8 </a>
            1:8 text(" #⃣")
            """#)
    }

    // A tag ends the text a topic can span: no topic across <font>.
    @Test func topicsStopAtTags() {
        assertDump(
            social("#a<font color=\"red\">b</font>#"),
            #"""
            1:1 text("#a")
            1:3 <font color="red">
            1:21 text("b")
            1:22 </font>
            1:29 text("#")
            """#)
    }

    // A topic ends at the end of its line: a # on the next line does not close it.
    @Test func topicsStayOnTheirLine() {
        assertDump(
            social("#a\nb#"),
            #"""
            1:1 text("#a")
            1:3 newline
            2:1 text("b#")
            """#)
    }
}

// MARK: - Web addresses

@Suite struct SocialURLTests {
    // Trailing punctuation is not part of a URL.
    @Test func trailingPunctuation() {
        assertDump(
            social("see http://a.org/x?y=1. Then https://b.org/!"),
            #"""
            1:1 text("see ")
            1:5 <a href="http://a.org/x?y=1" class="url">
            1:5 text("http://a.org/x?y=1")
            1:23 </a>
            1:23 text(". Then ")
            1:30 <a href="https://b.org/" class="url">
            1:30 text("https://b.org/")
            1:44 </a>
            1:44 text("!")
            """#)
    }

    // Chinese text right after a URL ends it; Chinese text right before does not stop it.
    @Test func urlBetweenChineseText() {
        assertDump(
            social("链接https://t.cn/A6x看看。"),
            #"""
            1:1 text("链接")
            1:3 <a href="https://t.cn/A6x" class="url">
            1:3 text("https://t.cn/A6x")
            1:19 </a>
            1:19 text("看看。")
            """#)
    }

    // Letters and marks of spaced scripts belong to a URL, its path or its host, and are
    // percent-encoded in the link; punctuation beyond ASCII (an em dash) ends it.
    @Test func nonASCIIAddresses() {
        assertDump(
            social(
                "See https://de.wikipedia.org/wiki/Straße, http://пример.рф/ and https://a.org/x—then. "
                    + "https://ko.wikipedia.org/wiki/서울"),
            #"""
            1:1 text("See ")
            1:5 <a href="https://de.wikipedia.org/wiki/Stra%C3%9Fe" class="url">
            1:5 text("https://de.wikipedia.org/wiki/Straße")
            1:41 </a>
            1:41 text(", ")
            1:43 <a href="http://%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80.%D1%80%D1%84/" class="url">
            1:43 text("http://пример.рф/")
            1:60 </a>
            1:60 text(" and ")
            1:65 <a href="https://a.org/x" class="url">
            1:65 text("https://a.org/x")
            1:80 </a>
            1:80 text("—then. ")
            1:87 <a href="https://ko.wikipedia.org/wiki/%EC%84%9C%EC%9A%B8" class="url">
            1:87 text("https://ko.wikipedia.org/wiki/서울")
            1:119 </a>
            """#)
    }

    // www. addresses link to https://www.…; a trailing comma is left out.
    @Test func wwwGetsHTTPS() {
        assertDump(
            social("www.example.com/path, WWW.X.ORG"),
            #"""
            1:1 <a href="https://www.example.com/path" class="url">
            1:1 text("www.example.com/path")
            1:21 </a>
            1:21 text(", ")
            1:23 <a href="https://WWW.X.ORG" class="url">
            1:23 text("WWW.X.ORG")
            1:32 </a>
            """#)
    }

    // Balanced parentheses stay in a URL; an unbalanced closing one ends it.
    @Test func parentheses() {
        assertDump(
            social("(see https://en.wikipedia.org/wiki/Foo_(bar))"),
            #"""
            1:1 text("(see ")
            1:6 <a href="https://en.wikipedia.org/wiki/Foo_(bar)" class="url">
            1:6 text("https://en.wikipedia.org/wiki/Foo_(bar)")
            1:45 </a>
            1:45 text(")")
            """#)
    }

    // A scheme glued to a word, or with nothing after it, is not a URL; nor is www. after '@'.
    @Test func notURLs() {
        assertDump(
            social("xhttp://a.org http:// www. a@www.b.org"),
            #"""
            1:1 text("xhttp://a.org http:// www. a@www.b.org")
            """#)
    }

    // A known emoticon code ends a URL; a topic after a URL's trailing # still forms.
    @Test func urlThenCodeOrTopic() {
        assertDump(
            social("http://t.cn/x[doge] https://t.cn/y#话题#"),
            #"""
            1:1 <a href="http://t.cn/x" class="url">
            1:1 text("http://t.cn/x")
            1:14 </a>
            1:14 <span class="emoticon" alt="[doge]">
            1:14 text("🐶")
            1:20 </span>
            1:20 text(" ")
            1:21 <a href="https://t.cn/y" class="url">
            1:21 text("https://t.cn/y")
            1:35 </a>
            1:35 <a href="https://s.weibo.com/weibo?q=%23%E8%AF%9D%E9%A2%98%23" class="topic">
            1:35 text("#话题#")
            1:39 </a>
            """#)
    }

    // An entity inside a URL does not cut it: one link over three text nodes, each at its source place.
    @Test func entityInsideAURL() {
        assertDump(
            social("http://a.org/?x=1&amp;y=2 ok"),
            #"""
            1:1 <a href="http://a.org/?x=1&y=2" class="url">
            1:1 text("http://a.org/?x=1")
            1:18 text("&")
            1:23 text("y=2")
            1:26 </a>
            1:26 text(" ok")
            """#)
    }

    // A URL keeps @ and # in its path: no mention or topic inside it.
    @Test func atAndHashInsideAURL() {
        assertDump(
            social("https://medium.com/@ann#top"),
            #"""
            1:1 <a href="https://medium.com/@ann#top" class="url">
            1:1 text("https://medium.com/@ann#top")
            1:28 </a>
            """#)
    }
}

// MARK: - Emoticons

@Suite struct SocialEmoticonTests {
    // Adjacent codes both convert.
    @Test func adjacentCodes() {
        assertDump(
            social("[哈哈][心]"),
            #"""
            1:1 <span class="emoticon" alt="[哈哈]">
            1:1 text("😄")
            1:5 </span>
            1:5 <span class="emoticon" alt="[心]">
            1:5 text("❤️")
            1:8 </span>
            """#)
    }

    // Unknown codes stay text, and a known code inside extra brackets still converts.
    @Test func unknownCodesStayText() {
        assertDump(
            social("[不存在] [[微笑]] [微笑"),
            #"""
            1:1 text("[不存在] [")
            1:8 <span class="emoticon" alt="[微笑]">
            1:8 text("🙂")
            1:12 </span>
            1:12 text("] [微笑")
            """#)
    }

    // ZWJ, flag and skin-tone sequences come out whole.
    @Test func sequencesStayWhole() {
        let pack = FixturePack()
        let nodes = SocialText.transform(
            socialNodes("[晕][中国赞][赞][家][骄傲]"), settings: SocialSettings(), packs: pack.packs, everywhere: true)
        let emoji = nodes.compactMap { node -> String? in
            if case .text(let s, _) = node { return s }
            return nil
        }
        #expect(emoji == ["😵\u{200D}💫", "🇨🇳👍", "👍🏽", "👨\u{200D}👩\u{200D}👧", "🏳\u{FE0F}\u{200D}🌈"])
        #expect(emoji.map(\.count) == [1, 2, 1, 1, 1])
    }

    // An image emoticon is an inline <img> standing for the code; a pack overrides built-in codes.
    @Test func imageEmoticon() {
        assertDump(
            social("好[微笑]", pack: FixturePack()),
            #"""
            1:1 text("好")
            1:2 <img src="<pack>/smile.png" inline class="emoticon" alt="[微笑]">
            """#)
    }

    // Emoji text already in the source is left alone, and an @ after it is a mention.
    @Test func sourceEmojiUntouched() {
        assertDump(
            social("👨‍👩‍👧@ann"),
            #"""
            1:1 text("👨\u{200D}👩\u{200D}👧")
            1:6 <a href="https://weibo.com/n/ann" class="mention">
            1:6 text("@ann")
            1:10 </a>
            """#)
    }
}

// MARK: - Where detection runs

@Suite struct SocialScopeTests {
    // Without `everywhere`, only text inside <social>…</social> is looked at; the tags are kept.
    @Test func socialBlocksOnly() {
        assertDump(
            social("@a <social>@b [心]</social> @c", everywhere: false),
            #"""
            1:1 text("@a ")
            1:4 <social>
            1:12 <a href="https://weibo.com/n/b" class="mention">
            1:12 text("@b")
            1:14 </a>
            1:14 text(" ")
            1:15 <span class="emoticon" alt="[心]">
            1:15 text("❤️")
            1:18 </span>
            1:18 </social>
            1:27 text(" @c")
            """#)
    }

    // With `everywhere`, text outside <social> is looked at too.
    @Test func everywhere() {
        let nodes = SocialText.transform(
            socialNodes("@a <social>@b</social> @c"), settings: SocialSettings(), packs: .builtin, everywhere: true)
        #expect(count("mention", in: nodes) == 3)
    }

    // Nested blocks count, a stray </social> changes nothing, and a mention just before a tag
    // does not glue to the next one (`@b</social>@c` is two).
    @Test func nestedAndStrayBlocks() {
        let nodes = SocialText.transform(
            socialNodes("</social>@a <social><social>@b</social>@c</social> @d"), settings: SocialSettings(),
            packs: .builtin, everywhere: false)
        let names = nodes.compactMap { node -> String? in
            if case .startTag(let t) = node, t.name == "a" { return t.attribute("href")?.value }
            return nil
        }
        #expect(names == ["https://weibo.com/n/b", "https://weibo.com/n/c"])
    }

    // Text inside an existing <a>…</a> is never looked at: explicit markup wins.
    @Test func existingLinkUntouched() {
        assertDump(
            social("<a href=\"x\">@me #t# [心]</a> @you"),
            #"""
            1:1 <a href="x">
            1:13 text("@me #t# [心]")
            1:24 </a>
            1:28 text(" ")
            1:29 <a href="https://weibo.com/n/you" class="mention">
            1:29 text("@you")
            1:33 </a>
            """#)
    }

    // Each kind can be turned off.
    @Test func settingsTurnKindsOff() {
        var s = SocialSettings()
        s.mentions = false
        s.topics = false
        s.urls = false
        s.emoticons = false
        assertDump(
            social("@a #b# www.c.org [心]", settings: s),
            #"""
            1:1 text("@a #b# www.c.org [心]")
            """#)
        s.emoticons = true
        let nodes = SocialText.transform(socialNodes("@a #b[心]# www.c.org"), settings: s, packs: .builtin, everywhere: true)
        #expect(count("emoticon", in: nodes) == 1 && count("mention", in: nodes) == 0 && count("url", in: nodes) == 0)
    }

    // Text with nothing found comes back node for node, entities and lines included.
    @Test func nothingFoundIsIdentity() {
        let nodes = socialNodes("plain &amp; simple\n<font color=\"red\">C#</font> [x] me@home")
        #expect(SocialText.transform(nodes, settings: SocialSettings(), packs: .builtin, everywhere: true) == nodes)
    }

    // Locations on later lines and after entities: every node at its exact source place.
    @Test func locationsAfterEntitiesAndLines() {
        assertDump(
            social("x\n&lt;@a&gt; 话[心]#t#"),
            #"""
            1:1 text("x")
            1:2 newline
            2:1 text("<")
            2:5 <a href="https://weibo.com/n/a" class="mention">
            2:5 text("@a")
            2:7 </a>
            2:7 text(">")
            2:11 text(" 话")
            2:13 <span class="emoticon" alt="[心]">
            2:13 text("❤️")
            2:16 </span>
            2:16 <a href="https://s.weibo.com/weibo?q=%23t%23" class="topic">
            2:16 text("#t#")
            2:19 </a>
            """#)
    }
}

// MARK: - Links

@Suite struct SocialLinkTests {
    // Names and topics are percent-encoded as UTF-8, unreserved characters kept.
    @Test func percentEncoding() {
        #expect(SocialText.percentEncoded("a b/c?d=é~._-Z9") == "a%20b%2Fc%3Fd%3D%C3%A9~._-Z9")
        #expect(SocialText.percentEncoded("话题#[赞]") == "%E8%AF%9D%E9%A2%98%23%5B%E8%B5%9E%5D")
        #expect(SocialText.percentEncoded("👍🏽") == "%F0%9F%91%8D%F0%9F%8F%BD")
    }

    // Custom patterns: every {name} / {topic} is replaced.
    @Test func customPatterns() {
        var s = SocialSettings()
        s.mentionURL = "https://x.social/@{name}?ref={name}"
        s.topicURL = "https://x.social/tags/{topic}"
        #expect(s.mentionLink("张三") == "https://x.social/@%E5%BC%A0%E4%B8%89?ref=%E5%BC%A0%E4%B8%89")
        #expect(s.topicLink("a b") == "https://x.social/tags/a%20b")
        assertDump(
            social("@z #y#", settings: s),
            #"""
            1:1 <a href="https://x.social/@z?ref=z" class="mention">
            1:1 text("@z")
            1:3 </a>
            1:3 text(" ")
            1:4 <a href="https://x.social/tags/y" class="topic">
            1:4 text("#y#")
            1:7 </a>
            """#)
    }
}

// MARK: - Linear time

@Suite struct SocialScaleTests {
    // 100,000 codes on one line all convert (a quadratic scan would not finish).
    @Test func hundredThousandCodes() {
        let line = String(repeating: "[微笑]", count: 100_000)
        let nodes = SocialText.transform(socialNodes(line), settings: SocialSettings(), packs: .builtin, everywhere: true)
        #expect(count("emoticon", in: nodes) == 100_000)
        #expect(nodes.count == 300_000)
        #expect(nodes.last == .endTag("span", SourceLocation(line: 1, column: 400_001, offset: 800_000)))
    }

    // Long lines of unmatched openers, of #, @ and schemes finish and find what they should.
    @Test func pathologicalLines() {
        let n = 100_000
        let cases: [(String, String, Int)] = [
            (String(repeating: "[", count: n) + "微笑]", "emoticon", 1),
            (String(repeating: "[微", count: n) + "]", "emoticon", 0),
            (String(repeating: "#", count: n), "topic", 0),
            (String(repeating: "# ", count: n) + "#a#", "topic", 1),
            (String(repeating: "@", count: n) + "a", "mention", 1),
            (String(repeating: "http://", count: n), "url", 1),
            (String(repeating: "www.", count: n), "url", 1),
            (String(repeating: "#话", count: n), "topic", n / 2),
        ]
        for (line, cls, expected) in cases {
            let nodes = SocialText.transform(socialNodes(line), settings: SocialSettings(), packs: .builtin, everywhere: true)
            #expect(count(cls, in: nodes) == expected, "\(line.prefix(12))…")
        }
    }
}
