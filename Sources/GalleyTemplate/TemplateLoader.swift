import FoundationEssentials
import GalleyMarkup
import GalleySupport
import Glibc

/// Reads, overrides and writes templates.
///
/// A template file is a JSON object; every key is optional. Keys it omits come from the template
/// it `extends`, or from `magazine` when it names none:
///
/// ```json
/// {
///   "name": "magazine",
///   "description": "A4, two columns, DejaVu Serif 10/12, justified",
///   "extends": "magazine",
///   "page": {"size": "A4", "orientation": "portrait", "color": "white"},
///   "margins": "15mm",
///   "columns": 2,
///   "gutter": "6mm",
///   "body": {"face": "DejaVu Serif", "size": 10, "leading": 12, "color": "black"},
///   "paragraphSpacing": 6,
///   "firstLineIndent": 0,
///   "firstLineIndentRule": "conventional",
///   "alignment": "justify",
///   "paragraphs": "newline",
///   "language": "en",
///   "fallback": ["Noto Serif CJK SC", "Noto Color Emoji"],
///   "footer": {"enabled": true, "text": "{page}", "face": "DejaVu Serif", "size": 8, "color": "gray"},
///   "header": {"enabled": false, "text": "{title}", "face": "DejaVu Serif", "size": 8, "color": "gray"},
///   "lineBreaking": "total-fit",
///   "hyphenation": {"enabled": true, "minWord": 6, "leftMin": 2, "rightMin": 3, "capitals": false, "maxConsecutive": 2, "acrossColumns": true},
///   "widows": 2,
///   "orphans": 2,
///   "keepWithNext": 2,
///   "baselineGrid": true,
///   "balance": true,
///   "blockImages": "defer",
///   "dropcap": {"lines": 3, "face": "DejaVu Serif", "color": "#222222", "after": "none"},
///   "headings": {
///     "h1": {"face": "DejaVu Sans", "size": 20, "weight": 700, "color": "#222222", "before": 12, "after": 6, "span": "none"},
///     "h2": {"face": "DejaVu Sans", "size": 15, "weight": 700, "color": "#222222", "before": 9, "after": 4, "span": "none"},
///     "h3": {"face": "DejaVu Sans", "size": 12, "weight": 700, "color": "#222222", "before": 6, "after": 3, "span": "none"}
///   },
///   "link": {"color": "#1f4e8c", "underline": "none"},
///   "caption": {"face": "DejaVu Serif", "size": 8.5, "color": "#404040", "italic": true, "gap": 4},
///   "wrapMinWidth": 30,
///   "social": {
///     "enabled": false,
///     "mention": {"color": "#1f6fb2", "weight": 400, "url": "https://weibo.com/n/{name}"},
///     "topic": {"color": "#c45a1b", "weight": 400, "url": "https://s.weibo.com/weibo?q=%23{topic}%23"},
///     "url": {"color": "#1f4e8c", "weight": 400},
///     "emoticons": []
///   },
///   "cjkAutoSpacing": false,
///   "typography": {"smartQuotes": true, "dashes": false, "cjkQuotes": "curly"},
///   "cjk": {"punctuation": "compress", "hanging": false}
/// }
/// ```
///
/// * `extends`: a built-in name, or a path (containing `/` or ending `.json`) relative to the
///   file's own folder. Chains are followed; a cycle is an error.
/// * `page`: `{"size", "orientation"}` or `{"width", "height"}`. Sizes (any case): A0–A10 B0–B10
///   letter legal tabloid (11 × 17 in) ledger (17 × 11 in). Without `orientation` a size keeps
///   its usual shape; `portrait` puts the long side upright, `landscape` across (and also
///   applies to an inherited or explicit width and height). Given alone, `width` or `height`
///   keeps the other side from the base. `color` is the paper (default white), filled on every
///   page before anything else; `"none"` leaves PDF pages transparent (PNG previews are on white).
/// * Lengths (`margins`, `gutter`, sizes, spacing, page sides) are a number of points or a
///   string with a unit: pt, mm, cm, in, pc, px (see `LengthParser`).
/// * `margins`: one length for all sides, or an object with any of top, right, bottom, left;
///   or, for facing pages, inner and outer instead of left and right (a right-hand page has the
///   inner margin on its left, a left-hand page on its right). Left or right makes the margins
///   fixed again; one object may not give both kinds.
/// * Colours: anything `ColorParser` reads (`"gray"`, `"#336699"`, `"rgb(0, 0, 0)"`).
/// * `paragraphs`: `newline` or `blank-line`. `alignment`: justify, left, right or center.
/// * `footer` and `header` (the running head, off in the built-ins): `text` is centred; `left`
///   and `right`, when given, are the texts of left-hand (even) and right-hand (odd) pages, set
///   flush to the outer edge of the text (`null` takes one away). In each text `{page}` becomes
///   the folio, `{pages}` the page count, `{title}`, `{section}` and `{issue}` the story's
///   `<meta>` fields (the title defaults to the first `<h1>`).
/// * `lineBreaking`: `total-fit` or `greedy`.
/// * `hyphenation`: an object with any of enabled, minWord, leftMin, rightMin, capitals,
///   maxConsecutive, acrossColumns, narrowMeasure, narrowMinWord, narrowMaxConsecutive; like `body` and `footer`, keys it omits keep the base's values.
/// * `headings`: an object with any of h1, h2, h3, each an object with any of face, size, weight
///   (100–900, "bold" or "normal"), color, before and after (space around the heading), and
///   span (`"all"`: across every column, as `span="all"` on the tag; `"none"`); keys left out
///   keep the base's values. `--set headings.h2.size=14` reaches one of them.
/// * `balance`: the columns end on one baseline at the story's end and before a page break.
/// * `blockImages`: `defer` (a block image that does not fit the rest of its column opens the
///   next one while the text goes on) or `inOrder` (the tutorial's strict order).
/// * `dropcap`: drop caps. `lines` (2–10) is how tall the one the template gives is; `face` and
///   `color` set every initial (`<p dropcap="N">` too); `after` (h1, h2, h3 or none) gives one
///   to the first paragraph after a heading of that level.
/// * `link`: the style `<a href>` adds: `color`, and `underline` (single, double, thick, dotted,
///   dashed, wavy, or none to leave the text's underline alone).
/// * `caption`: how image captions are set: face, size, color, italic (a boolean) and gap (space
///   between the image and its caption); keys left out keep the base's values.
/// * `wrapMinWidth`: the narrowest interval beside a float that text goes into.
/// * `social`: social text. `enabled` detects it everywhere (else only in `<social>` blocks);
///   `mention`, `topic` and `url` each take color and weight (as for headings), and `mention` and
///   `topic` a link pattern `url` that must contain `{name}` / `{topic}`; `emoticons` is a list
///   of emoticon pack folders, relative to the template file's folder (stored resolved; `--set`
///   paths are kept as written, and may also be one comma-separated string). Objects left
///   partial keep the base's values, at every level: `--set social.mention.url=…` reaches one key.
/// * `cjkAutoSpacing`: a thin space between CJK and Latin letters or digits that touch.
/// * `typography`: `smartQuotes` (straight quotes become the language's, apostrophes ’),
///   `dashes` (`--` and `---` become en and em dashes, `...` an ellipsis) and `cjkQuotes`
///   (`curly` or `corner`: 「…」 in Chinese and Japanese).
/// * `cjk`: `punctuation` (`compress`, clreq's default: adjacent marks share half an em and a
///   line compresses its marks before its ideographs; `full`; `half`) and `hanging` (。，、 at a
///   line's end may hang past the edge).
/// * `print`: the press sheet of `--press`. `bleed` (0 to 20 mm, 3 mm by default) is how far
///   the page colour, backgrounds, full-page images and images with `bleed="true"` run past the
///   trim; `slug` (0 to 50 mm, 10 mm by default) is the width of the paper outside the bleed;
///   `marks` lists what is drawn there: `crop`, `registration`, `slug` (a line with the file,
///   page and date); `[]` for none. Marks need a slug of at least 5 mm.
/// * `startPage`: the folio of the first page (0–99999); the PDF's page labels follow it.
/// * `maxImagePixels`: the most pixels (width × height) an image may have, 100 000 000 by
///   default; Cairo's limit of 32767 pixels a side holds whatever it says.
/// * Booleans (`footer.enabled`, `baselineGrid`, `balance`, `hyphenation.enabled`, `caption.italic`,
///   `social.enabled`, `cjkAutoSpacing`, `typography.dashes` …) must be JSON `true` or `false`.
///
/// Limits: body and footer sizes, leading and page sides > 0; leading ≥ half the body size;
/// columns a whole number 1–12; margins, gutter, paragraph spacing and first-line indent ≥ 0;
/// each column at least 1 pt wide and the text area at least 1 pt tall; `hyphenation.minWord`
/// and `narrowMinWord` whole numbers 2–50, `leftMin`, `rightMin`, `maxConsecutive` and
/// `narrowMaxConsecutive` 1–10, `narrowMeasure` 0–200 ems; `widows` and `orphans`
/// 1–10; `keepWithNext` 0–10; `dropcap.lines` 2–10; heading sizes > 0 and their spacing ≥ 0; caption size and
/// `wrapMinWidth` > 0, caption gap ≥ 0.
///
/// Every error is one `Diagnostic` naming the key and, for files, pointing at the value.
public enum TemplateLoader {
    /// Loads a template by built-in name, or from a JSON file path (anything containing "/" or ending ".json").
    public static func load(_ nameOrPath: String) -> Result<Template, Diagnostic> {
        var files: [String] = []
        return load(nameOrPath, files: &files)
    }

    /// Loads a template as `load(_:)` does, adding to `files` every file read for it (the
    /// template's own and those its `extends` chain names), so that a build can refuse to
    /// write over one of them.
    ///
    /// A template file may be anywhere; the files it names (`extends`, emoticon packs) must lie
    /// in its own folder or below it, or under one of `roots` (`--root`).
    public static func load(_ nameOrPath: String, files: inout [String], roots: [String] = []) -> Result<Template, Diagnostic> {
        if isPath(nameOrPath) {
            switch readText(nameOrPath) {
            case .failure(let reason):
                return .failure(.error("cannot read template '\(nameOrPath)': \(reason.text)", file: nameOrPath, at: reason.location))
            case .success(let text):
                return decode(text, file: nameOrPath, files: &files, confinedTo: roots.map(FileRoot.init))
            }
        }
        if let t = Template.builtin(named: nameOrPath) { return .success(t) }
        return .failure(.error(unknownTemplate(nameOrPath)))
    }

    /// Parses JSON text (file used in diagnostics).
    ///
    /// `file` is also where a relative `extends` path starts from, and takes part in cycle checks.
    public static func decode(_ json: String, file: String) -> Result<Template, Diagnostic> {
        var files: [String] = []
        return decode(json, file: file, files: &files)
    }

    /// With `confinedTo` (a file read from disk), what the template names must lie in the file's
    /// folder or under one of those roots; JSON handed in as text is trusted as its caller does.
    static func decode(
        _ json: String, file: String, files: inout [String], confinedTo roots: [FileRoot]? = nil
    ) -> Result<Template, Diagnostic> {
        var chain = Chain(canonical: [canonicalPath(file)], shown: [file], read: [file])
        if let roots { chain.roots = [FileRoot(FilePath.directory(of: file))] + roots }
        defer { files += chain.read }
        do throws(Diagnostic) {
            return .success(try decodeLayer(json, file: file, chain: &chain))
        } catch {
            return .failure(error)
        }
    }

    /// Applies `--set key=value` overrides (dotted keys as in the JSON, e.g. body.size=11, columns=3, page.size=letter).
    ///
    /// Values are read as JSON when they parse as JSON (numbers, true/false, quoted strings,
    /// arrays, objects), else taken as a plain string, so `margins=15mm` and `body.color=red`
    /// need no quotes. `fallback` also takes a comma-separated string. Overrides apply in order;
    /// the checks across keys (room for text, leading) run once all are applied. `file` is what
    /// diagnostics name as their file (normally `--set`); messages start `--set KEY=VALUE: `.
    public static func apply(_ overrides: [String], to t: Template, file: String) -> Result<Template, Diagnostic> {
        var template = t
        var given: [String: TemplateSpot] = [:]
        var lastOrigin = TemplateOrigin.override(text: overrides.last ?? "", file: file)
        do throws(Diagnostic) {
            for (i, text) in overrides.enumerated() {
                let origin = TemplateOrigin.override(text: text, file: file)
                lastOrigin = origin
                let layer = try overrideLayer(text, file: file)
                var decoder = TemplateDecoder(origin: origin, base: template, sequence: i + 1)
                try decoder.apply(try decoder.members(of: layer, path: nil, allowed: TemplateSchema.topKeys))
                template = decoder.template
                given.merge(decoder.given) { _, new in new }
            }
            try TemplateDecoder.validate(template, given: given, fallback: lastOrigin)
            return .success(template)
        } catch {
            return .failure(error)
        }
    }

    /// Pretty JSON in the same schema, stable key order, complete (no `extends`), ending in a
    /// newline. Lengths are written in the shortest exact form (`"15mm"`, `43.2`), colours by
    /// name where one fits; `decode` of the result gives back an equal template.
    public static func encode(_ t: Template) -> String {
        let members = EncodedTemplate.page(t) + EncodedTemplate.flow(t) + EncodedTemplate.look(t)
        return "{\n" + members.map { "  \(JSONWriter.quote($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }
}

/// The members `TemplateLoader.encode` writes, in schema order, in three groups: the page and
/// its furniture, the flow's rules, and the look of headings, styles, links, captions and
/// social text.
private enum EncodedTemplate {
    static func q(_ s: String) -> String { JSONWriter.quote(s) }
    static func len(_ v: Double) -> String {
        let f = LengthParser.format(v)
        return f.isNumber ? f.text : q(f.text)
    }
    static func bool(_ b: Bool) -> String { b ? "true" : "false" }
    static func color(_ c: RGBA) -> String { q(ColorParser.format(c)) }
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\(q($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }
    /// An object written a member a line, indented under its key.
    static func block(_ pairs: [(String, String)]) -> String {
        "{\n" + pairs.map { "    \(q($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n  }"
    }

    /// Name, page, margins, columns, body type, paragraphs, language, footer and header.
    static func page(_ t: Template) -> [(String, String)] {
        let paper = q(t.pageColor.map(ColorParser.format) ?? "none")
        let page: String
        if let (size, orientation) = TemplateLoader.pageSize(width: t.pageWidth, height: t.pageHeight) {
            page = object([("size", q(size.rawValue)), ("orientation", q(orientation)), ("color", paper)])
        } else {
            page = object([("width", len(t.pageWidth)), ("height", len(t.pageHeight)), ("color", paper)])
        }
        let m = t.margins
        let margins =
            m.mirrored
            ? object([("top", len(m.top)), ("bottom", len(m.bottom)), ("inner", len(m.inner)), ("outer", len(m.outer))])
            : m.top == m.right && m.top == m.bottom && m.top == m.left
                ? len(m.top)
                : object([("top", len(m.top)), ("right", len(m.right)), ("bottom", len(m.bottom)), ("left", len(m.left))])
        let body = object([
            ("face", q(t.body.face)), ("size", len(t.body.size)), ("leading", len(t.body.leading)), ("color", color(t.body.color)),
        ])
        var pairs: [(String, String)] = [
            ("name", q(t.name)), ("description", q(t.summary)), ("page", page), ("margins", margins),
            ("columns", String(t.columns)), ("gutter", len(t.gutter)), ("body", body),
            ("paragraphSpacing", len(t.paragraphSpacing)), ("firstLineIndent", len(t.firstLineIndent)),
            ("firstLineIndentRule", q(t.firstLineIndentRule.rawValue)), ("alignment", q(t.alignment.rawValue)),
            ("paragraphs", q(t.paragraphMode.rawValue)), ("language", q(t.language)),
            ("fallback", fallback(t)),
        ]
        pairs.append(("fonts", "[" + t.fontFolders.map(q).joined(separator: ", ") + "]"))
        pairs += [("footer", runningLine(t.footer)), ("header", runningLine(t.header))]
        return pairs
    }

    /// A list of faces, or with per-script lists an object: `"default"` first, then the scripts.
    static func fallback(_ t: Template) -> String {
        func list(_ faces: [String]) -> String { "[" + faces.map(q).joined(separator: ", ") + "]" }
        if t.scriptFallbacks.isEmpty { return list(t.fallbackFaces) }
        return object([("default", list(t.fallbackFaces))] + t.scriptFallbacks.sorted { $0.key < $1.key }.map { ($0.key, list($0.value)) })
    }

    /// The footer or the header; a side without its own text is left out.
    static func runningLine(_ r: RunningLineSpec) -> String {
        var pairs = [("enabled", bool(r.enabled)), ("text", q(r.text))]
        if let left = r.left { pairs.append(("left", q(left))) }
        if let right = r.right { pairs.append(("right", q(right))) }
        return object(pairs + [("face", q(r.face)), ("size", len(r.size)), ("color", color(r.color))])
    }

    /// Line breaking, hyphenation, widows and orphans, the grid, balancing, block images, drop caps.
    static func flow(_ t: Template) -> [(String, String)] {
        let h = t.hyphenation
        let hyphenation = object([
            ("enabled", bool(h.enabled)), ("minWord", String(h.minWord)), ("leftMin", String(h.leftMin)),
            ("rightMin", String(h.rightMin)), ("capitals", bool(h.capitals)), ("maxConsecutive", String(h.maxConsecutive)),
            ("acrossColumns", bool(h.acrossColumns)), ("narrowMeasure", String(h.narrowMeasure)),
            ("narrowMinWord", String(h.narrowMinWord)), ("narrowMaxConsecutive", String(h.narrowMaxConsecutive)),
        ])
        let dropCap = object([
            ("lines", String(t.dropCap.lines)), ("face", q(t.dropCap.face)), ("color", color(t.dropCap.color)),
            ("after", q(DropCapSpec.afterNames[t.dropCap.after])),
        ])
        return [
            ("lineBreaking", q(t.lineBreaking.rawValue)), ("hyphenation", hyphenation), ("widows", String(t.widows)),
            ("orphans", String(t.orphans)), ("keepWithNext", String(t.keepWithNext)), ("baselineGrid", bool(t.baselineGrid)),
            ("balance", bool(t.balance)), ("blockImages", q(t.blockImages.rawValue)), ("dropcap", dropCap),
        ]
    }

    /// Headings, named styles, links, captions, wrap, social text and the last keys.
    static func look(_ t: Template) -> [(String, String)] {
        let headings = block(
            HeadingsSpec.levels.enumerated().map { i, level in
                let h = t.headings[i + 1]
                return (
                    level,
                    object([
                        ("face", q(h.face)), ("size", len(h.size)), ("weight", String(h.weight)), ("color", color(h.color)),
                        ("before", len(h.before)), ("after", len(h.after)), ("span", q(h.span ? "all" : "none")),
                    ])
                )
            })
        let link = object([("color", color(t.link.color)), ("underline", q(t.link.underline?.rawValue ?? "none"))])
        let c = t.caption
        let caption = object([
            ("face", q(c.face)), ("size", len(c.size)), ("color", color(c.color)), ("italic", bool(c.italic)), ("gap", len(c.gap)),
        ])
        let social = block([
            ("enabled", bool(t.social.enabled)),
            ("mention", socialStyle(t.social.mention, pattern: true)),
            ("topic", socialStyle(t.social.topic, pattern: true)),
            ("url", socialStyle(t.social.url, pattern: false)),
            ("emoticons", "[" + t.social.emoticons.map(q).joined(separator: ", ") + "]"),
        ])
        let typography = object([
            ("smartQuotes", bool(t.typography.smartQuotes)), ("dashes", bool(t.typography.dashes)),
            ("cjkQuotes", q(t.typography.cjkQuotes.rawValue)),
        ])
        let cjk = object([("punctuation", q(t.cjk.punctuation.rawValue)), ("hanging", bool(t.cjk.hanging))])
        return [
            ("headings", headings), ("styles", styles(t.styles)), ("link", link), ("caption", caption),
            ("wrapMinWidth", len(t.wrapMinWidth)), ("social", social), ("cjkAutoSpacing", bool(t.cjkAutoSpacing)),
            ("typography", typography), ("cjk", cjk), ("maxImagePixels", String(t.maxImagePixels)), ("startPage", String(t.startPage)),
            ("print", printSheet(t.print)),
        ]
    }

    /// The press sheet (`len` writes 3 mm as `"3mm"`).
    static func printSheet(_ p: PrintSpec) -> String {
        object([
            ("bleed", len(p.bleed)), ("slug", len(p.slug)), ("marks", "[" + p.marks.map { q($0.rawValue) }.joined(separator: ", ") + "]"),
        ])
    }

    /// One social style; URLs have no link pattern.
    static func socialStyle(_ s: SocialStyleSpec, pattern: Bool) -> String {
        var pairs = [("color", color(s.color)), ("weight", String(s.weight))]
        if pattern { pairs.append(("url", q(s.url))) }
        return object(pairs)
    }

    /// The `styles` object, a style a line, its attributes in order.
    static func styles(_ styles: [NamedStyle]) -> String {
        guard !styles.isEmpty else { return "{}" }
        return block(
            styles.map { s in
                let pairs = (s.basedOn.map { [("basedOn", $0)] } ?? []) + s.attributes.map { ($0.name, $0.value) }
                return (s.name, "{" + pairs.map { "\(q($0.0)): \(q($0.1))" }.joined(separator: ", ") + "}")
            })
    }
}

extension TemplateLoader {
    // MARK: - Layers

    /// Paths seen along an `extends` chain: canonical for comparing, as written for messages.
    struct Chain {
        var canonical: [String]
        var shown: [String]
        /// Every file read along the chain, kept when the chain unwinds.
        var read: [String] = []
        /// Where the files the chain names may lie: the first template's folder, and `--root`.
        var roots: [FileRoot] = []
        /// Where each key was last given along the chain, for the checks across keys.
        var given: [String: TemplateSpot] = [:]
    }

    /// Decodes one file's JSON on top of its base, following `extends` first. The checks
    /// across keys (leading against size, room for text) run on the file asked for only
    /// (`validating`), once every file of its chain has given its values: a base that is
    /// wrong alone may be set right by the file that extends it.
    static func decodeLayer(_ json: String, file: String, chain: inout Chain, validating: Bool = true) throws(Diagnostic) -> Template {
        let root: JSONValue
        switch JSONReader.parse(json) {
        case .success(let v): root = v
        case .failure(let e): throw .error(e.message, file: file, at: e.location, length: e.length)
        }
        guard case .object = root.kind else {
            throw .error("a template must be a JSON object, got \(root.described)", file: file, at: root.start, length: root.length)
        }
        let origin = TemplateOrigin.file(file)
        let probe = TemplateDecoder(origin: origin, base: .default)
        let members = try probe.members(of: root, path: nil, allowed: TemplateSchema.topKeys)

        var base = Template.default
        if let ext = members.first(where: { $0.key == "extends" }) {
            base = try resolveExtends(ext.value, file: file, chain: &chain)
        }
        var decoder = TemplateDecoder(origin: origin, base: base)
        decoder.roots = chain.roots
        try decoder.apply(members)
        chain.given.merge(decoder.given) { _, new in new }
        if validating { try TemplateDecoder.validate(decoder.template, given: chain.given, fallback: origin) }
        // A file that changes what its base's description says, without describing itself, is
        // described by what it is ("A4, two columns" over three columns would mislead).
        var t = decoder.template
        if !members.contains(where: { $0.key == "description" }) && describe(t) != describe(base) {
            t.summary = describe(t)
        }
        return t
    }

    /// How many template files one chain of `extends` may hold: far more than any family of
    /// templates needs, and little enough stack for the recursion that reads them.
    public static let maximumExtendsDepth = 32

    /// The base named by an `extends` value.
    static func resolveExtends(_ v: JSONValue, file: String, chain: inout Chain) throws(Diagnostic) -> Template {
        let spot = TemplateSpot(.file(file), v)
        guard case .string(let ref) = v.kind, !ref.isEmpty else {
            throw TemplateSpot(.file(file), v).error(
                "expected a built-in template name or a path to a JSON file, got \(v.described)", key: "extends")
        }
        guard isPath(ref) else {
            guard let t = Template.builtin(named: ref) else { throw spot.error(unknownTemplate(ref), key: "extends") }
            return t
        }
        let path = resolve(ref, relativeTo: file)
        if chain.shown.count >= maximumExtendsDepth {
            throw spot.error(
                "templates extend each other more than \(maximumExtendsDepth) deep; shorten the chain", key: "extends")
        }
        // Checked before anything is read, so that the answer says nothing of files outside.
        if !chain.roots.isEmpty && !FileRoot.admits(path, roots: chain.roots) {
            throw spot.error(outsideRoots(ref, chain.roots), key: "extends")
        }
        let canonical = canonicalPath(path)
        if let i = chain.canonical.firstIndex(of: canonical) {
            let cycle = (chain.shown[i...] + [path]).joined(separator: " → ")
            throw spot.error("templates extend each other in a cycle: \(cycle)", key: "extends")
        }
        let text: String
        switch readText(path) {
        case .success(let t): text = t
        case .failure(let reason):
            // Tried, so that `watch` waits for it to be made.
            chain.read.append(path)
            throw spot.error("cannot read template '\(path)': \(reason.text)", key: "extends")
        }
        chain.canonical.append(canonical)
        chain.shown.append(path)
        chain.read.append(path)
        defer {
            chain.canonical.removeLast()
            chain.shown.removeLast()
        }
        return try decodeLayer(text, file: path, chain: &chain, validating: false)
    }

    /// One `KEY=VALUE` as a JSON object `{"KEY": VALUE}` (nested for dotted keys), after
    /// checking the key against the schema.
    static func overrideLayer(_ text: String, file: String) throws(Diagnostic) -> JSONValue {
        let fail = { (problem: String) in Diagnostic.error("--set \(text): \(problem)", file: file) }
        guard let eq = text.firstIndex(of: "=") else { throw fail("expected KEY=VALUE, as in body.size=11") }
        let key = text[..<eq].trimmed()
        let rawValue = text[text.index(after: eq)...].trimmed()
        guard !key.isEmpty else { throw fail("expected KEY=VALUE, as in body.size=11") }
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if !TemplateSchema.topKeys.contains(parts[0]) {
            throw fail(TemplateSchema.unknownKey(parts[0], prefix: nil, candidates: TemplateSchema.topKeys))
        }
        if parts[0] == "extends" {
            throw fail("'extends' cannot be overridden; choose the template to start from instead")
        }
        if parts[0] == "styles" {
            // `styles.NAME.KEY`: the names are the template's own, the keys a style's.
            guard parts.count == 3, !parts[1].isEmpty else { throw fail("expected styles.NAME.KEY, as in styles.deck.size=14") }
            guard NamedStyle.keys.contains(where: { $0.lowercased() == parts[2].lowercased() }) else {
                throw fail(TemplateSchema.unknownKey(parts[2], prefix: "styles.\(parts[1])", candidates: NamedStyle.keys))
            }
        }
        for i in parts.indices.dropFirst() where parts[0] != "styles" {
            let parent = parts[..<i].joined(separator: ".")
            guard let sub = TemplateSchema.objectKeys[parent] else {
                var message = "unknown key '\(key)'"
                if let near = Suggestion.closest(to: key, in: TemplateSchema.allPaths) { message += "; did you mean '\(near)'?" }
                throw fail(message)
            }
            if !sub.contains(parts[i]) {
                throw fail(TemplateSchema.unknownKey(parts[i], prefix: parent, candidates: sub))
            }
        }
        let origin = SourceLocation(line: 1, column: 1, offset: 0)
        var value: JSONValue
        switch JSONReader.parse(rawValue) {
        case .success(let v): value = v
        case .failure: value = JSONValue(.string(rawValue), start: origin, end: origin)
        }
        for part in parts.reversed() {
            let member = JSONMember(key: part, keyStart: origin, keyEnd: origin, value: value)
            value = JSONValue(.object([member]), start: origin, end: origin)
        }
        return value
    }

    // MARK: - Names and files

    package static func isPath(_ s: String) -> Bool { s.contains("/") || s.lowercased().hasSuffix(".json") }

    /// `unknown template 'x'; did you mean 'y'? (built-in: …)`.
    static func unknownTemplate(_ name: String) -> String {
        let names = BuiltinTemplates.names
        var message = "unknown template '\(name)'"
        if let near = Suggestion.closest(to: name, in: names) { message += "; did you mean '\(near)'?" }
        return message + " (built-in: \(names.joined(separator: ", ")))"
    }

    /// Why a file a template names is refused: where files may come from, and how to widen it.
    static func outsideRoots(_ ref: String, _ roots: [FileRoot]) -> String {
        let folders = roots.map { "'\($0.shown)'" }.joined(separator: " or ")
        return "'\(ref)' is outside \(folders), the folder a template's files are read from; "
            + "run with --root DIR to read files under DIR too"
    }

    /// `ref` relative to the folder holding `file`, unless it is absolute.
    static func resolve(_ ref: String, relativeTo file: String) -> String {
        if ref.hasPrefix("/") { return ref }
        guard let slash = file.lastIndex(of: "/") else { return ref }
        return String(file[...slash]) + ref
    }

    /// An absolute, normalised path with symbolic links resolved, for telling files apart.
    static func canonicalPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    struct ReadFailure: Error {
        var text: String
        /// Where in the file it failed: its first byte that is not UTF-8.
        var location: SourceLocation?
    }

    /// The file's text, or the system's reason why not (`No such file or directory`).
    static func readText(_ path: String) -> Result<String, ReadFailure> {
        let bytes: [UInt8]
        switch RawIO.readRegularFile(path, limit: RawIO.smallFileLimit) {
        case .success(let b): bytes = b
        case .failure(let e): return .failure(ReadFailure(text: e.message))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // Said at the byte, as a text file's is.
            do {
                _ = try SourceFile(path: path, bytes: bytes)
            } catch {
                return .failure(ReadFailure(text: "the file is not UTF-8 text (\(error.message))", location: error.location))
            }
            return .failure(ReadFailure(text: "the file is not UTF-8 text"))
        }
        return .success(text)
    }

    /// A one-line description in the built-ins' words: "A4, three columns, P052 10/12, justified".
    public static func describe(_ t: Template) -> String {
        var page: String
        if let (size, orientation) = pageSize(width: t.pageWidth, height: t.pageHeight) {
            page = size == .letter ? "US Letter" : size.rawValue.prefix(1).uppercased() + size.rawValue.dropFirst()
            if orientation == "landscape" && size != .ledger { page += " landscape" }
        } else {
            page = "\(TemplateDecoder.plain(t.pageWidth))x\(TemplateDecoder.plain(t.pageHeight)) pt"
        }
        let counts = ["one", "two", "three", "four", "five", "six"]
        let columns = (t.columns <= counts.count ? counts[t.columns - 1] : String(t.columns)) + (t.columns == 1 ? " column" : " columns")
        let body = "\(t.body.face) \(TemplateDecoder.plain(t.body.size))/\(TemplateDecoder.plain(t.body.leading))"
        let alignment =
            switch t.alignment {
            case .justify: "justified"
            case .left: "ragged right"
            case .right: "ragged left"
            case .center: "centred"
            }
        return [page, columns, body, alignment].joined(separator: ", ") + (t.footer.enabled ? "" : ", no footer")
    }

    /// The named size and orientation of a page, when it is exactly one.
    static func pageSize(width: Double, height: Double) -> (PageSize, String)? {
        for size in PageSize.allCases {
            let (w, h) = size.points
            if (w == width && h == height) || (w == height && h == width) {
                return (size, width > height ? "landscape" : "portrait")
            }
        }
        return nil
    }
}
