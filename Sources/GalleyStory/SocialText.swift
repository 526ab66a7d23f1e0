import FoundationEssentials
import GalleyMarkup
import GalleySupport
import GalleyTemplate
import Glibc

/// Which kinds of social text are found, and where mentions and topics link to.
public struct SocialSettings: Sendable, Equatable {
    public var mentions = true
    public var topics = true
    public var urls = true
    public var emoticons = true
    /// Where `@name` links to; `{name}` is replaced by the name (without `@`), percent-encoded.
    public var mentionURL = "https://weibo.com/n/{name}"
    /// Where `#topic#` links to; `{topic}` is replaced by the text between the `#`s, percent-encoded.
    public var topicURL = "https://s.weibo.com/weibo?q=%23{topic}%23"

    public init() {}

    /// The link of a mention (`name` without the `@`).
    public func mentionLink(_ name: String) -> String {
        mentionURL.replacing("{name}", with: SocialText.percentEncoded(name))
    }

    /// The link of a topic (`topic` without its `#`s).
    public func topicLink(_ topic: String) -> String {
        topicURL.replacing("{topic}", with: SocialText.percentEncoded(topic))
    }
}

/// Finds social text (Weibo-style posts) in running text, as a transform of the parser's nodes
/// that the story builder runs before it gives tags their meaning.
///
/// Each find becomes markup nodes, as if the author had written the tags:
///
/// | source          | nodes                                                                       |
/// | --------------- | --------------------------------------------------------------------------- |
/// | `@toto97`       | `<a href="https://weibo.com/n/toto97" class="mention">` `@toto97` `</a>`      |
/// | `#话题#`        | `<a href="https://s.weibo.com/weibo?q=%23%E8%AF%9D%E9%A2%98%23" class="topic">` `#话题#` `</a>` |
/// | `www.a.org`     | `<a href="https://www.a.org" class="url">` `www.a.org` `</a>`                 |
/// | `[微笑]` (emoji) | `<span class="emoticon" alt="[微笑]">` `🙂` `</span>`                        |
/// | `[doge]` (image) | `<img src="/abs/pack/doge.svg" inline class="emoticon" alt="[doge]">`        |
///
/// A topic keeps its emoticons: `#好[赞]#` is a link around `#好`, the emoticon's nodes and `#`.
///
/// Locations: every text node of the output starts at the source location of its first
/// character, and columns advance one per scalar inside it, except the emoji text of an
/// emoticon span, which is located at the code's `[` (it is not source text). A synthesized start
/// tag (`<a>`, `<span>`, `<img>`) and its attributes are located at the first character of the
/// text it stands for; an end tag (`</a>`, `</span>`) just past its last character.
public enum SocialText {
    /// Rewrites the text nodes of `nodes` where detection is on (everywhere when `everywhere`,
    /// else only inside `<social>…</social>` blocks), turning each find into markup nodes.
    /// Never looks inside an existing `<a>…</a>`, nor in `<code>`, which is set as typed. Text nodes next to each other (a decoded
    /// entity is a node of its own) are scanned as one run, so `a.org/?x=1&amp;y=2` is one
    /// link; tags and line breaks end a run. Other nodes are kept as they are, `<social>` and
    /// `</social>` included; text with nothing found is kept node for node.
    public static func transform(
        _ nodes: [MarkupNode], settings: SocialSettings, packs: EmoticonPacks, everywhere: Bool
    ) -> [MarkupNode] {
        var out: [MarkupNode] = []
        out.reserveCapacity(nodes.count)
        var socialDepth = 0
        var linkDepth = 0
        var codeDepth = 0
        var run: [(String, SourceLocation)] = []
        /// The last scalar of the text before the run (nil at the start of a line).
        var before: Unicode.Scalar?
        var runBefore: Unicode.Scalar?

        func flush() {
            guard !run.isEmpty else { return }
            let active = (everywhere || socialDepth > 0) && linkDepth == 0 && codeDepth == 0
            if active {
                // A find is no word for what follows it, even across a tag.
                if rewrite(run, before: runBefore, settings: settings, packs: packs, into: &out) { before = nil }
            } else {
                for (s, loc) in run { out.append(.text(s, loc)) }
            }
            run.removeAll(keepingCapacity: true)
        }

        for node in nodes {
            switch node {
            case .text(let s, let loc):
                if run.isEmpty { runBefore = before }
                run.append((s, loc))
                if let last = s.unicodeScalars.last { before = last }
                continue
            case .newline:
                flush()
                before = nil
            case .startTag(let tag):
                flush()
                if !tag.selfClosing {
                    if tag.name == "social" { socialDepth += 1 }
                    if tag.name == "a" { linkDepth += 1 }
                    if tag.name == "code" { codeDepth += 1 }
                }
            case .endTag(let name, _):
                flush()
                if name == "social" { socialDepth = max(0, socialDepth - 1) }
                if name == "a" { linkDepth = max(0, linkDepth - 1) }
                if name == "code" { codeDepth = max(0, codeDepth - 1) }
            }
            out.append(node)
        }
        flush()
        return out
    }

    /// Scans one run of text nodes and appends its nodes, rewritten where something was found.
    /// True when the run ends with a find.
    @discardableResult
    static func rewrite(
        _ run: [(String, SourceLocation)], before: Unicode.Scalar?, settings: SocialSettings, packs: EmoticonPacks,
        into out: inout [MarkupNode]
    ) -> Bool {
        guard run.contains(where: { mayHoldSocialText($0.0) }) else {
            for (s, loc) in run { out.append(.text(s, loc)) }
            return false
        }
        var text = RunText()
        for (s, loc) in run where !s.isEmpty { text.append(s, at: loc) }
        let finds = SocialScanner(text.scalars, settings: settings, packs: packs, before: before).finds()
        guard let last = finds.last else {
            for (s, loc) in run { out.append(.text(s, loc)) }
            return false
        }
        var emitter = Emitter(text: text)
        var cursor = 0
        for f in finds {
            emitter.text(cursor..<f.range.lowerBound, into: &out)
            switch f.kind {
            case .mention(let name):
                emitter.link(f.range, href: settings.mentionLink(name), class: "mention", inner: [], into: &out)
            case .topic(let topic, let emoticons):
                emitter.link(f.range, href: settings.topicLink(topic), class: "topic", inner: emoticons, into: &out)
            case .url(let href):
                emitter.link(f.range, href: href, class: "url", inner: [], into: &out)
            case .emoticon(let code, let e):
                emitter.emoticon(f.range, code: code, e, into: &out)
            }
            cursor = f.range.upperBound
        }
        emitter.text(cursor..<text.scalars.count, into: &out)
        return last.range.upperBound == text.scalars.count
    }

    /// False when `s` cannot start anything: no `@`, `#`, `[`, `h` or `w` in it (either case).
    static func mayHoldSocialText(_ s: String) -> Bool {
        s.utf8.contains { b in
            switch b {
            case UInt8(ascii: "@"), UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "h"), UInt8(ascii: "H"),
                UInt8(ascii: "w"), UInt8(ascii: "W"):
                true
            default: false
            }
        }
    }

    /// `s` percent-encoded as UTF-8, keeping the unreserved characters `A–Z a–z 0–9 - . _ ~`.
    public static func percentEncoded(_ s: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The scalars of a run of text nodes, with where each node started.
    struct RunText {
        var scalars: [Unicode.Scalar] = []
        /// Scalar index where each node starts, and the node's location.
        var starts: [Int] = []
        var locations: [SourceLocation] = []
        /// UTF-8 bytes before each scalar index (one more entry than `scalars`).
        var bytesBefore: [Int] = [0]

        mutating func append(_ s: String, at loc: SourceLocation) {
            starts.append(scalars.count)
            locations.append(loc)
            for c in s.unicodeScalars {
                scalars.append(c)
                bytesBefore.append(bytesBefore[bytesBefore.count - 1] + UTF8.width(c))
            }
        }
    }

    /// Writes the nodes of a run in order; locations are asked for in increasing order, so the
    /// node they fall in is found by moving forward.
    struct Emitter {
        let text: RunText
        private var node = 0

        init(text: RunText) { self.text = text }

        /// The node holding scalar `i` (the last node for the run's end).
        private mutating func seek(_ i: Int) {
            if node < text.starts.count, text.starts[node] > i { node = 0 }
            while node + 1 < text.starts.count, text.starts[node + 1] <= i { node += 1 }
        }

        /// Where scalar `i` is in the source (for `i == count`, just past the last one).
        mutating func location(_ i: Int) -> SourceLocation {
            seek(i)
            let start = text.starts[node]
            let base = text.locations[node]
            return SourceLocation(
                line: base.line, column: base.column + (i - start),
                offset: base.offset + text.bytesBefore[i] - text.bytesBefore[start])
        }

        /// Text nodes for scalars `r`, cut where the source's nodes were cut.
        mutating func text(_ r: Range<Int>, into out: inout [MarkupNode]) {
            var a = r.lowerBound
            while a < r.upperBound {
                let loc = location(a)
                let nodeEnd = node + 1 < text.starts.count ? text.starts[node + 1] : text.scalars.count
                let b = min(r.upperBound, nodeEnd)
                out.append(.text(SocialScanner.string(text.scalars[a..<b]), loc))
                a = b
            }
        }

        /// `<a href class>` around the text of `r`, with the emoticons found inside it.
        mutating func link(
            _ r: Range<Int>, href: String, class cls: String, inner: [SocialFind], into out: inout [MarkupNode]
        ) {
            let loc = location(r.lowerBound)
            out.append(
                .startTag(
                    MarkupTag(
                        name: "a", attributes: [attribute("href", href, loc), attribute("class", cls, loc)], location: loc,
                        selfClosing: false)))
            var cursor = r.lowerBound
            for e in inner {
                text(cursor..<e.range.lowerBound, into: &out)
                if case .emoticon(let code, let emoticon) = e.kind { self.emoticon(e.range, code: code, emoticon, into: &out) }
                cursor = e.range.upperBound
            }
            text(cursor..<r.upperBound, into: &out)
            out.append(.endTag("a", location(r.upperBound)))
        }

        /// `<span class="emoticon" alt>emoji</span>`, or `<img src inline class="emoticon" alt>`.
        mutating func emoticon(_ r: Range<Int>, code: String, _ e: Emoticon, into out: inout [MarkupNode]) {
            let loc = location(r.lowerBound)
            switch e {
            case .emoji(let emoji):
                out.append(
                    .startTag(
                        MarkupTag(
                            name: "span", attributes: [attribute("class", "emoticon", loc), attribute("alt", code, loc)],
                            location: loc, selfClosing: false)))
                out.append(.text(emoji, loc))
                out.append(.endTag("span", location(r.upperBound)))
            case .image(let path):
                out.append(
                    .startTag(
                        MarkupTag(
                            name: "img",
                            attributes: [
                                attribute("src", path, loc), attribute("inline", "", loc), attribute("class", "emoticon", loc),
                                attribute("alt", code, loc),
                            ], location: loc, selfClosing: false)))
            }
        }

        func attribute(_ name: String, _ value: String, _ loc: SourceLocation) -> MarkupAttribute {
            MarkupAttribute(name: name, value: value, nameLocation: loc, valueLocation: loc)
        }
    }
}
