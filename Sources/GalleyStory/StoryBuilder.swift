import Foundation
import GalleyMarkup

/// Turns the parser's flat node sequence into a `Story`, giving tags their meaning
/// (the Core Text tutorial's: `<font>` changes the style of everything after it) and checking
/// attribute values. Diagnostics are collected, never printed.
public struct StoryBuilder {
    /// The template giving the body style and paragraph defaults.
    public var template: Template
    /// Folder `src` paths are relative to (the input file's folder).
    public var baseDirectory: String

    public init(template: Template, baseDirectory: String) {
        self.template = template
        self.baseDirectory = baseDirectory
    }

    /// Builds the story of a parsed document. The diagnostics include the parser's.
    public func build(_ document: MarkupDocument) -> (Story, Diagnostics) {
        var run = Run(builder: self, file: document.source.path)
        run.diagnostics.append(contentsOf: document.diagnostics)
        let nodes = template.paragraphMode == .blankLine ? Self.unwrap(document.nodes) : document.nodes
        for node in nodes {
            run.visit(node)
        }
        return run.finish()
    }

    /// Hard-wrapped text: drops the spaces and tabs that end a source line or indent the next,
    /// so joined lines meet with exactly one space.
    static func unwrap(_ nodes: [MarkupNode]) -> [MarkupNode] {
        var out = nodes
        func blank(_ c: Character) -> Bool { c == " " || c == "\t" }
        for i in out.indices {
            guard case .text(var s, var loc) = out[i] else { continue }
            if i + 1 < out.count, case .newline = out[i + 1] {
                while let last = s.last, blank(last) { s.removeLast() }
            }
            let startsLine: Bool
            if i == 0 {
                startsLine = true
            } else if case .newline = out[i - 1] {
                startsLine = true
            } else {
                startsLine = false
            }
            if startsLine {
                while let first = s.first, blank(first) {
                    s.removeFirst()
                    loc.column += 1
                    loc.offset += 1
                }
            }
            out[i] = .text(s, loc)
        }
        return out.filter {
            if case .text(let s, _) = $0 { return !s.isEmpty }
            return true
        }
    }

    /// The state of one build: the agent that walks the nodes once.
    private struct Run {
        let builder: StoryBuilder
        let file: String
        var diagnostics = Diagnostics()
        var text = ""
        var characters = 0
        var styles: [TextStyle] = []
        var styleIndex: [TextStyle: Int] = [:]
        var runs: [StyleRun] = []
        var paragraphs: [Paragraph] = []
        var images: [ImageReference] = []
        var sourceMap = SourceMap()
        var faceRequests: [String: SourceLocation] = [:]

        /// The style in force, and those saved by open `<font>` tags.
        var current: TextStyle
        var stack: [(TextStyle, SourceLocation)] = []
        /// Where the paragraph being built starts in `text`, and its first run.
        var paragraphStart = 0
        var paragraphFirstRun = 0
        /// Blank-line mode: a newline seen and not yet turned into a space or a break.
        var pendingNewlines = 0
        var pendingNewlineLocation: SourceLocation?
        /// The last thing added was a block object, so a newline right after it ends nothing.
        var afterBlock = false
        let paragraphStyle: ParagraphStyle

        init(builder: StoryBuilder, file: String) {
            self.builder = builder
            self.file = file
            let t = builder.template
            current = TextStyle(face: t.body.face, size: t.body.size, color: t.body.color, language: t.language)
            paragraphStyle = ParagraphStyle(
                alignment: t.alignment, firstLineIndent: t.firstLineIndent,
                spacingAfter: t.paragraphSpacing, leadingRatio: t.body.leading / t.body.size)
        }

        var blankLineMode: Bool { builder.template.paragraphMode == .blankLine }

        mutating func visit(_ node: MarkupNode) {
            switch node {
            case .newline(let loc):
                if afterBlock {
                    afterBlock = false
                    return
                }
                if blankLineMode {
                    pendingNewlines += 1
                    if pendingNewlineLocation == nil { pendingNewlineLocation = loc }
                } else {
                    endParagraph(at: loc)
                }
            case .text(let s, let loc):
                flushNewlines()
                afterBlock = false
                append(s, at: loc)
            case .startTag(let tag):
                switch tag.name {
                case "font": openFont(tag)
                case "img": image(tag)
                default: break  // the parser only passes tags of the vocabulary
                }
            case .endTag(let name, let loc):
                if name == "font" { closeFont(at: loc) }
            }
        }

        // MARK: text

        mutating func append(_ s: String, at loc: SourceLocation) {
            sourceMap.add(storyOffset: text.utf8.count, storyCharacters: characters, source: loc)
            add(s, style: intern(current))
        }

        /// Adds text in a style, merging with the previous run when the style is the same.
        mutating func add(_ s: String, style: Int) {
            let start = text.utf8.count
            text += s
            characters += s.unicodeScalars.count
            let end = text.utf8.count
            if let last = runs.last, last.style == style, last.range.upperBound == start,
                runs.count > paragraphFirstRun
            {
                runs[runs.count - 1].range = last.range.lowerBound..<end
            } else {
                runs.append(StyleRun(range: start..<end, style: style))
            }
        }

        mutating func intern(_ style: TextStyle) -> Int {
            if let i = styleIndex[style] { return i }
            styles.append(style)
            styleIndex[style] = styles.count - 1
            return styles.count - 1
        }

        /// Blank-line mode: one newline is a space, two or more end the paragraph.
        mutating func flushNewlines() {
            guard pendingNewlines > 0, let loc = pendingNewlineLocation else { return }
            if pendingNewlines >= 2 {
                endParagraph(at: loc)
            } else if text.utf8.count > paragraphStart {
                // Join the wrapped lines with exactly one space.
                if !text.hasSuffix(" ") {
                    sourceMap.add(storyOffset: text.utf8.count, storyCharacters: characters, source: loc, linear: false)
                    add(" ", style: intern(current))
                }
            }
            pendingNewlines = 0
            pendingNewlineLocation = nil
        }

        /// Ends the paragraph being built with a newline terminator.
        mutating func endParagraph(at loc: SourceLocation) {
            let end = text.utf8.count
            let range = paragraphStart..<end
            if blankLineMode && range.isEmpty { return }  // several blank lines are one break
            if range.isEmpty {
                // An empty paragraph still has the style in force, which sets its height.
                runs.append(StyleRun(range: end..<end, style: intern(current)))
            }
            paragraphs.append(
                Paragraph(
                    range: range, end: end + 1, content: .text, style: paragraphStyle,
                    runs: paragraphFirstRun..<runs.count))
            sourceMap.add(storyOffset: end, storyCharacters: characters, source: loc, linear: false)
            text += "\n"
            characters += 1
            paragraphStart = text.utf8.count
            paragraphFirstRun = runs.count
        }

        mutating func finish() -> (Story, Diagnostics) {
            if blankLineMode { pendingNewlines = min(pendingNewlines, 1) }
            pendingNewlines = 0
            let end = text.utf8.count
            if end > paragraphStart || paragraphs.isEmpty {
                let range = paragraphStart..<end
                if range.isEmpty { runs.append(StyleRun(range: end..<end, style: intern(current))) }
                paragraphs.append(
                    Paragraph(range: range, end: end, content: .text, style: paragraphStyle,
                        runs: paragraphFirstRun..<runs.count))
            } else if let last = paragraphs.last, last.end == end, text.utf8.last == 0x0A {
                // The source ended with a newline: the last paragraph has no terminator.
                text.removeLast()
                characters -= 1
                paragraphs[paragraphs.count - 1].end = end - 1
            }
            // An unclosed <font> is normal in Core Text files: its style simply runs to the end.
            markHeadings()
            let story = Story(
                text: text, styles: styles, runs: runs, paragraphs: paragraphs, images: images,
                sourceMap: sourceMap, faceRequests: faceRequests)
            return (story, diagnostics)
        }

        /// Core Text files make headings with `<font>` tags: a short paragraph set entirely in
        /// one style larger than the body is taken for one. Headings keep with what follows, are
        /// not hyphenated, and are set ragged rather than justified.
        mutating func markHeadings() {
            let body = builder.template.body.size
            for i in paragraphs.indices {
                let p = paragraphs[i]
                guard case .text = p.content, !p.range.isEmpty, i + 1 < paragraphs.count else { continue }
                let styleIDs = Set(runs[p.runs].filter { !$0.range.isEmpty }.map(\.style))
                guard styleIDs.count == 1, let id = styleIDs.first, styles[id].size >= body * 1.15 else { continue }
                let characters = text.utf8Slice(p.range).unicodeScalars.count
                guard characters <= 160 else { continue }
                paragraphs[i].style.isHeading = true
                paragraphs[i].style.hyphenate = false
                if paragraphs[i].style.alignment == .justify { paragraphs[i].style.alignment = .left }
            }
        }

        // MARK: tags

        mutating func openFont(_ tag: MarkupTag) {
            stack.append((current, tag.location))
            var style = current
            var strokeColorGiven = false
            var strokeWidthGiven = false
            for a in tag.attributes {
                switch a.key {
                case "color":
                    if let c = color(a) { style.color = c }
                case "face":
                    let face = a.value.trimmingCharacters(in: .whitespaces)
                    if face.isEmpty {
                        error("empty face name", a)
                    } else {
                        style.face = face
                        if faceRequests[face] == nil { faceRequests[face] = a.valueLocation }
                    }
                case "size":
                    if let v = number(a, what: "size", positive: true, maximum: 2000) { style.size = v }
                case "strokecolor":
                    let v = a.value.trimmingCharacters(in: .whitespaces)
                    if v.lowercased() == "none" {
                        style.strokeColor = nil
                        style.strokeWidth = 0
                        strokeWidthGiven = true
                    } else if let c = color(a) {
                        style.strokeColor = c
                        strokeColorGiven = true
                    }
                case "strokewidth":
                    if let v = number(a, what: "strokeWidth", positive: false, maximum: 100) {
                        style.strokeWidth = v
                        strokeWidthGiven = true
                    }
                default: break
                }
            }
            // Core Text: a stroke colour alone gives fill and stroke at -3 % of the size.
            if strokeColorGiven && !strokeWidthGiven && style.strokeWidth == 0 { style.strokeWidth = -3 }
            current = style
        }

        mutating func closeFont(at loc: SourceLocation) {
            guard let (saved, _) = stack.popLast() else {
                diagnostics.append(.warning("</font> without a matching <font>; it is ignored", file: file, at: loc))
                return
            }
            current = saved
        }

        mutating func image(_ tag: MarkupTag) {
            guard let src = tag.attribute("src") else {
                diagnostics.append(.error("<img> needs a src attribute", file: file, at: tag.location, length: 4))
                return
            }
            let width = tag.attribute("width").flatMap { number($0, what: "width", positive: true, maximum: 100_000) }
            let height = tag.attribute("height").flatMap { number($0, what: "height", positive: true, maximum: 100_000) }
            let value = src.value.trimmingCharacters(in: .whitespaces)
            if value.isEmpty {
                error("empty image src", src)
                return
            }
            let path = value.hasPrefix("/") ? value : (builder.baseDirectory as NSString).appendingPathComponent(value)
            let info: ImageInfo
            switch ImageInfo.read(path: path) {
            case .success(let i): info = i
            case .failure(let e):
                error("cannot use image '\(value)': \(e.message)", src)
                return
            }
            images.append(
                ImageReference(source: value, path: path, info: info, width: width, height: height, location: tag.location))
            // A block image is a paragraph of its own: end the text before it. A newline
            // pending before it (blank-line mode) ends that text; it is not a space.
            pendingNewlines = 0
            pendingNewlineLocation = nil
            if text.utf8.count > paragraphStart { endParagraph(at: tag.location) }
            let start = text.utf8.count
            sourceMap.add(storyOffset: start, storyCharacters: characters, source: tag.location, linear: false)
            add("\u{FFFC}", style: intern(current))
            let end = text.utf8.count
            paragraphs.append(
                Paragraph(range: start..<end, end: end + 1, content: .image(images.count - 1), style: paragraphStyle,
                    runs: paragraphFirstRun..<runs.count))
            text += "\n"
            characters += 1
            paragraphStart = text.utf8.count
            paragraphFirstRun = runs.count
            afterBlock = true
        }

        // MARK: values

        mutating func error(_ message: String, _ a: MarkupAttribute) {
            diagnostics.append(.error(message, file: file, at: a.valueLocation, length: max(1, a.value.unicodeScalars.count)))
        }

        mutating func color(_ a: MarkupAttribute) -> RGBA? {
            switch ColorParser.parse(a.value) {
            case .success(let c): return c
            case .failure(let e):
                error(e.message, a)
                return nil
            }
        }

        mutating func number(_ a: MarkupAttribute, what: String, positive: Bool, maximum: Double) -> Double? {
            let raw = a.value.trimmingCharacters(in: .whitespaces)
            let v: Double?
            if case .success(let p) = LengthParser.points(raw) { v = p } else { v = nil }
            guard let v, v.isFinite else {
                error("\(what) must be a number of points, got '\(a.value)'", a)
                return nil
            }
            if positive && v <= 0 {
                error("\(what) must be greater than 0, got '\(a.value)'", a)
                return nil
            }
            if abs(v) > maximum {
                error("\(what) '\(a.value)' is out of range (at most \(Int(maximum)))", a)
                return nil
            }
            return v
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
