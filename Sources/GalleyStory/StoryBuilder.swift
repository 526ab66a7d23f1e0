import FoundationEssentials
import GalleyMarkup
import GalleySupport
import GalleyTemplate
import Glibc

/// Turns the parser's flat node sequence into a `Story`, giving tags their meaning and checking
/// attribute values. Diagnostics are collected, never printed.
///
/// **Core Text semantics.** Outside `<p>` and headings a newline ends a paragraph (or, in
/// blank-line mode, an empty line does); `<font …>` changes the style of everything after it,
/// and `</font>` goes back to the style before its matching `<font>`; a `<font>` never closed
/// is normal and silent. A short paragraph set wholly in a style larger than the body is taken
/// for a heading.
///
/// **Containers.** `<span …>`, `<b>`, `<i>`, `<u>`, `<s>`, `<sup>`, `<sub>` and `<a href>` set
/// character attributes until their end tag; `<p …>`, `<h1>`–`<h3>` and `<vertical>` are blocks
/// that start and end paragraphs. Every tag that opens something saves the whole state (text
/// style, paragraph style, open isolates, link) and its end tag restores it, so a `<font>` left
/// open inside a container ends with the container. End tags are matched like this:
/// * a block end tag closes the nearest open block of its name (any heading closes any heading,
///   with a warning when the levels differ), and whatever is open inside it;
/// * `</font>` and inline end tags look only inside the innermost open block. With no match
///   there, an inline end tag closes the innermost open inline container (a "mismatched" warning);
///   otherwise it is ignored with a warning;
/// * containers closed without their own end tag get a warning (fonts do not); so do
///   containers still open at the end of the text, which simply end there.
///
/// **Text the builder inserts** (layout must expect these in `Story.text`):
/// * U+2028 LINE SEPARATOR for `<br>`: a forced line break inside the paragraph.
/// * Unicode isolates around text in a `dir` attribute of `<span>`/`<font>`: U+2067 RLI (rtl),
///   U+2066 LRI (ltr) or U+2068 FSI (auto), closed by U+2069 PDI when the element closes. Each
///   paragraph is balanced: isolates still open at its end are closed there and opened again
///   before the next paragraph's first text. Image paragraphs hold no isolates.
public struct StoryBuilder {
    /// The template giving the body style and paragraph defaults.
    public var template: Template
    /// Folder `src` paths are relative to (the input file's folder).
    public var baseDirectory: String

    /// Social text: detection everywhere (`--social`, or the template's `social.enabled`), and the
    /// emoticon packs. Without it, only `<social>` blocks are scanned, with the built-in pack.
    public var socialEverywhere = false
    /// `file:` link targets are written (`--allow-file-links`); otherwise they are refused, as a
    /// PDF reader may open any file of the reader's machine through one.
    public var allowFileLinks = false
    public var emoticons = EmoticonPacks.builtin
    /// The folder images are read under (`--root`); by default the base folder. An image
    /// outside it is an error, whether or not the file exists.
    public var root: String

    public init(template: Template, baseDirectory: String) {
        self.template = template
        self.baseDirectory = baseDirectory
        self.root = baseDirectory
    }

    /// The style of a plain paragraph under `template`: what every paragraph starts from.
    public static func paragraphStyle(for template: Template) -> ParagraphStyle {
        ParagraphStyle(
            alignment: template.alignment, firstLineIndent: template.firstLineIndent,
            spacingAfter: template.paragraphSpacing, leadingRatio: template.body.leading / template.body.size)
    }

    /// Builds the story of a parsed document. The diagnostics include the parser's.
    public func build(_ document: MarkupDocument) -> (Story, Diagnostics) {
        var run = Run(builder: self, file: document.source.path)
        run.diagnostics.append(contentsOf: document.diagnostics)
        var nodes = template.paragraphMode == .blankLine ? Self.unwrap(document.nodes) : document.nodes
        // @mentions, #topics#, URLs and [emoticons] become links and images before the story is
        // built, so every range is computed after the replacements (nothing shifts).
        let everywhere = socialEverywhere || template.social.enabled
        if everywhere || nodes.contains(where: { if case .startTag(let t) = $0 { t.name == "social" } else { false } }) {
            var settings = SocialSettings()
            settings.mentionURL = template.social.mention.url
            settings.topicURL = template.social.topic.url
            nodes = SocialText.transform(nodes, settings: settings, packs: emoticons, everywhere: everywhere)
        }
        (nodes, run.blockNodes) = Self.liftBlocks(nodes, file: document.source.path, diagnostics: &run.diagnostics)
        // The story is at most about as long as the source, with a piece of text per node.
        run.text.reserveCapacity(document.source.text.utf8.count)
        run.sourceMap.reserveCapacity(nodes.count)
        run.runs.reserveCapacity(nodes.count / 2)
        for i in nodes.indices {
            let beforeNewline: Bool
            if i + 1 < nodes.count, case .newline = nodes[i + 1] { beforeNewline = true } else { beforeNewline = false }
            run.visit(nodes[i], beforeNewline: beforeNewline)
        }
        return run.finish()
    }

    /// Hard-wrapped text: drops the spaces and tabs that end a source line or indent the next,
    /// so joined lines meet with exactly one space.
    static func unwrap(_ nodes: [MarkupNode]) -> [MarkupNode] {
        var out = nodes
        for i in out.indices {
            guard case .text(var s, var loc) = out[i] else { continue }
            if i + 1 < out.count, case .newline = out[i + 1] { trimTrailingBlanks(&s) }
            let startsLine: Bool
            if i == 0 {
                startsLine = true
            } else if case .newline = out[i - 1] {
                startsLine = true
            } else {
                startsLine = false
            }
            if startsLine { trimLeadingBlanks(&s, &loc) }
            out[i] = .text(s, loc)
        }
        return out.filter {
            if case .text(let s, _) = $0 { return !s.isEmpty }
            return true
        }
    }

    static func isBlank(_ c: Character) -> Bool { c == " " || c == "\t" }

    static func trimTrailingBlanks(_ s: inout String) {
        while let last = s.last, isBlank(last) { s.removeLast() }
    }

    /// Drops leading spaces and tabs, moving `loc` along (they are one byte and one column each).
    static func trimLeadingBlanks(_ s: inout String, _ loc: inout SourceLocation) {
        while let first = s.first, isBlank(first) {
            s.removeFirst()
            loc.column += 1
            loc.offset += 1
        }
    }

    static let headingNames = ["h1", "h2", "h3"]

    /// `<code>`'s face when the template's `code` style gives none.
    static let codeFace = "DejaVu Sans Mono"

    /// What an open element is, for matching end tags.
    enum ElementKind {
        /// `<font>`: a state change; closed silently when its container closes.
        case font
        /// `<span>`, `<b>`, `<a>` …: character attributes until the end tag.
        case inline
        /// `<p>`, `<h1>`–`<h3>`, `<vertical>`: starts and ends paragraphs.
        case block

        init(_ name: String) {
            switch name {
            case "font": self = .font
            case "p", "h1", "h2", "h3", "vertical": self = .block
            default: self = .inline
            }
        }
    }

    /// An isolate around text with a `dir` attribute.
    enum Isolate: Hashable {
        case ltr, rtl, auto

        /// LRI, RLI or FSI.
        var initiator: Character {
            switch self {
            case .ltr: "\u{2066}"
            case .rtl: "\u{2067}"
            case .auto: "\u{2068}"
            }
        }

        /// PDI, which closes any of them.
        static let terminator: Character = "\u{2069}"
    }

    /// Everything a tag may change and its end tag restores.
    struct Scope: Hashable {
        var text: TextStyle {
            // Any change, in place or whole, makes the interned index stale.
            didSet { textStyle = nil }
        }
        /// The index of `text` in the run's `styles`, once interned; nil until then. Text after a
        /// tag's end is in the state the tag saved, and that state brings its index back with it,
        /// so most text is interned without comparing styles. (A state interned and the same state
        /// not yet interned are unequal: a `<font>`'s state may then be kept twice, which is
        /// harmless.)
        var textStyle: Int?
        var paragraph: ParagraphStyle
        /// `align="natural"`: left or right by the paragraph's direction, decided at its end.
        var naturalAlignment = false
        /// Inside `<p>` or a heading: newlines are spaces.
        var newlinesAreSpaces = false
        /// Paragraphs made here come from `<p>` or `<hN>`, so the heading heuristic leaves them alone.
        var explicitParagraph = false
        /// A `firstIndent` attribute set the first-line indent: the template's rule leaves it.
        var explicitIndent = false
        /// Isolates wanted open, outermost first.
        var isolates: [Isolate] = []
        /// Where the open `<a>` is, if any.
        var link: SourceLocation?
        /// Text made by the builder, not copied from the source (an emoticon's emoji): mapped
        /// to its source place as a whole.
        var synthetic = false
        /// Text set as typed, without typographic punctuation: `<code>`, and a URL the social
        /// scanner found (a quote or dash there is part of an address).
        var literal = false
    }

    /// A start tag whose end tag has not been seen.
    struct OpenElement {
        var name: String
        var location: SourceLocation
        var kind: ElementKind
        /// Its name's index in `ElementStack.names`.
        var nameIndex: Int
        /// The state before the tag, restored when it closes (an index in `ElementStack.scopes`).
        var saved: Int32
    }

    /// The open elements, innermost last, with indexes kept so that matching an end tag takes
    /// constant time however many `<font>`s are left open.
    struct ElementStack {
        private(set) var elements: [OpenElement] = []
        /// The element names seen so far, each with its kind and the positions of its open
        /// elements. A document uses a few names (the parser passes only its vocabulary's), so
        /// a name is found by comparing, which costs less than hashing it; its index then stands
        /// for it.
        private var names: [String] = []
        private var kinds: [ElementKind] = []
        private var positions: [[Int]] = []
        /// Positions of the open blocks, and of everything but fonts.
        private var blocks: [Int] = []
        private var containers: [Int] = []
        /// The states saved by open elements. Those saved by `<font>`s are kept each once: a Core
        /// Text file leaves thousands of `<font>`s open, cycling through a few states (a state is
        /// ~1 KB); other elements close soon, and their states are not compared (hashing a state
        /// costs more than keeping it). A state is kept while an open element uses it; its slot is
        /// then free for another.
        private var scopes: [(scope: Scope, uses: Int32)] = []
        /// Where each state saved by a `<font>` is kept.
        private var scopeIndex: [Scope: Int32] = [:]
        private var freeScopes: [Int32] = []

        subscript(i: Int) -> OpenElement { elements[i] }

        /// The index of `name` in `names`, added the first time.
        mutating func nameIndex(_ name: String) -> Int {
            if let k = names.firstIndex(of: name) { return k }
            names.append(name)
            kinds.append(ElementKind(name))
            positions.append([])
            return names.count - 1
        }

        /// The kind of the elements named by `nameIndex`.
        func kind(_ nameIndex: Int) -> ElementKind { kinds[nameIndex] }

        /// Opens an element named by `nameIndex`, saving `scope`.
        mutating func push(_ nameIndex: Int, location: SourceLocation, saving scope: Scope) {
            let kind = kinds[nameIndex]
            let shared = kind == .font
            let index: Int32
            if shared, let known = scopeIndex[scope] {
                index = known
                scopes[Int(index)].uses += 1
            } else {
                if let free = freeScopes.popLast() {
                    index = free
                    scopes[Int(index)] = (scope, 1)
                } else {
                    index = Int32(scopes.count)
                    scopes.append((scope, 1))
                }
                if shared { scopeIndex[scope] = index }
            }
            let i = elements.count
            elements.append(OpenElement(name: names[nameIndex], location: location, kind: kind, nameIndex: nameIndex, saved: index))
            positions[nameIndex].append(i)
            if kind == .block { blocks.append(i) }
            if kind != .font { containers.append(i) }
        }

        /// Removes the element at `i` and everything above it; returns the state it saved. (The
        /// elements are read by index, and removed one at a time from the end: a slice would share
        /// the stack's storage and make the removal copy the whole stack, thousands of `<font>`s
        /// deep in a Core Text file.)
        mutating func pop(from i: Int) -> Scope {
            let saved = scopes[Int(elements[i].saved)].scope
            for j in i..<elements.count {
                let e = elements[j]
                positions[e.nameIndex].removeLast()
                let k = Int(e.saved)
                scopes[k].uses -= 1
                if scopes[k].uses == 0 {
                    if e.kind == .font { scopeIndex.removeValue(forKey: scopes[k].scope) }
                    freeScopes.append(Int32(k))
                }
            }
            while let b = blocks.last, b >= i { blocks.removeLast() }
            while let c = containers.last, c >= i { containers.removeLast() }
            while elements.count > i { elements.removeLast() }
            return saved
        }

        /// The number of open elements.
        var count: Int { elements.count }

        /// The innermost open element named by `nameIndex`, or any heading when the name is one
        /// (any heading end tag closes any heading).
        func last(named nameIndex: Int) -> Int? {
            guard StoryBuilder.headingNames.contains(names[nameIndex]) else { return positions[nameIndex].last }
            var innermost: Int?
            for k in names.indices where StoryBuilder.headingNames.contains(names[k]) {
                if let i = positions[k].last, i > innermost ?? -1 { innermost = i }
            }
            return innermost
        }

        /// The innermost open block, and the innermost element that is not a font.
        var lastBlock: Int? { blocks.last }
        var lastContainer: Int? { containers.last }
    }

    /// A shadow's value and the em size it was read with (its lengths may be in em).
    struct KnownShadow: Hashable {
        var value: String
        var em: Double
    }

    /// The state of one build: the agent that walks the nodes once.
    struct Run {
        let builder: StoryBuilder
        let file: String
        var diagnostics = Diagnostics()
        var text = ""
        var characters = 0
        var styles: [TextStyle] = []
        var styleIndex: [TextStyle: Int] = [:]
        /// The styles `internScopeText()` returned last and before that: text after a span's end is
        /// most often in the style of the text before the span.
        var lastInterned = 0
        var previousInterned = 0
        var runs: [StyleRun] = []
        var paragraphs: [Paragraph] = []
        /// For each paragraph: made by `<p>` or a heading tag.
        var explicitParagraphs: [Bool] = []
        /// For each paragraph, whether its first-line indent was written in the source.
        var explicitIndents: [Bool] = []
        var images: [ImageReference] = []
        /// Image files named that could not be used (`Story.refusedFiles`).
        var refusedFiles: [String] = []
        /// Pull quotes and sidebars: the nodes each holds (lifted out of the text), how many
        /// have been met, and the blocks built from them.
        var blockNodes: [[MarkupNode]] = []
        var nextBlock = 0
        var blocks: [TextBlock] = []
        var sourceMap = SourceMap()
        var faceRequests: [String: SourceLocation] = [:]
        /// Whether a tab has been met (and said to be set as a space).
        var tabSaid = false
        /// Shadows read without a fault, by value and em size: a document repeats its few, and
        /// reading one (three lengths and a colour) costs several times more than finding it.
        var knownShadows: [KnownShadow: Shadow] = [:]

        /// The state in force, and the open elements with the state each saved.
        var scope: Scope
        var stack = ElementStack()
        /// The last `<font>` an enclosing end tag ended (`</span>` around it): where it was
        /// opened, and the end tag and where; a later `</font>` that finds none open names it.
        var endedFont: (opened: SourceLocation, by: String, at: SourceLocation)?
        /// Where the paragraph being built starts in `text`, and its first run.
        var paragraphStart = 0
        var paragraphFirstRun = 0
        /// How many of `scope.isolates` have been opened in the paragraph being built.
        var openIsolates = 0
        /// Newlines seen and not yet turned into a space or a break (blank-line mode, and
        /// inside `<p>`, where they are spaces).
        var pendingNewlines = 0
        var pendingNewlineLocation: SourceLocation?
        /// The last thing was a block (an image, a break, a block tag), so a newline right
        /// after it ends nothing.
        var afterBlock = false
        /// `<columnbreak>` / `<pagebreak>` waiting for the next paragraph, and where it was.
        var pendingBreak = FlowBreak.none
        var pendingBreakTag: (name: String, location: SourceLocation)?
        /// The fields `<meta>` tags gave, by attribute name; a later tag's value wins.
        var meta: [String: String] = [:]
        /// Typographic punctuation: the rules for the language last rewritten (text is mostly in
        /// one), the quotes open in the paragraph being built, and the rewrite's scratch space.
        var punctuation: (language: String, rules: SmartPunctuation)?
        var quotes = QuoteState()
        var punctuationBuffer: [UInt8] = []
        var punctuationEdits: [SmartPunctuation.Edit] = []

        init(builder: StoryBuilder, file: String) {
            self.builder = builder
            self.file = file
            let t = builder.template
            scope = Scope(
                text: TextStyle(face: t.body.face, size: t.body.size, color: t.body.color, language: t.language),
                paragraph: StoryBuilder.paragraphStyle(for: t))
        }

        var blankLineMode: Bool { builder.template.paragraphMode == .blankLine }
        var paragraphIsEmpty: Bool { text.utf8.count == paragraphStart }

        /// Gives a node its meaning; `beforeNewline`: the node after it is a newline.
        mutating func visit(_ node: MarkupNode, beforeNewline: Bool) {
            switch node {
            case .newline(let loc):
                if afterBlock {
                    afterBlock = false
                    return
                }
                if blankLineMode || scope.newlinesAreSpaces {
                    pendingNewlines += 1
                    if pendingNewlineLocation == nil { pendingNewlineLocation = loc }
                } else {
                    endParagraph(at: loc)
                }
            case .text(var s, var loc):
                // The text after an image or a block in mid-line starts its paragraph: without
                // the space it was written with (" text after an image").
                if afterBlock && paragraphIsEmpty && !scope.literal {
                    StoryBuilder.trimLeadingBlanks(&s, &loc)
                    if s.isEmpty { return }
                }
                if scope.newlinesAreSpaces {
                    // HTML-like: a wrapped line joins the previous with one space.
                    if pendingNewlines > 0 || paragraphIsEmpty { StoryBuilder.trimLeadingBlanks(&s, &loc) }
                    if beforeNewline { StoryBuilder.trimTrailingBlanks(&s) }
                    if s.isEmpty { return }
                }
                if pendingNewlines > 0 { flushNewlines(before: s.unicodeScalars.first) }
                afterBlock = false
                if s.utf8.contains(0x09) { s = spacedTabs(s, at: loc) }
                append(s, at: loc)
            case .startTag(let tag):
                startTag(tag)
            case .endTag(let name, let loc):
                endTag(name, at: loc)
            }
        }

        // MARK: text

        /// `s` with its tabs as spaces (one byte for one, so the source map holds): Galley sets
        /// no tab stops, and the font's tab glyph is drawn as an arrow. Said once, at the first.
        mutating func spacedTabs(_ s: String, at loc: SourceLocation) -> String {
            if !tabSaid, let i = s.unicodeScalars.firstIndex(of: "\t") {
                tabSaid = true
                var at = loc
                let before = s.unicodeScalars[..<i]
                at.column += before.count
                at.offset += String(String.UnicodeScalarView(before)).utf8.count
                diagnostics.append(
                    .warning("a tab is set as a space: Galley sets no tab stops", file: file, at: at, length: 1))
            }
            return s.replacing("\t", with: " ")
        }

        mutating func append(_ s: String, at loc: SourceLocation) {
            openWantedIsolates(at: loc)
            if !scope.literal && !scope.synthetic && builder.template.typography.isActive && appendPunctuated(s, at: loc) { return }
            sourceMap.add(storyOffset: text.utf8.count, storyCharacters: characters, source: loc, linear: !scope.synthetic)
            add(s, style: internScopeText())
        }

        /// `s` with typographic punctuation, if it has any to make (false: nothing changes). A
        /// replacement may be longer or shorter than what it replaces (`--` is one dash), so the
        /// text after each starts a new source map anchor: inside a piece story and source still
        /// advance together, and every later character maps to its own column.
        mutating func appendPunctuated(_ s: String, at loc: SourceLocation) -> Bool {
            let rules = punctuationRules()
            guard
                let out = rules.rewrite(
                    s, after: text.unicodeScalars.last, state: &quotes, buffer: &punctuationBuffer, edits: &punctuationEdits)
            else { return false }
            let start = text.utf8.count
            sourceMap.add(storyOffset: start, storyCharacters: characters, source: loc)
            for e in punctuationEdits where e.outputBytes < out.utf8.count {
                var after = loc
                after.column += e.sourceScalars
                after.offset += e.sourceBytes
                sourceMap.add(storyOffset: start + e.outputBytes, storyCharacters: characters + e.outputScalars, source: after)
            }
            add(out, style: internScopeText())
            return true
        }

        /// The punctuation rules for the language in force.
        mutating func punctuationRules() -> SmartPunctuation {
            let language = scope.text.language
            if let known = punctuation, known.language == language { return known.rules }
            let rules = SmartPunctuation(language: language, typography: builder.template.typography)
            punctuation = (language, rules)
            return rules
        }

        /// Text the builder makes (a line separator, an isolate): mapped to `loc` as a whole.
        mutating func insert(_ c: Character, at loc: SourceLocation) {
            sourceMap.add(storyOffset: text.utf8.count, storyCharacters: characters, source: loc, linear: false)
            add(String(c), style: internScopeText())
        }

        /// Adds text in a style, merging with the previous run when the style is the same.
        mutating func add(_ s: String, style: Int) {
            let start = text.utf8.count
            text += s
            characters += SourceMap.scalars(in: s, from: 0, to: s.utf8.count)
            let end = text.utf8.count
            if let last = runs.last, last.style == style, last.range.upperBound == start,
                runs.count > paragraphFirstRun
            {
                runs[runs.count - 1].range = last.range.lowerBound..<end
            } else {
                runs.append(StyleRun(range: start..<end, style: style))
            }
        }

        /// The index of the text style in force (`scope.text`) in `styles`, added the first
        /// time. The index is kept in the scope until the style changes. Otherwise the two styles
        /// returned last are compared first, before the table is hashed: a span's text and the
        /// text after it take turns.
        mutating func internScopeText() -> Int {
            if let known = scope.textStyle {
                if known != lastInterned {
                    previousInterned = lastInterned
                    lastInterned = known
                }
                return known
            }
            let i = lookUpScopeText()
            scope.textStyle = i
            return i
        }

        /// `internScopeText()` for a style whose index is not known yet.
        private mutating func lookUpScopeText() -> Int {
            if Self.holds(styles, lastInterned, scope.text) { return lastInterned }
            let i: Int
            if Self.holds(styles, previousInterned, scope.text) {
                i = previousInterned
            } else if let known = styleIndex[scope.text] {
                i = known
            } else {
                i = styles.count
                styles.append(scope.text)
                styleIndex[scope.text] = i
            }
            previousInterned = lastInterned
            lastInterned = i
            return i
        }

        /// Whether `styles[i]` is `style`.
        static func holds(_ styles: [TextStyle], _ i: Int, _ style: TextStyle) -> Bool {
            i < styles.count && styles[i] == style
        }

        /// Opens the isolates in force that the paragraph has not opened yet.
        mutating func openWantedIsolates(at loc: SourceLocation) {
            while openIsolates < scope.isolates.count {
                insert(scope.isolates[openIsolates].initiator, at: loc)
                openIsolates += 1
            }
        }

        /// Closes opened isolates until `count` are left.
        mutating func closeIsolates(downTo count: Int, at loc: SourceLocation) {
            while openIsolates > count {
                insert(Isolate.terminator, at: loc)
                openIsolates -= 1
            }
        }

        /// Pending newlines before new content (`next`: its first character, U+2028 for a
        /// `<br>`): blank-line mode ends the paragraph on two or more; otherwise (one, or any
        /// number inside `<p>`) they are one space, but none at the start of a paragraph, next to
        /// a space or next to a `<br>`. Inside `<p>`, as in CSS, a line break between two Chinese
        /// or Japanese characters is no space at all.
        mutating func flushNewlines(before next: Unicode.Scalar? = nil) {
            guard pendingNewlines > 0, let loc = pendingNewlineLocation else { return }
            if pendingNewlines >= 2 && !scope.newlinesAreSpaces {
                endParagraph(at: loc)
            } else if !paragraphIsEmpty && !text.hasSuffix(" ") && !text.hasSuffix("\u{2028}") && next != "\u{2028}" {
                let joinsCJK =
                    scope.newlinesAreSpaces && next?.isCJK == true
                    && text.unicodeScalars.last?.isCJK == true
                if !joinsCJK { insert(" ", at: loc) }
            }
            pendingNewlines = 0
            pendingNewlineLocation = nil
        }

        /// Drops pending newlines: a block boundary comes first.
        mutating func dropNewlines() {
            pendingNewlines = 0
            pendingNewlineLocation = nil
        }

        /// Ends the paragraph being built with a newline terminator.
        mutating func endParagraph(at loc: SourceLocation) {
            if blankLineMode && paragraphIsEmpty { return }  // several blank lines are one break
            closeIsolates(downTo: 0, at: loc)
            let end = text.utf8.count
            let range = paragraphStart..<end
            if range.isEmpty {
                // An empty paragraph still has the style in force, which sets its height.
                runs.append(StyleRun(range: end..<end, style: internScopeText()))
            }
            addParagraph(range: range, end: end + 1, content: .text)
            sourceMap.add(storyOffset: end, storyCharacters: characters, source: loc, linear: false)
            text += "\n"
            characters += 1
            quotes = QuoteState()
            paragraphStart = text.utf8.count
            paragraphFirstRun = runs.count
        }

        /// A block boundary: pending newlines are dropped, the paragraph being built (if it has
        /// any text) ends, and a newline right after the tag ends nothing.
        mutating func blockBoundary(at loc: SourceLocation) {
            dropNewlines()
            if !paragraphIsEmpty { endParagraph(at: loc) }
            afterBlock = true
        }

        /// Records a paragraph in the style in force, taking a pending break.
        mutating func addParagraph(range: Range<Int>, end: Int, content: Paragraph.Content) {
            var style = scope.paragraph
            if scope.naturalAlignment {
                let direction = style.direction ?? Self.firstStrongDirection(text.utf8Slice(range)) ?? .ltr
                style.alignment = direction == .rtl ? .right : .left
            }
            if pendingBreak != .none {
                style.breakBefore = pendingBreak
                pendingBreak = .none
                pendingBreakTag = nil
            }
            paragraphs.append(Paragraph(range: range, end: end, content: content, style: style, runs: paragraphFirstRun..<runs.count))
            explicitParagraphs.append(scope.explicitParagraph)
            explicitIndents.append(scope.explicitIndent)
        }

        /// The direction of the first strong character, skipping isolated text (UAX #9 P2).
        /// Hebrew, Arabic, Syriac, Thaana, N'Ko and the other right-to-left blocks are RTL; any
        /// other letter is LTR. An approximation of the bidi classes, enough for `align="natural"`.
        static func firstStrongDirection(_ s: Substring) -> WritingDirection? {
            var depth = 0
            for u in s.unicodeScalars {
                switch u.value {
                case 0x2066, 0x2067, 0x2068: depth += 1
                case 0x2069: depth = max(0, depth - 1)
                default:
                    guard depth == 0 else { continue }
                    if isRightToLeft(u) { return .rtl }
                    if u.properties.isAlphabetic { return .ltr }
                }
            }
            return nil
        }

        static func isRightToLeft(_ u: Unicode.Scalar) -> Bool {
            switch u.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
            default: false
            }
        }

        mutating func finish() -> (Story, Diagnostics) {
            let end0 = text.utf8.count
            for element in stack.elements where element.kind != .font {
                // An unclosed <font> is normal in Core Text files: its style simply runs to the end.
                diagnostics.append(
                    .warning(
                        "<\(element.name)> is never closed; it runs to the end of the text",
                        file: file, at: element.location, length: element.name.utf8.count + 1))
            }
            if let tag = pendingBreakTag, paragraphIsEmpty, !paragraphs.isEmpty {
                diagnostics.append(
                    .warning(
                        "<\(tag.name)> at the end of the text has nothing to break before; it is ignored",
                        file: file, at: tag.location, length: tag.name.utf8.count + 1))
                pendingBreak = .none
            }
            dropNewlines()
            if !paragraphIsEmpty || paragraphs.isEmpty {
                if let loc = sourceMap.anchors.last?.source { closeIsolates(downTo: 0, at: loc) }
                let end = text.utf8.count
                let range = paragraphStart..<end
                if range.isEmpty { runs.append(StyleRun(range: end..<end, style: internScopeText())) }
                addParagraph(range: range, end: end, content: .text)
            } else if let last = paragraphs.last, last.end == end0, text.utf8.last == 0x0A {
                // The source ended with a newline: the last paragraph has no terminator.
                text.removeLast()
                characters -= 1
                paragraphs[paragraphs.count - 1].end = end0 - 1
            }
            markHeadings()
            applyIndentRule()
            applyDropCapRule()
            var story = Story(
                text: text, styles: styles, runs: runs, paragraphs: paragraphs, images: images,
                sourceMap: sourceMap, faceRequests: faceRequests)
            story.title = meta["title"] ?? firstTitle()
            story.section = meta["section"]
            story.issue = meta["issue"]
            story.blocks = blocks
            story.refusedFiles = refusedFiles
            return (story, diagnostics)
        }

        /// Core Text files make headings with `<font>` tags: a short paragraph set entirely in
        /// one style larger than the body is taken for one, unless a text paragraph beside it
        /// starts at its size (the tutorial's files often set all their text at 14 pt: taken
        /// for a row of headings, it was set ragged and kept whole, its columns never balanced).
        /// Headings keep with what follows, are not hyphenated, and are set ragged rather than
        /// justified. Paragraphs from `<p>` and `<hN>` are left as the author made them.
        mutating func markHeadings() {
            let body = builder.template.body.size
            // The size the nearest text paragraph that way starts at, past empty lines.
            func leadingSize(from i: Int, by step: Int) -> Double? {
                var k = i + step
                while paragraphs.indices.contains(k), case .text = paragraphs[k].content {
                    if !paragraphs[k].range.isEmpty, let first = runs[paragraphs[k].runs].first(where: { !$0.range.isEmpty }) {
                        return styles[first.style].size
                    }
                    k += step
                }
                return nil
            }
            for i in paragraphs.indices where !explicitParagraphs[i] {
                let p = paragraphs[i]
                guard case .text = p.content, !p.range.isEmpty, i + 1 < paragraphs.count else { continue }
                guard let id = Self.onlyStyle(of: runs[p.runs]), styles[id].size >= body * 1.15 else { continue }
                let size = styles[id].size
                guard leadingSize(from: i, by: -1) != size && leadingSize(from: i, by: 1) != size else { continue }
                let characters = text.utf8Slice(p.range).unicodeScalars.count
                guard characters <= 160 else { continue }
                paragraphs[i].style.isHeading = true
                paragraphs[i].style.hyphenate = false
                if paragraphs[i].style.alignment == .justify { paragraphs[i].style.alignment = .left }
            }
        }

        /// Under the conventional rule, the paragraphs that open something (the story, or what
        /// follows a heading, a block image, an empty line or a break) and those set centred or
        /// to the right take no first-line indent, unless the source gave one. Floats, set
        /// elsewhere, are looked past.
        mutating func applyIndentRule() {
            guard builder.template.firstLineIndentRule == .conventional else { return }
            var opens = true
            for i in paragraphs.indices {
                let p = paragraphs[i]
                if case .image(let n) = p.content {
                    if images[n].placement == .block { opens = true }
                    continue
                }
                // Right is flush only in left-to-right text; it is where right-to-left text starts.
                let rtl = (p.style.direction ?? Self.firstStrongDirection(text.utf8Slice(p.range))) == .rtl
                let flush = p.style.alignment == .center || (p.style.alignment == .right && !rtl)
                if !explicitIndents[i] && (opens || p.range.isEmpty || p.style.breakBefore != .none || flush) {
                    paragraphs[i].style.firstLineIndent = 0
                }
                opens = p.style.isHeading || p.range.isEmpty
            }
        }

        /// The template's `dropcap.after` gives the first paragraph after a heading of that level
        /// a drop cap, unless the source gave it one (floats, set elsewhere, are looked past). A
        /// paragraph with a drop cap has no first-line indent: the initial is its indent.
        mutating func applyDropCapRule() {
            let spec = builder.template.dropCap
            var after = 0
            for i in paragraphs.indices {
                if case .image(let n) = paragraphs[i].content, images[n].placement != .block { continue }
                let style = paragraphs[i].style
                if spec.after > 0 && after == spec.after && !style.isHeading && style.dropCap == nil,
                    case .text = paragraphs[i].content, !paragraphs[i].range.isEmpty
                {
                    paragraphs[i].style.dropCap = DropCapRequest(lines: spec.lines, face: spec.face, color: spec.color)
                }
                if paragraphs[i].style.dropCap != nil { paragraphs[i].style.firstLineIndent = 0 }
                after = style.headingLevel
            }
        }

        /// The style of every non-empty run, when they share one; nil when they differ or there
        /// are none. (Read in place: building a set for each paragraph cost more than the test.)
        static func onlyStyle(of runs: ArraySlice<StyleRun>) -> Int? {
            var style: Int?
            for run in runs where !run.range.isEmpty {
                if let s = style, s != run.style { return nil }
                style = run.style
            }
            return style
        }

        // MARK: tags

        mutating func startTag(_ tag: MarkupTag) {
            switch tag.name {
            case "img": image(tag)
            case "br": lineBreak(tag)
            case "columnbreak", "pagebreak": flowBreak(tag, tag.name == "pagebreak" ? .page : .column)
            case "meta": metaFields(tag)
            case "pullquote", "aside": blockFloat(tag)
            default:
                open(tag)
                // `<span/>` opens and closes at once; `<font …/>` stays a state change.
                if tag.selfClosing && tag.name != "font" { endTag(tag.name, at: tag.location, quiet: true) }
            }
        }

        /// Opens a container, a block or a `<font>`: saves the state, then changes it.
        mutating func open(_ tag: MarkupTag) {
            let name = stack.nameIndex(tag.name)
            let headings: Set<String> = ["h1", "h2", "h3"]
            if headings.contains(tag.name), let b = stack.lastBlock, headings.contains(stack[b].name) {
                diagnostics.append(
                    .warning(
                        "<\(tag.name)> inside <\(stack[b].name)> (opened at \(stack[b].location)): headings do not nest, "
                            + "so the <\(stack[b].name)> ends here", file: file, at: tag.location, length: tag.name.count + 1))
            }
            // A <p> opened in an open <p> ends it, as in HTML (where its end tag may be left
            // out): the second nested in the first, and everything after the first ran into
            // one paragraph "never closed".
            if tag.name == "p", let b = stack.lastBlock, stack[b].name == "p" { endTag("p", at: tag.location, quiet: true) }
            if stack.kind(name) == .block { blockBoundary(at: tag.location) }
            stack.push(name, location: tag.location, saving: scope)
            switch tag.name {
            case "font", "span":
                if tag.name == "span" { applyClasses(tag, paragraph: false) }
                applyCharacterAttributes(tag)
                // An emoticon from the social scanner: emoji text standing for a `[code]`.
                if tag.attribute("class")?.value == "emoticon" { scope.synthetic = true }
            case "social": break  // detection already ran over the nodes
            case "b": scope.text.weight = 700
            case "i": scope.text.slant = .italic
            case "u": scope.text.underline = Decoration(style: .single, color: scope.text.underline?.color)
            case "s": scope.text.strikethrough = Decoration(style: .single, color: scope.text.strikethrough?.color)
            case "sup", "sub":
                let size = scope.text.size
                scope.text.baselineOffset += (tag.name == "sup" ? 0.35 : -0.15) * size
                scope.text.size = size * 0.65
            case "a": link(tag)
            case "code": code(tag)
            case "p":
                scope.newlinesAreSpaces = true
                scope.explicitParagraph = true
                applyClasses(tag, paragraph: true)
                applyParagraphAttributes(tag)
            case "h1", "h2", "h3": heading(tag, level: Int(tag.name.dropFirst())!)
            case "vertical":
                scope.paragraph.vertical = true
                if let a = tag.attribute("lang"), let l = language(a) { scope.text.language = l }
                if let a = tag.attribute("height"), let h = length(a, what: "height", em: scope.text.size, range: 1...20000) {
                    scope.paragraph.verticalHeight = h
                }
                if let a = tag.attribute("tcy") {
                    let options: [(String, Int)] = [("auto", 2), ("none", 0), ("2", 2), ("3", 3)]
                    if let digits = choice(a, what: "tcy", options) { scope.paragraph.uprightDigits = digits }
                }
            default: break  // the parser only passes tags of the vocabulary
            }
        }

        mutating func heading(_ tag: MarkupTag, level: Int) {
            let h = builder.template.headings[level]
            scope.text.face = h.face
            scope.text.size = h.size
            scope.text.weight = h.weight
            scope.text.color = h.color
            // (The face is the template's: a warning about it is said where the template
            // names it, not at the heading, as if the text had asked for it.)
            scope.paragraph.headingLevel = level
            scope.paragraph.isHeading = true
            scope.paragraph.hyphenate = false
            scope.paragraph.alignment = .left
            scope.paragraph.firstLineIndent = 0
            scope.paragraph.spacingBefore = h.before
            scope.paragraph.spacingAfter = h.after
            scope.paragraph.spansColumns = h.span
            scope.naturalAlignment = false
            scope.newlinesAreSpaces = true
            scope.explicitParagraph = true
            applyClasses(tag, paragraph: true)
            applyParagraphAttributes(tag)
        }

        /// `class="deck"` (or several names): the template's named styles, in order, before the
        /// tag's own attributes, as if the tag gave their attributes itself. A `<span>` takes a
        /// style's character attributes only. Values are checked as the tag's would be, and
        /// reported at the class. An unknown name is a warning: the text is set without it.
        mutating func applyClasses(_ tag: MarkupTag, paragraph: Bool) {
            guard let c = tag.attribute("class") else { return }
            let template = builder.template
            for name in c.value.split(whereSeparator: \.isWhitespace).map(String.init) {
                guard let attributes = template.resolvedStyle(name) else {
                    // The social scanner's emoticons are spans of this class.
                    if name == "emoticon" && tag.name == "span" { continue }
                    var message = "unknown class '\(name)'"
                    if let near = Suggestion.closest(to: name, in: template.styles.map(\.name)) { message += "; did you mean '\(near)'?" }
                    diagnostics.append(.warning(message, file: file, at: c.valueLocation, length: max(1, c.value.unicodeScalars.count)))
                    continue
                }
                let boxOnly = Set(Vocabulary.blockBoxAttributes.map { $0.lowercased() })
                let styled = MarkupTag(
                    name: tag.name,
                    attributes: attributes.filter { !boxOnly.contains($0.name.lowercased()) }.map {
                        MarkupAttribute(name: $0.name, value: $0.value, nameLocation: c.nameLocation, valueLocation: c.valueLocation)
                    }, location: tag.location, selfClosing: false)
                applyCharacterAttributes(styled)
                if paragraph { applyParagraphAttributes(styled) }
            }
        }

        /// `<code>`: text set as typed, in a monospace face: the template's `code` style's, then
        /// any `class` given, over DejaVu Sans Mono. Never hyphenated, and without typographic
        /// punctuation.
        mutating func code(_ tag: MarkupTag) {
            scope.text.face = StoryBuilder.codeFace
            if builder.template.style(named: "code") != nil {
                let implied = MarkupAttribute(name: "class", value: "code", nameLocation: tag.location, valueLocation: tag.location)
                applyClasses(MarkupTag(name: "code", attributes: [implied], location: tag.location, selfClosing: false), paragraph: false)
            }
            applyClasses(tag, paragraph: false)
            if faceRequests[scope.text.face] == nil { faceRequests[scope.text.face] = tag.location }
            scope.text.hyphenate = false
            scope.literal = true
        }

        /// `<a href>`: the link and the template's link style. A link inside a link, or one
        /// without a target, is reported and changes nothing (its `</a>` still matches it).
        mutating func link(_ tag: MarkupTag) {
            if let outer = scope.link {
                diagnostics.append(
                    .warning(
                        "links may not nest: this <a> is inside the <a> opened at \(outer); it is ignored",
                        file: file, at: tag.location, length: 2))
                return
            }
            guard let href = tag.attribute("href") else {
                diagnostics.append(.error("<a> needs an href attribute", file: file, at: tag.location, length: 2))
                return
            }
            let target = href.value.trimmed()
            if target.isEmpty {
                error("empty link href", href)
                return
            }
            if let scheme = Self.scheme(of: target), !Self.linkSchemes.contains(scheme), !(scheme == "file" && builder.allowFileLinks) {
                let how = scheme == "file" ? "; allow them with --allow-file-links" : ""
                diagnostics.append(
                    .warning(
                        "'\(scheme):' links are not written into the PDF (only http, https, mailto, tel and relative ones)\(how)",
                        file: file, at: href.valueLocation, length: max(1, scheme.unicodeScalars.count + 1)))
                return
            }
            let style = builder.template.link
            scope.text.link = target
            scope.text.color = style.color
            if let u = style.underline { scope.text.underline = Decoration(style: u) }
            scope.link = tag.location
            // Social text found by the scanner: the template's style for its kind.
            let social = builder.template.social
            switch tag.attribute("class")?.value {
            case "mention"?: apply(social.mention)
            case "topic"?: apply(social.topic)
            case "url"?:
                apply(social.url)
                scope.literal = true
                // A hyphen added inside an address would read as part of it: it breaks only where
                // its own characters allow (after `/`, `?`, `&` …), as `<code>` does.
                scope.text.hyphenate = false
            default: break
            }
        }

        /// The link schemes written into a PDF: the web, mail and telephone.
        static let linkSchemes: Set<String> = ["http", "https", "mailto", "tel"]

        /// The URI scheme of a link target, lower-cased ("javascript" for "JavaScript:alert(1)");
        /// nil for a relative target ("page.html", "#notes", "../a:b").
        static func scheme(of target: String) -> String? {
            guard let colon = target.firstIndex(of: ":") else { return nil }
            let name = target[..<colon].unicodeScalars
            func letter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
            guard let first = name.first, letter(first),
                name.allSatisfy({ letter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." })
            else { return nil }
            return String(String.UnicodeScalarView(name)).lowercased()
        }

        mutating func apply(_ style: SocialStyleSpec) {
            scope.text.color = style.color
            if style.weight != 400 { scope.text.weight = style.weight }
        }

        mutating func endTag(_ name: String, at loc: SourceLocation, quiet: Bool = false) {
            let nameIndex = stack.nameIndex(name)
            let kind = stack.kind(nameIndex)
            // Inline end tags and </font> do not reach outside the innermost block.
            let barrier = kind == .block ? -1 : (stack.lastBlock ?? -1)
            var target = stack.last(named: nameIndex).flatMap { $0 > barrier ? $0 : nil }
            if target == nil, kind == .inline, let inner = stack.lastContainer, inner > barrier, stack[inner].kind == .inline {
                target = inner  // close what is open
            }
            guard let t = target else {
                let message: String
                if let outer = stack.last(named: nameIndex), barrier >= 0 {
                    let block = stack[barrier]
                    message =
                        "</\(name)> cannot close <\(stack[outer].name)> (opened at \(stack[outer].location)) "
                        + "from inside <\(block.name)> (opened at \(block.location)); it is ignored"
                } else if let ended = endedFont, kind == .font {
                    message =
                        "</\(name)> without a matching <\(name)>: the <font> opened at \(ended.opened) was ended by </\(ended.by)> "
                        + "at \(ended.at); it is ignored"
                    endedFont = nil
                } else {
                    message = "</\(name)> without a matching <\(name)>; it is ignored"
                }
                diagnostics.append(.warning(message, file: file, at: loc))
                return
            }
            // What closes is read from the stack before it is popped: innermost first for the
            // warnings, and a block among them ends the paragraph.
            if !quiet {
                let open = stack[t]
                if open.name != name {
                    diagnostics.append(
                        .warning(
                            "mismatched </\(name)>: it closes <\(open.name)> (opened at \(open.location)); expected </\(open.name)>",
                            file: file, at: loc))
                }
                for j in stride(from: stack.count - 1, to: t, by: -1) where stack[j].kind != .font {
                    let e = stack[j]
                    diagnostics.append(
                        .warning(
                            "</\(name)> also closes <\(e.name)> (opened at \(e.location)); expected </\(e.name)> first",
                            file: file, at: loc))
                }
            }
            if let f = stride(from: stack.count - 1, to: t, by: -1).first(where: { stack[$0].kind == .font }) {
                endedFont = (stack[f].location, name, loc)
            }
            let closesBlock = stack.lastBlock.map { $0 >= t } ?? false
            let saved = stack.pop(from: t)
            if closesBlock { blockBoundary(at: loc) }
            closeIsolates(downTo: saved.isolates.count, at: loc)
            scope = saved
        }

        /// `<meta title section issue>`: the story's fields, for running heads and footers. It adds
        /// no text, and standing alone on its line (at the top of the file) makes no paragraph.
        /// Its attributes are known to the parser, which warns of any other.
        mutating func metaFields(_ tag: MarkupTag) {
            for a in tag.attributes {
                // A field is shown on one line: a value written over several lines is joined.
                meta[a.key] = a.value.split(whereSeparator: \.isNewline).map { $0.trimmed() }.joined(separator: " ").trimmed()
            }
            if paragraphIsEmpty { afterBlock = true }
        }

        /// The text of the first `<h1>`: the title when `<meta>` gives none. Line breaks are
        /// spaces and isolates are dropped, as the title is shown on one line of its own.
        func firstTitle() -> String? {
            guard let h1 = paragraphs.first(where: { $0.style.headingLevel == 1 }) else { return nil }
            let scalars = text.utf8Slice(h1.range).unicodeScalars.compactMap { u -> Character? in
                if u == "\u{2028}" { return " " }
                return (0x2066...0x2069).contains(u.value) ? nil : Character(u)
            }
            let title = String(scalars).trimmed()
            return title.isEmpty ? nil : title
        }

        /// `<br>`: a line separator in the paragraph.
        mutating func lineBreak(_ tag: MarkupTag) {
            flushNewlines(before: "\u{2028}")
            afterBlock = false
            openWantedIsolates(at: tag.location)
            insert("\u{2028}", at: tag.location)
        }

        /// `<columnbreak>`, `<pagebreak>`: ends the paragraph being built; the next one starts in
        /// a new column or on a new page. Several in a row are one break, a page break winning:
        /// the flow leaves no column or page empty, so the others are warned of.
        mutating func flowBreak(_ tag: MarkupTag, _ kind: FlowBreak) {
            blockBoundary(at: tag.location)
            if let earlier = pendingBreakTag {
                let kept = pendingBreak == .page || kind == .column ? earlier.name : tag.name
                diagnostics.append(
                    .warning(
                        "<\(tag.name)> right after <\(earlier.name)> (at \(earlier.location)) makes one break, "
                            + "a <\(kept)>: Galley leaves no column or page empty",
                        file: file, at: tag.location, length: tag.name.utf8.count + 1))
            }
            if pendingBreak != .page {
                pendingBreak = kind
                pendingBreakTag = (tag.name, tag.location)
            }
        }
    }
}

extension String {
    /// The text of UTF-8 byte range `r`.
    func utf8Slice(_ r: Range<Int>) -> Substring {
        let u = utf8
        let a = u.index(u.startIndex, offsetBy: r.lowerBound)
        return self[a..<u.index(a, offsetBy: r.count)]
    }
}

extension Unicode.Scalar {
    /// Han, kana, CJK punctuation and fullwidth forms: text set solid, with no spaces between
    /// words (Hangul is spaced, so not here).
    package var isCJK: Bool {
        switch value {
        case 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default: false
        }
    }
}
