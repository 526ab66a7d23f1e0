import FoundationEssentials
import GalleyMarkup
import GalleySupport
import Glibc

/// Where the values being decoded came from: a template file, or one `--set KEY=VALUE` option.
/// Decides how diagnostics read and where they point.
enum TemplateOrigin: Sendable {
    /// A JSON file (or text named as one): messages say `key 'body.size': …` and are located.
    case file(String)
    /// One override, written `text` (`body.size=big`); `file` is what diagnostics name (`--set`).
    /// Messages say `--set body.size=big: …` and carry no location.
    case override(text: String, file: String)
}

/// A place to point a diagnostic at: the origin plus, for files, the location of the value.
struct TemplateSpot: Sendable {
    var origin: TemplateOrigin
    var location: SourceLocation?
    var length: Int = 1
    /// Which override set the value (0 for files): checks across keys blame the latest.
    var sequence = 0

    init(_ origin: TemplateOrigin, _ value: JSONValue, sequence: Int = 0) {
        self.origin = origin
        location = value.start
        length = value.length
        self.sequence = sequence
    }

    init(_ origin: TemplateOrigin, key member: JSONMember) {
        self.origin = origin
        location = member.keyStart
        length = member.keyLength
    }

    /// A diagnostic about the value here. `key` prefixes file messages (`key 'columns': `);
    /// overrides always start with their own text instead.
    func error(_ problem: String, key: String?) -> Diagnostic {
        switch origin {
        case .file(let file):
            let prefix = key.map { "key '\($0)': " } ?? ""
            return .error(prefix + problem, file: file, at: location, length: length)
        case .override(let text, let file):
            return .error("--set \(text): \(problem)", file: file)
        }
    }
}

/// The keys of the template JSON schema, in the order files and `encode` write them.
enum TemplateSchema {
    static let topKeys = [
        "name", "description", "extends", "page", "margins", "columns", "gutter", "body",
        "paragraphSpacing", "firstLineIndent", "firstLineIndentRule", "alignment", "paragraphs", "language", "fallback", "fonts", "footer",
        "header", "lineBreaking", "hyphenation", "widows", "orphans", "keepWithNext", "baselineGrid", "balance", "blockImages",
        "dropcap", "headings", "styles", "link", "caption", "wrapMinWidth", "social", "cjkAutoSpacing", "typography",
        "cjk", "maxImagePixels", "startPage", "print",
    ]

    /// The keys of the footer and of the header.
    static let runningLineKeys = ["enabled", "text", "left", "right", "face", "size", "color"]

    /// The keys of one heading level (`headings.h1` …).
    static let headingKeys = ["face", "size", "weight", "color", "before", "after", "span"]

    /// The kinds of social text with a style (`social.mention` …), in order.
    static let socialKinds = ["mention", "topic", "url"]

    /// The keys of one social style: `url` (the link pattern) for mentions and topics only,
    /// since URLs link to themselves.
    static func socialStyleKeys(_ kind: String) -> [String] {
        kind == "url" ? ["color", "weight"] : ["color", "weight", "url"]
    }

    /// Keys whose value is an object, with the keys that object may hold.
    static let objectKeys: [String: [String]] = [
        "page": ["size", "orientation", "width", "height", "color"],
        "margins": ["top", "right", "bottom", "left", "inner", "outer"],
        "body": ["face", "size", "leading", "color"],
        "footer": runningLineKeys,
        "header": runningLineKeys,
        "hyphenation": [
            "enabled", "minWord", "leftMin", "rightMin", "capitals", "maxConsecutive", "acrossColumns", "narrowMeasure",
            "narrowMinWord", "narrowMaxConsecutive",
        ],
        "headings": HeadingsSpec.levels,
        "headings.h1": headingKeys,
        "headings.h2": headingKeys,
        "headings.h3": headingKeys,
        "dropcap": ["lines", "face", "color", "after"],
        "link": ["color", "underline"],
        "caption": ["face", "size", "color", "italic", "gap"],
        "social": ["enabled"] + socialKinds + ["emoticons"],
        "social.mention": socialStyleKeys("mention"),
        "social.topic": socialStyleKeys("topic"),
        "social.url": socialStyleKeys("url"),
        "typography": ["smartQuotes", "dashes", "cjkQuotes"],
        "cjk": ["punctuation", "hanging"],
        "print": ["bleed", "slug", "marks"],
    ]

    /// Every valid dotted key (`body.size`, `headings.h2.size`), for suggestions on `--set`.
    static let allPaths: [String] = topKeys.flatMap { paths(under: $0) }

    /// `path` and every dotted key inside it.
    private static func paths(under path: String) -> [String] {
        [path] + (objectKeys[path] ?? []).flatMap { paths(under: "\(path).\($0)") }
    }

    /// `unknown key 'x'; did you mean 'y'?`, suggesting among `candidates`; `prefix` is the
    /// dotted path of the enclosing object, if any.
    static func unknownKey(_ key: String, prefix: String?, candidates: [String]) -> String {
        let full = prefix.map { "\($0).\(key)" } ?? key
        var message = "unknown key '\(full)'"
        if let near = Suggestion.closest(to: key, in: candidates) {
            message += "; did you mean '\(prefix.map { "\($0).\(near)" } ?? near)'?"
        }
        return message
    }
}

/// Applies one layer of template JSON (a file's object, or one `--set`) on top of a base template,
/// checking every value as it goes, and remembering where each key was given so that checks
/// spanning several keys can point at the right one.
struct TemplateDecoder {
    let origin: TemplateOrigin
    /// Stamped on every spot this layer records (the override's number for `--set`).
    let sequence: Int
    var template: Template
    /// Dotted key → where this layer gave it. Objects are recorded as well as their members.
    var given: [String: TemplateSpot] = [:]
    /// Where the files a template file names may lie (none: not checked).
    var roots: [FileRoot] = []
    /// Whether a style's `basedOn` must name a style of `template`: not when `template` stands
    /// in for a template file not read yet (an issue manifest's `set`, checked early).
    var checksStyleBases = true

    init(origin: TemplateOrigin, base: Template, sequence: Int = 0) {
        self.origin = origin
        self.template = base
        self.sequence = sequence
    }

    /// Remembers where `path` was given.
    private mutating func record(_ path: String, _ v: JSONValue) {
        given[path] = TemplateSpot(origin, v, sequence: sequence)
    }

    /// The members of the object at `path` (a key of `TemplateSchema.objectKeys`), each with its
    /// dotted path and recorded as given, once `v` is checked to be an object of those keys.
    /// `expected` replaces the message listing them ("expected an object with a, b and c").
    private mutating func objectMembers(
        _ v: JSONValue, at path: String, expected: String? = nil
    ) throws(Diagnostic) -> [(path: String, member: JSONMember)] {
        let keys = TemplateSchema.objectKeys[path]!
        guard case .object = v.kind else {
            throw typeError(
                path, expected ?? "expected an object with " + keys.dropLast().joined(separator: ", ") + " and " + keys.last!, v)
        }
        var out: [(path: String, member: JSONMember)] = []
        for m in try members(of: v, path: path, allowed: keys) {
            let memberPath = "\(path).\(m.key)"
            record(memberPath, m.value)
            out.append((memberPath, m))
        }
        return out
    }

    // MARK: - Objects and keys

    /// Checks an object's keys (duplicates, unknown keys) and returns its members.
    /// `path` is the object's dotted key, nil for the top level.
    func members(of value: JSONValue, path: String?, allowed: [String]) throws(Diagnostic) -> [JSONMember] {
        guard case .object(let members) = value.kind else { preconditionFailure("members(of:) needs an object") }
        var seen: [String: JSONMember] = [:]
        for m in members {
            if let first = seen[m.key] {
                let full = path.map { "\($0).\(m.key)" } ?? m.key
                throw TemplateSpot(origin, key: m).error(
                    "duplicate key '\(full)' (first given at \(first.keyStart))", key: nil)
            }
            seen[m.key] = m
            if !allowed.contains(m.key) {
                throw TemplateSpot(origin, key: m).error(
                    TemplateSchema.unknownKey(m.key, prefix: path, candidates: allowed), key: nil)
            }
        }
        return members
    }

    /// Applies a top-level object (already checked by `members(of:)`). `extends` is skipped:
    /// the loader resolves it before choosing the base.
    mutating func apply(_ members: [JSONMember]) throws(Diagnostic) {
        for m in members {
            let v = m.value
            let key = m.key
            switch key {
            case "extends": continue
            case "name": template.name = try line(key, v, allowEmpty: false)
            case "description": template.summary = try line(key, v, allowEmpty: false)
            case "page": try page(v)
            case "margins": try margins(v)
            case "columns": template.columns = try whole(key, v, 1...12)
            case "gutter": template.gutter = try length(key, v, atLeastZero: true)
            case "body": try body(v)
            case "paragraphSpacing": template.paragraphSpacing = try length(key, v, atLeastZero: true)
            case "firstLineIndent": template.firstLineIndent = try length(key, v, atLeastZero: true)
            case "firstLineIndentRule":
                template.firstLineIndentRule = IndentRule(
                    rawValue: try choice(key, v, what: "indent rule", IndentRule.allCases.map(\.rawValue)))!
            case "alignment":
                template.alignment = Alignment(rawValue: try choice(key, v, what: "alignment", Alignment.allCases.map(\.rawValue)))!
            case "paragraphs":
                template.paragraphMode = ParagraphMode(
                    rawValue: try choice(key, v, what: "paragraph mode", ParagraphMode.allCases.map(\.rawValue)))!
            case "language": template.language = try language(v)
            case "fallback": try fallback(v)
            case "fonts": template.fontFolders = try folders("fonts", v, what: "font folders")
            case "footer": template.footer = try runningLine(key, v, base: template.footer)
            case "header": template.header = try runningLine(key, v, base: template.header)
            case "lineBreaking":
                template.lineBreaking = LineBreaking(
                    rawValue: try choice(key, v, what: "line-breaking strategy", LineBreaking.allCases.map(\.rawValue)))!
            case "hyphenation": try hyphenation(v)
            case "widows": template.widows = try whole(key, v, 1...10)
            case "orphans": template.orphans = try whole(key, v, 1...10)
            case "keepWithNext": template.keepWithNext = try whole(key, v, 0...10)
            case "baselineGrid": template.baselineGrid = try flag(key, v)
            case "balance": template.balance = try flag(key, v)
            case "blockImages":
                template.blockImages = BlockImagePolicy(
                    rawValue: try choice(key, v, what: "block image policy", BlockImagePolicy.allCases.map(\.rawValue)))!
            case "dropcap": try dropCap(v)
            case "headings": try headings(v)
            case "styles": try styles(v)
            case "link": try link(v)
            case "caption": try caption(v)
            case "wrapMinWidth": template.wrapMinWidth = try length(key, v, atLeastZero: false)
            case "social": try social(v)
            case "cjkAutoSpacing": template.cjkAutoSpacing = try flag(key, v)
            case "typography": try typography(v)
            case "cjk": try cjk(v)
            case "maxImagePixels": template.maxImagePixels = try whole(key, v, 1...Template.largestImagePixels)
            case "startPage": template.startPage = try whole(key, v, 0...99_999)
            case "print": try print(v)
            default: preconditionFailure("unchecked key \(key)")
            }
            record(key, v)
        }
    }

    private mutating func page(_ v: JSONValue) throws(Diagnostic) {
        var size: PageSize?
        var orientation: String?
        var width: Double?, height: Double?
        var sizeMember: JSONMember?
        let expected = "expected an object with size and orientation, or width and height"
        for (path, m) in try objectMembers(v, at: "page", expected: expected) {
            switch m.key {
            case "size":
                let name = try choice(
                    path, m.value, what: "page size", PageSize.allCases.map(\.rawValue),
                    shown: "A0 to A10, B0 to B10, letter, legal, tabloid or ledger")
                size = PageSize(named: name)
                sizeMember = m
            case "orientation": orientation = try choice(path, m.value, what: "orientation", ["portrait", "landscape"])
            case "width": width = try length(path, m.value, atLeastZero: false)
            case "color": template.pageColor = try paper(path, m.value)
            default: height = try length(path, m.value, atLeastZero: false)
            }
        }
        if sizeMember != nil, width != nil || height != nil {
            let path = width != nil ? "page.width" : "page.height"
            throw given[path]!.error("give either 'page.size' or 'page.width' and 'page.height', not both", key: path)
        }
        var w = template.pageWidth, h = template.pageHeight
        if let size {
            // A size keeps the orientation the page has (set before, by `extends` or another
            // `--set`), unless this object gives one: the result does not hang on their order.
            let landscape = template.pageWidth > template.pageHeight
            (w, h) = size.points
            if landscape { (w, h) = (max(w, h), min(w, h)) }
        }
        if let width { w = width }
        if let height { h = height }
        switch orientation {
        case "portrait": (w, h) = (min(w, h), max(w, h))
        case "landscape": (w, h) = (max(w, h), min(w, h))
        default: break
        }
        template.pageWidth = w
        template.pageHeight = h
    }

    private mutating func margins(_ v: JSONValue) throws(Diagnostic) {
        switch v.kind {
        case .number, .string:
            template.margins = EdgeInsets(all: try length("margins", v, atLeastZero: true))
        case .object:
            let members = try objectMembers(v, at: "margins")
            try checkMarginSides(members.map(\.member.key))
            for (path, m) in members {
                let x = try length(path, m.value, atLeastZero: true)
                // Inner and outer are kept where a right-hand page has them; the kind of side
                // given says whether the margins are mirrored (one object gives only one kind).
                switch m.key {
                case "top": template.margins.top = x
                case "bottom": template.margins.bottom = x
                case "left", "inner":
                    template.margins.left = x
                    template.margins.mirrored = m.key == "inner"
                default:
                    template.margins.right = x
                    template.margins.mirrored = m.key == "outer"
                }
            }
        default:
            throw typeError("margins", "expected a length, or an object with top, right, bottom and left (or inner and outer)", v)
        }
    }

    /// Left and right margins are fixed, inner and outer mirrored: one object cannot say both.
    private func checkMarginSides(_ keys: [String]) throws(Diagnostic) {
        guard let fixed = keys.first(where: { $0 == "left" || $0 == "right" }),
            let mirrored = keys.first(where: { $0 == "inner" || $0 == "outer" })
        else { return }
        let later = keys.firstIndex(of: fixed)! > keys.firstIndex(of: mirrored)! ? fixed : mirrored
        throw given["margins.\(later)"]!.error(
            "give either 'margins.left' and 'margins.right' or 'margins.inner' and 'margins.outer', not both",
            key: "margins.\(later)")
    }

    private mutating func body(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "body") {
            switch m.key {
            case "face": template.body.face = try line(path, m.value, allowEmpty: false)
            case "size": template.body.size = try length(path, m.value, atLeastZero: false)
            case "leading": template.body.leading = try length(path, m.value, atLeastZero: false)
            default: template.body.color = try color(path, m.value)
            }
        }
    }

    /// `footer` or `header` (by `key`) on top of `base`.
    private mutating func runningLine(_ key: String, _ v: JSONValue, base: RunningLineSpec) throws(Diagnostic) -> RunningLineSpec {
        var spec = base
        for (path, m) in try objectMembers(v, at: key) {
            switch m.key {
            case "enabled": spec.enabled = try flag(path, m.value)
            case "text": spec.text = try runningText(path, m.value)
            case "left": spec.left = try sideText(path, m.value)
            case "right": spec.right = try sideText(path, m.value)
            case "face": spec.face = try line(path, m.value, allowEmpty: false)
            case "size": spec.size = try length(path, m.value, atLeastZero: false)
            default: spec.color = try color(path, m.value)
            }
        }
        return spec
    }

    /// A facing-page text; `null` takes it away, so that the side uses `text` again.
    private func sideText(_ path: String, _ v: JSONValue) throws(Diagnostic) -> String? {
        if case .null = v.kind { return nil }
        return try runningText(path, v)
    }

    private mutating func hyphenation(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "hyphenation") {
            switch m.key {
            case "enabled": template.hyphenation.enabled = try flag(path, m.value)
            case "minWord": template.hyphenation.minWord = try whole(path, m.value, 2...50)
            case "leftMin": template.hyphenation.leftMin = try whole(path, m.value, 1...10)
            case "rightMin": template.hyphenation.rightMin = try whole(path, m.value, 1...10)
            case "capitals": template.hyphenation.capitals = try flag(path, m.value)
            case "maxConsecutive": template.hyphenation.maxConsecutive = try whole(path, m.value, 1...10)
            case "narrowMeasure": template.hyphenation.narrowMeasure = try whole(path, m.value, 0...200)
            case "narrowMinWord": template.hyphenation.narrowMinWord = try whole(path, m.value, 2...50)
            case "narrowMaxConsecutive": template.hyphenation.narrowMaxConsecutive = try whole(path, m.value, 1...10)
            default: template.hyphenation.acrossColumns = try flag(path, m.value)
            }
        }
    }

    private mutating func headings(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "headings") {
            let level = HeadingsSpec.levels.firstIndex(of: m.key)! + 1
            var spec = template.headings[level]
            for (keyPath, k) in try objectMembers(m.value, at: path) {
                switch k.key {
                case "face": spec.face = try line(keyPath, k.value, allowEmpty: false)
                case "size": spec.size = try length(keyPath, k.value, atLeastZero: false)
                case "weight": spec.weight = try weight(keyPath, k.value)
                case "color": spec.color = try color(keyPath, k.value)
                case "before": spec.before = try length(keyPath, k.value, atLeastZero: true)
                case "span": spec.span = try choice(keyPath, k.value, what: "span", ["all", "none"]) == "all"
                default: spec.after = try length(keyPath, k.value, atLeastZero: true)
                }
            }
            template.headings[level] = spec
        }
    }

    /// `styles`: an object of named styles, each an object of attributes (any case) with string,
    /// number or boolean values, and `basedOn`. A style given again is merged into the base's.
    /// Every `basedOn` of this layer must name a style, and no chain may return to its start.
    private mutating func styles(_ v: JSONValue) throws(Diagnostic) {
        guard case .object(let given) = v.kind else { throw typeError("styles", "expected an object of named styles", v) }
        var bases: [(name: String, value: JSONValue)] = []
        var seen: Set<String> = []
        for m in given {
            let path = "styles.\(m.key)"
            if !seen.insert(m.key).inserted { throw TemplateSpot(origin, key: m).error("duplicate key '\(path)'", key: nil) }
            if m.key.isEmpty || m.key.contains(where: { $0.isWhitespace || $0 == "." }) {
                throw TemplateSpot(origin, key: m).error("a style's name is one word without dots, got '\(m.key)'", key: nil)
            }
            guard case .object(let members) = m.value.kind else { throw typeError(path, "expected an object of attributes", m.value) }
            var style = template.style(named: m.key) ?? NamedStyle(name: m.key)
            for a in members {
                guard let key = NamedStyle.keys.first(where: { $0.lowercased() == a.key.lowercased() }) else {
                    throw TemplateSpot(origin, key: a).error(
                        TemplateSchema.unknownKey(a.key, prefix: path, candidates: NamedStyle.keys), key: nil)
                }
                if key == "basedOn" {
                    style.basedOn = try line("\(path).basedOn", a.value, allowEmpty: false)
                    bases.append((m.key, a.value))
                    continue
                }
                style.set(key, try styleValue("\(path).\(a.key)", a.value))
            }
            record(path, m.value)
            template.setStyle(style)
        }
        if checksStyleBases { for (name, value) in bases { try checkBase(of: name, value) } }
    }

    /// A style attribute's value as a tag would give it: a string, a number as written, or a
    /// boolean as 1 or 0 (`hyphenate`).
    private func styleValue(_ path: String, _ v: JSONValue) throws(Diagnostic) -> String {
        switch v.kind {
        case .string(let s): return s
        case .number(_, let text): return text
        case .bool(let b): return b ? "1" : "0"
        default: throw typeError(path, "expected a string, a number or true or false", v)
        }
    }

    /// Style `name`'s `basedOn` names a style, and its chain does not come back to it.
    private func checkBase(of name: String, _ value: JSONValue) throws(Diagnostic) {
        let path = "styles.\(name).basedOn"
        var chain = [name]
        var next = template.style(named: name)?.basedOn
        while let base = next {
            guard let style = template.style(named: base) else {
                var message = "unknown style '\(base)'"
                if let near = Suggestion.closest(to: base, in: template.styles.map(\.name)) { message += "; did you mean '\(near)'?" }
                throw TemplateSpot(origin, value).error(message, key: path)
            }
            chain.append(base)
            if base == name || chain.count > template.styles.count + 1 {
                throw TemplateSpot(origin, value).error("basedOn makes a cycle: " + chain.joined(separator: " → "), key: path)
            }
            next = style.basedOn
        }
    }

    private mutating func dropCap(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "dropcap") {
            switch m.key {
            case "lines": template.dropCap.lines = try whole(path, m.value, DropCapSpec.lineRange)
            case "face": template.dropCap.face = try line(path, m.value, allowEmpty: false)
            case "color": template.dropCap.color = try color(path, m.value)
            default:
                let level = try choice(path, m.value, what: "heading level", Array(DropCapSpec.afterNames.dropFirst()) + ["none"])
                template.dropCap.after = DropCapSpec.afterNames.firstIndex(of: level)!
            }
        }
    }

    private mutating func link(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "link") {
            switch m.key {
            case "color": template.link.color = try color(path, m.value)
            default:
                let styles = LineStyle.allCases.map(\.rawValue) + ["none"]
                template.link.underline = LineStyle(rawValue: try choice(path, m.value, what: "underline style", styles))
            }
        }
    }

    private mutating func caption(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "caption") {
            switch m.key {
            case "face": template.caption.face = try line(path, m.value, allowEmpty: false)
            case "size": template.caption.size = try length(path, m.value, atLeastZero: false)
            case "color": template.caption.color = try color(path, m.value)
            case "italic": template.caption.italic = try flag(path, m.value)
            default: template.caption.gap = try length(path, m.value, atLeastZero: true)
            }
        }
    }

    private mutating func typography(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "typography") {
            switch m.key {
            case "smartQuotes": template.typography.smartQuotes = try flag(path, m.value)
            case "dashes": template.typography.dashes = try flag(path, m.value)
            default:
                template.typography.cjkQuotes = CJKQuotes(
                    rawValue: try choice(path, m.value, what: "CJK quote style", CJKQuotes.allCases.map(\.rawValue)))!
            }
        }
    }

    private mutating func cjk(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "cjk") {
            switch m.key {
            case "hanging": template.cjk.hanging = try flag(path, m.value)
            default:
                template.cjk.punctuation = CJKPunctuationWidth(
                    rawValue: try choice(
                        path, m.value, what: "CJK punctuation width", CJKPunctuationWidth.allCases.map(\.rawValue)))!
            }
        }
    }

    /// `print`: bleed up to 20 mm, slug up to 50 mm (wide enough for its marks: `validate`),
    /// marks by name.
    private mutating func print(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "print") {
            switch m.key {
            case "bleed":
                let bleed = try length(path, m.value, atLeastZero: true)
                if bleed > PrintSpec.largestBleed {
                    throw typeError(path, "expected a bleed of at most 20 mm", m.value)
                }
                template.print.bleed = bleed
            case "slug":
                let slug = try length(path, m.value, atLeastZero: true)
                if slug > PrintSpec.widestSlug {
                    throw typeError(path, "expected a slug of at most 50 mm", m.value)
                }
                template.print.slug = slug
            default: template.print.marks = try marks(path, m.value)
            }
        }
    }

    /// `print.marks`: a list of mark names (a comma-separated string in `--set`), kept in
    /// `PrintMark` order; `[]` is no marks.
    private func marks(_ path: String, _ v: JSONValue) throws(Diagnostic) -> [PrintMark] {
        let names: [(String, JSONValue)]
        switch v.kind {
        case .array(let elements):
            names = try elements.enumerated().map { (i, e) throws(Diagnostic) in (try line("\(path)[\(i)]", e, allowEmpty: false), e) }
        case .string(let s) where isOverride:
            names = try commaList(path, s, v).map { ($0, v) }
        default:
            throw typeError(path, "expected a list of marks (crop, registration, slug)", v)
        }
        var marks: Set<PrintMark> = []
        for (name, e) in names {
            guard let mark = PrintMark(rawValue: name.lowercased()) else {
                var message = "unknown mark '\(name)'"
                if let near = Suggestion.closest(to: name.lowercased(), in: PrintMark.allCases.map(\.rawValue)) {
                    message += "; did you mean '\(near)'?"
                }
                throw TemplateSpot(origin, e).error(message + " (use crop, registration or slug)", key: path)
            }
            marks.insert(mark)
        }
        return PrintMark.allCases.filter(marks.contains)
    }

    private mutating func social(_ v: JSONValue) throws(Diagnostic) {
        for (path, m) in try objectMembers(v, at: "social") {
            switch m.key {
            case "enabled": template.social.enabled = try flag(path, m.value)
            case "mention": template.social.mention = try socialStyle(m.key, m.value, base: template.social.mention)
            case "topic": template.social.topic = try socialStyle(m.key, m.value, base: template.social.topic)
            case "url": template.social.url = try socialStyle(m.key, m.value, base: template.social.url)
            default: template.social.emoticons = try folders("social.emoticons", m.value, what: "emoticon pack folders")
            }
        }
    }

    /// `social.mention`, `social.topic` or `social.url` (by `kind`) on top of `base`.
    private mutating func socialStyle(_ kind: String, _ v: JSONValue, base: SocialStyleSpec) throws(Diagnostic) -> SocialStyleSpec {
        var spec = base
        for (keyPath, k) in try objectMembers(v, at: "social.\(kind)") {
            switch k.key {
            case "color": spec.color = try color(keyPath, k.value)
            case "weight": spec.weight = try weight(keyPath, k.value)
            default: spec.url = try linkPattern(keyPath, k.value, placeholder: kind == "mention" ? "{name}" : "{topic}")
            }
        }
        return spec
    }

    // MARK: - Values

    /// A font weight: a whole number from 100 to 900, or "bold" (700) or "normal" (400).
    private func weight(_ path: String, _ v: JSONValue) throws(Diagnostic) -> Int {
        let expected = "expected a weight from 100 to 900, \"bold\" or \"normal\""
        switch v.kind {
        case .number(let d, _) where d == d.rounded() && d >= 100 && d <= 900: return Int(d)
        case .string(let s) where s.lowercased() == "bold": return 700
        case .string(let s) where s.lowercased() == "normal": return 400
        default: throw typeError(path, expected, v)
        }
    }

    /// `expected …, got …` for files; just `expected …` for overrides, whose text shows the value.
    func typeError(_ path: String, _ expected: String, _ v: JSONValue) -> Diagnostic {
        let spot = TemplateSpot(origin, v)
        if case .file = origin { return spot.error("\(expected), got \(v.described)", key: path) }
        return spot.error(expected, key: path)
    }

    /// A one-line string.
    private func line(_ path: String, _ v: JSONValue, allowEmpty: Bool) throws(Diagnostic) -> String {
        guard case .string(let s) = v.kind else { throw typeError(path, "expected a string", v) }
        if !allowEmpty, s.allSatisfy(\.isWhitespace) { throw typeError(path, "expected a non-empty string", v) }
        try oneLine(path, s, v)
        return s
    }

    /// Refuses `s`, given as `v`, if it holds a line break or another control character. Every
    /// string the template keeps goes through here, whether from a file or an override, so that
    /// what `encode` writes reads back the same.
    private func oneLine(_ path: String, _ s: some StringProtocol, _ v: JSONValue) throws(Diagnostic) {
        if s.contains(where: \.isNewline) { throw typeError(path, "expected a single line of text", v) }
        if let c = s.unicodeScalars.first(where: Self.isControl) {
            throw TemplateSpot(origin, v).error("text cannot hold control characters (such as \\u\(Self.hex(c)))", key: path)
        }
    }

    /// C0 and C1 control characters and DEL, but the tab: nothing a title or a running line can
    /// show (a NUL ends the string where C reads it).
    static func isControl(_ c: Unicode.Scalar) -> Bool { (c.value < 0x20 && c != "\t") || (0x7F...0x9F).contains(c.value) }

    /// `c` as four hexadecimal digits, as JSON writes it escaped.
    static func hex(_ c: Unicode.Scalar) -> String {
        let digits = String(c.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The largest length a template may give anything: PDF's largest page side. Sizes and gaps
    /// stay far from where layout's arithmetic would overflow a font size or a pixel count.
    static let largestLength = 14400.0

    /// A length in points: a number, or a string with a unit. Must be > 0, or ≥ 0 when
    /// `atLeastZero`, and at most `largestLength`.
    private func length(_ path: String, _ v: JSONValue, atLeastZero: Bool) throws(Diagnostic) -> Double {
        let x: Double
        switch v.kind {
        case .number(let d, _): x = d
        case .string(let s):
            switch LengthParser.points(s) {
            case .success(let d): x = d
            case .failure(let e):
                if LengthParser.looksNumeric(s) { throw TemplateSpot(origin, v).error(e.message, key: path) }
                throw typeError(path, "expected a number or length", v)
            }
        default: throw typeError(path, "expected a number or length", v)
        }
        if atLeastZero ? x < 0 : x <= 0 {
            throw typeError(path, atLeastZero ? "expected a length of 0 or more" : "expected a length greater than 0", v)
        }
        if x > Self.largestLength {
            throw typeError(path, "expected a length of at most 14400 pt (200 in, the largest page PDF readers open)", v)
        }
        return x
    }

    /// A whole number in `range` (`2.0` and `1.2e1` count as whole).
    private func whole(_ path: String, _ v: JSONValue, _ range: ClosedRange<Int>) throws(Diagnostic) -> Int {
        guard case .number(let d, _) = v.kind, d == d.rounded(), d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw typeError(path, "expected a whole number from \(range.lowerBound) to \(range.upperBound)", v)
        }
        return Int(d)
    }

    /// A JSON boolean; strings such as "true" or "yes" and numbers are refused.
    private func flag(_ path: String, _ v: JSONValue) throws(Diagnostic) -> Bool {
        guard case .bool(let b) = v.kind else { throw typeError(path, "expected true or false", v) }
        return b
    }

    /// One of `options`, ignoring case; returns the option as listed.
    /// One of `options`, ignoring case. `shown` lists them in messages, when they are too many
    /// to list one by one.
    private func choice(
        _ path: String, _ v: JSONValue, what: String, _ options: [String], shown: String? = nil
    ) throws(Diagnostic) -> String {
        let list = shown ?? options.dropLast().joined(separator: ", ") + " or " + options.last!
        guard case .string(let s) = v.kind else { throw typeError(path, "expected \(list)", v) }
        if let match = options.first(where: { $0.lowercased() == s.lowercased() }) { return match }
        var message = "unknown \(what) '\(s)'"
        if let near = Suggestion.closest(to: s, in: options) {
            message += "; did you mean '\(near)'?"
        } else {
            message += "; use \(list)"
        }
        throw TemplateSpot(origin, v).error(message, key: path)
    }

    /// The page colour: a colour, or `"none"` for no paper (as is a colour with no opacity).
    private func paper(_ path: String, _ v: JSONValue) throws(Diagnostic) -> RGBA? {
        if case .string(let s) = v.kind, s.trimmed().lowercased() == "none" { return nil }
        let c = try color(path, v)
        return c.alpha > 0 ? c : nil
    }

    private func color(_ path: String, _ v: JSONValue) throws(Diagnostic) -> RGBA {
        guard case .string(let s) = v.kind else {
            throw typeError(path, "expected a colour such as \"black\" or \"#336699\"", v)
        }
        switch ColorParser.parse(s) {
        case .success(let c): return c
        case .failure(let e): throw TemplateSpot(origin, v).error(e.message, key: path)
        }
    }

    /// A BCP 47 tag, checked for shape only: a 2–8 letter language, then 1–8 letter-or-digit subtags.
    private func language(_ v: JSONValue) throws(Diagnostic) -> String {
        let expected = "expected a BCP 47 language tag such as \"en\" or \"zh-Hans\""
        guard case .string(let s) = v.kind else { throw typeError("language", expected, v) }
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        let ok = parts.enumerated().allSatisfy { i, part in
            (i == 0 ? (2...8) : (1...8)).contains(part.count)
                && part.allSatisfy { $0.isASCII && (i == 0 ? $0.isLetter : ($0.isLetter || $0.isNumber)) }
        }
        guard ok else { throw typeError("language", expected, v) }
        return s
    }

    /// `fallback`: a list of font names, or an object of such lists by ISO 15924 script code
    /// (`"Hani"`, `"Arab"`), each tried before the list under `"default"` for text of its script.
    /// A list replaces the per-script ones too; an object with no `"default"` keeps the one
    /// inherited.
    private mutating func fallback(_ v: JSONValue) throws(Diagnostic) {
        guard case .object(let members) = v.kind else {
            template.fallbackFaces = try faces(v)
            template.scriptFallbacks = [:]
            return
        }
        var scripts: [String: [String]] = [:]
        for m in try self.members(of: v, path: "fallback", allowed: members.map(\.key)) {
            let path = "fallback.\(m.key)"
            if m.key == "default" {
                template.fallbackFaces = try faces(m.value, at: path)
            } else if Self.isScriptCode(m.key) {
                scripts[m.key] = try faces(m.value, at: path)
            } else {
                throw TemplateSpot(origin, key: m).error(
                    "'\(m.key)' is not a script code: give \"default\" or an ISO 15924 code of four letters such as \"Hani\", \"Arab\" or \"Cyrl\"",
                    key: path)
            }
        }
        template.scriptFallbacks = scripts
    }

    /// An ISO 15924 code as fontconfig and Pango write it: a capital and three small letters.
    static func isScriptCode(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 4 && (0x41...0x5A).contains(u[0]) && u.dropFirst().allSatisfy { (0x61...0x7A).contains($0) }
    }

    /// An array of font names. An override may also give them as one comma-separated string.
    private func faces(_ v: JSONValue, at path: String = "fallback") throws(Diagnostic) -> [String] {
        switch v.kind {
        case .array(let elements):
            var out: [String] = []
            for (i, e) in elements.enumerated() {
                out.append(try line("\(path)[\(i)]", e, allowEmpty: false))
            }
            return out
        case .string(let s) where isOverride:
            return try commaList(path, s, v)
        default:
            let orObject = path == "fallback" ? ", or an object of such lists by script" : ""
            throw typeError(path, "expected a list of font names" + orObject, v)
        }
    }

    /// An override's comma-separated list, each item one line as the JSON array's items must be.
    private func commaList(_ path: String, _ s: String, _ v: JSONValue) throws(Diagnostic) -> [String] {
        let items = s.split(separator: ",").map { String($0).trimmed() }.filter { !$0.isEmpty }
        for item in items { try oneLine(path, item, v) }
        return items
    }

    /// A social link pattern: one line of text holding `placeholder` (`{name}` or `{topic}`).
    private func linkPattern(_ path: String, _ v: JSONValue, placeholder: String) throws(Diagnostic) -> String {
        let expected = "expected a link pattern containing \(placeholder)"
        guard case .string(let s) = v.kind else { throw typeError(path, expected, v) }
        try oneLine(path, s, v)
        guard s.contains(placeholder) else { throw typeError(path, expected, v) }
        // Links with any other scheme are not written (`LinkAttributes`): every mention would
        // then be warned of at its text rather than once here.
        if let colon = s.firstIndex(of: ":"), !s[..<colon].contains("/"),
            !["http", "https", "mailto", "tel"].contains(s[..<colon].lowercased())
        {
            throw TemplateSpot(origin, v).error(
                "a link pattern must be an http, https, mailto or tel link (or a relative one), not '\(s[..<colon])'", key: path)
        }
        return s
    }

    /// Folders (emoticon packs, fonts): an array of paths, each resolved against the folder of
    /// the template file that names it. An override may also give them as one comma-separated
    /// string; its paths are kept as written (relative to the working folder).
    private func folders(_ key: String, _ v: JSONValue, what: String) throws(Diagnostic) -> [String] {
        switch v.kind {
        case .array(let elements):
            var out: [String] = []
            for (i, e) in elements.enumerated() {
                let folder = try line("\(key)[\(i)]", e, allowEmpty: false)
                if case .file(let file) = origin {
                    let path = TemplateLoader.resolve(folder, relativeTo: file)
                    if !roots.isEmpty && !FileRoot.admits(path, roots: roots) {
                        throw TemplateSpot(origin, e).error(TemplateLoader.outsideRoots(folder, roots), key: "\(key)[\(i)]")
                    }
                    out.append(path)
                } else {
                    out.append(folder)
                }
            }
            return out
        case .string(let s) where isOverride:
            return try commaList(key, s, v)
        default:
            throw typeError(key, "expected a list of \(what)", v)
        }
    }

    /// A footer or header text; `{word}` placeholders must name one of `RunningLineSpec.fields`.
    private func runningText(_ path: String, _ v: JSONValue) throws(Diagnostic) -> String {
        let text = try line(path, v, allowEmpty: true)
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "{" {
                var j = i + 1
                while j < scalars.count, scalars[j].properties.isAlphabetic { j += 1 }
                if j < scalars.count, scalars[j] == "}", j > i + 1 {
                    let placeholder = String(String.UnicodeScalarView(scalars[i...j]))
                    if !RunningLineSpec.placeholders.contains(placeholder) {
                        throw TemplateSpot(origin, v).error(Self.unknownPlaceholder(placeholder), key: path)
                    }
                    i = j
                }
            }
            i += 1
        }
        return text
    }

    /// `unknown placeholder '{x}'`, with the nearest one or the list.
    static func unknownPlaceholder(_ placeholder: String) -> String {
        let known = RunningLineSpec.placeholders
        var message = "unknown placeholder '\(placeholder)'"
        if let near = Suggestion.closest(to: placeholder, in: known) {
            message += "; did you mean '\(near)'?"
        } else {
            message += "; use " + known.dropLast().joined(separator: ", ") + " or " + known.last!
        }
        return message
    }

    private var isOverride: Bool {
        if case .override = origin { return true }
        return false
    }

    // MARK: - Checks across keys

    /// Checks what no single key decides: leading against size, room for the text, and a slug
    /// wide enough for the marks it holds.
    /// `given` says where each key was set; the first listed key that was set takes the blame.
    static func validate(_ t: Template, given: [String: TemplateSpot], fallback: TemplateOrigin) throws(Diagnostic) {
        /// The spot of the latest-set key among `keys`; on ties the earlier-listed key.
        func spot(_ keys: [String]) -> (TemplateSpot, String?) {
            var best: (TemplateSpot, String)?
            for k in keys {
                if let s = given[k], best == nil || s.sequence > best!.0.sequence { best = (s, k) }
            }
            return best ?? (TemplateSpot(origin: fallback), nil)
        }
        if t.body.leading < t.body.size * 0.5 {
            let (s, key) = spot(["body.leading", "body.size", "body"])
            let leading = plain(t.body.leading), size = plain(t.body.size)
            let problem =
                key == "body.size"
                ? "size \(size) pt needs a leading of at least \(plain(t.body.size * 0.5)) pt (the leading is \(leading) pt)"
                : "leading \(leading) pt is less than half the size (\(size) pt)"
            throw s.error(problem, key: key)
        }
        // A column narrower than two ems of the body holds a letter or two a line: thousands of
        // warnings and pages, never a magazine.
        if t.columnWidth < max(1, 2 * t.body.size) {
            let (s, _) = spot([
                // Not "page": it is recorded for page.height too, which does not narrow a column.
                "columns", "margins.left", "margins.right", "margins.inner", "margins.outer", "margins", "gutter", "page.width",
                "page.size", "page.orientation", "body.size", "body",
            ])
            let width = "columns would be \(points(t.columnWidth)) pt wide"
            guard t.columnWidth >= 1 else { throw s.error("template leaves no room for text: \(width)", key: nil) }
            throw s.error(
                "template leaves too little room for text: \(width), less than two ems of the \(plain(t.body.size)) pt body", key: nil)
        }
        // A text area shorter than a line of the body sets every line "placed anyway", a page
        // each: as little a magazine as too narrow a column.
        if t.textHeight < max(1, t.body.leading) {
            let (s, _) = spot([
                "margins.top", "margins.bottom", "margins", "page.height", "page.size", "page.orientation", "body.leading", "body",
            ])
            let height = "the text area would be \(points(t.textHeight)) pt tall"
            guard t.textHeight >= 1 else { throw s.error("template leaves no room for text: \(height)", key: nil) }
            throw s.error(
                "template leaves too little room for text: \(height), less than a line of the \(plain(t.body.leading)) pt body leading",
                key: nil)
        }
        if !t.print.marks.isEmpty, t.print.slug < PrintSpec.narrowestMarkedSlug {
            let (s, _) = spot(["print.slug", "print.marks", "print"])
            throw s.error("print.slug must be at least 5 mm to hold marks; make it wider, or give \"marks\": []", key: nil)
        }
    }

    /// A value for messages, rounded to two decimals, without trailing zeros.
    static func plain(_ v: Double) -> String {
        LengthParser.formatNumber((v * 100).rounded() / 100)
    }

    /// Points for messages: cut (not rounded) to one decimal, so a value below a limit never
    /// prints as the limit; no trailing `.0`.
    static func points(_ v: Double) -> String {
        let cut = (v * 10).rounded(.towardZero) / 10
        if cut == 0 { return "0" }
        if cut == cut.rounded() { return String(Int(cut)) }
        return String(cut)
    }
}

extension TemplateSpot {
    /// A spot with no location, for messages about a whole file.
    init(origin: TemplateOrigin) {
        self.origin = origin
        location = nil
    }
}
