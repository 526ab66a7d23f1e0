import FoundationEssentials
import GalleyMarkup
import GalleySupport
import Glibc

/// How lines of a paragraph are set across the column. JSON key `alignment`.
///
/// There is no "natural" case: `<p align="natural">` is stored as `.left` for a left-to-right
/// paragraph and `.right` for a right-to-left one (by its `dir`, else its first strong character).
public enum Alignment: String, Sendable, CaseIterable {
    case justify, left, right, center
}

/// What separates paragraphs in the story text. JSON key `paragraphs`.
public enum ParagraphMode: String, Sendable, CaseIterable {
    /// Every line break starts a new paragraph.
    case newline
    /// Paragraphs are separated by an empty line; single line breaks are spaces.
    case blankLine = "blank-line"
}

/// Distances from the four page edges, in points.
public struct EdgeInsets: Equatable, Sendable {
    public var top, right, bottom, left: Double
    /// Facing pages (JSON `inner` and `outer`): `left` is the inner margin and `right` the outer
    /// one, as they are on a right-hand page; left-hand pages swap them, so the wider margin
    /// stays at the spine (or at the fore-edge) across a spread.
    public var mirrored = false

    public init(top: Double, right: Double, bottom: Double, left: Double) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// The same inset on every side.
    public init(all: Double) { self.init(top: all, right: all, bottom: all, left: all) }

    /// Facing-page margins: `inner` at the spine, `outer` at the fore-edge.
    public init(top: Double, inner: Double, bottom: Double, outer: Double) {
        self.init(top: top, right: outer, bottom: bottom, left: inner)
        mirrored = true
    }

    /// The inner and outer margins of facing pages (the left and right ones otherwise).
    public var inner: Double { left }
    public var outer: Double { right }

    /// The margins of page `number` (from 1): mirrored margins are swapped on left-hand pages.
    public func onPage(_ number: Int) -> EdgeInsets {
        guard mirrored, !Template.isRightHand(number) else { return self }
        var m = self
        (m.left, m.right) = (right, left)
        return m
    }
}

/// Typeface, size, leading and colour of running text. JSON key `body`.
public struct TextSpec: Equatable, Sendable {
    /// Font family name, as fontconfig knows it (`"DejaVu Serif"`).
    public var face: String
    /// Font size in points.
    public var size: Double
    /// Baseline-to-baseline distance in points.
    public var leading: Double
    public var color: RGBA

    public init(face: String, size: Double, leading: Double, color: RGBA) {
        self.face = face
        self.size = size
        self.leading = leading
        self.color = color
    }
}

/// A running line at the head or the foot of every page: the running head (JSON key `header`)
/// or the footer with the folio (JSON key `footer`).
public struct RunningLineSpec: Equatable, Sendable {
    public var enabled: Bool
    /// The line, centred: placeholders (`{page}`, `{pages}`, `{title}`, `{section}`, `{issue}`)
    /// are filled in for each page.
    public var text: String
    /// Facing pages: the line of left-hand (even) pages, set flush left, and of right-hand (odd)
    /// pages, set flush right, each at the outer edge of the text; nil uses `text`, centred.
    public var left: String?
    public var right: String?
    public var face: String
    /// Font size in points.
    public var size: Double
    public var color: RGBA

    public init(
        enabled: Bool, text: String, face: String, size: Double, color: RGBA, left: String? = nil, right: String? = nil
    ) {
        self.enabled = enabled
        self.text = text
        self.face = face
        self.size = size
        self.color = color
        self.left = left
        self.right = right
    }

    /// The fields a text may name, each written `{field}`.
    public static let fields = ["page", "pages", "title", "section", "issue"]
    /// The placeholders a text may contain: the fields in braces.
    public static let placeholders = fields.map { "{\($0)}" }

    /// What page `number` shows, unfilled, and how it is set: the side's own text flush to the
    /// outer edge, else `text` centred.
    public func text(onPage number: Int) -> (text: String, alignment: Alignment) {
        let rightHand = Template.isRightHand(number)
        if let own = rightHand ? right : left { return (own, rightHand ? .right : .left) }
        return (text, .center)
    }

    /// Whether any of the texts names `field` (`"pages"`): the page count is then counted first.
    public func names(_ field: String) -> Bool {
        [text, left, right].contains { $0?.contains("{\(field)}") == true }
    }

    /// `text` with `{page}` and `{pages}` filled in.
    public func text(page: Int, pages: Int) -> String {
        Self.fill(text, ["page": String(page), "pages": String(pages)])
    }

    /// `text` with each `{field}` of `values` replaced by its value, in one pass (so a title
    /// holding `{page}` stays as written); fields without a value become empty, and other
    /// braces are left alone.
    public static func fill(_ text: String, _ values: [String: String]) -> String {
        // Pieces: text as written, or a field's value.
        var pieces: [(text: String, field: Bool)] = []
        var literal = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), fields.contains(String(after[..<close])) {
                pieces += [(literal, false), (values[String(after[..<close])] ?? "", true)]
                literal = ""
                rest = after[after.index(after: close)...]
            } else {
                literal += "{"
                rest = after
            }
        }
        pieces.append((literal + rest, false))
        return withoutSeparatorsOfEmptyFields(pieces).map(\.text).joined()
    }

    /// `pieces` less the separators of each empty field ("{issue} · {section}" without a
    /// section left "No. 12 ·", and without either a lone "·"): the text after it when that is
    /// only spaces and punctuation, else the text before it when that is.
    static func withoutSeparatorsOfEmptyFields(_ pieces: [(text: String, field: Bool)]) -> [(text: String, field: Bool)] {
        var pieces = pieces
        func isSeparator(_ k: Int) -> Bool {
            pieces.indices.contains(k) && !pieces[k].field && !pieces[k].text.isEmpty
                && pieces[k].text.allSatisfy { $0.isWhitespace || $0.isPunctuation || $0.isSymbol }
        }
        for k in pieces.indices where pieces[k].field && pieces[k].text.isEmpty {
            if isSeparator(k + 1) && (k + 2 < pieces.count) {
                pieces[k + 1].text = ""
            } else if isSeparator(k - 1) {
                pieces[k - 1].text = ""
            }
        }
        return pieces
    }
}

/// The running footer (JSON key `footer`) and the running head (JSON key `header`).
public typealias FooterSpec = RunningLineSpec
public typealias HeaderSpec = RunningLineSpec

/// Everything about a publication's look that is not in the story: page, grid, body type, footer.
///
/// Templates are built in (see `builtins`) or read from JSON by `TemplateLoader`. All lengths
/// are in points.
public struct Template: Equatable, Sendable {
    /// The template's name (`magazine`). JSON key `name`.
    public var name: String
    /// One line, shown by `galley templates`. JSON key `description`.
    public var summary: String
    /// Page size in points. JSON key `page`.
    public var pageWidth: Double, pageHeight: Double
    /// The paper: every page is filled with it before anything is drawn, in the PDF as in PNG
    /// previews; `nil` (JSON `"none"`, or a fully transparent colour) leaves PDF pages
    /// transparent. JSON key `page.color`.
    public var pageColor: RGBA? = .white
    /// JSON key `margins`.
    public var margins: EdgeInsets
    /// Number of text columns, 1 to 12. JSON key `columns`.
    public var columns: Int
    /// Space between columns. JSON key `gutter`.
    public var gutter: Double
    /// JSON key `body`.
    public var body: TextSpec
    /// Space after each paragraph, points. JSON key `paragraphSpacing`.
    public var paragraphSpacing: Double
    /// Indent of each paragraph's first line, points. JSON key `firstLineIndent`.
    public var firstLineIndent: Double
    /// Which paragraphs take `firstLineIndent`. JSON key `firstLineIndentRule`.
    public var firstLineIndentRule = IndentRule.conventional
    /// JSON key `alignment`.
    public var alignment: Alignment
    /// JSON key `paragraphs`.
    public var paragraphMode: ParagraphMode
    /// BCP 47, e.g. "en", "zh-Hans": drives hyphenation and line breaking. JSON key `language`.
    public var language: String
    /// Tried after the run's face, in order, for characters it lacks. JSON key `fallback`.
    public var fallbackFaces: [String]
    /// Tried before `fallbackFaces` for text of a script, by ISO 15924 code (`"Hani"`): JSON
    /// `fallback` given as an object.
    public var scriptFallbacks: [String: [String]] = [:]
    /// Folders of the project's own fonts, used ahead of the installed ones. JSON key `fonts`
    /// (paths relative to the template file).
    public var fontFolders: [String] = []
    /// JSON key `footer`.
    public var footer: FooterSpec
    /// The running head, off in the built-ins. JSON key `header`.
    public var header = HeaderSpec(enabled: false, text: "{title}", face: "DejaVu Serif", size: 8, color: RGBA(0.5, 0.5, 0.5))
    /// How lines are broken. JSON key `lineBreaking`.
    public var lineBreaking: LineBreaking = .totalFit
    /// JSON key `hyphenation`.
    public var hyphenation = HyphenationSpec()
    /// Least lines of a paragraph left alone at the top of a column (widows) and at the
    /// foot of one (orphans) when the paragraph is split. JSON keys `widows`, `orphans`.
    public var widows = 2
    public var orphans = 2
    /// Lines of the following paragraph a heading (a short display paragraph) keeps with it.
    /// JSON key `keepWithNext`.
    public var keepWithNext = 2
    /// Body lines of every column sit on one grid of `body.leading`; headings, images and
    /// spacing return the text to it. JSON key `baselineGrid`.
    public var baselineGrid = true
    /// The columns of a page end on the same baseline (or one line apart) at the story's end and
    /// before a `<pagebreak>`. Above an element that spans the columns they always do. JSON key
    /// `balance`.
    public var balance = true
    /// Where a block image that does not fit the rest of its column goes. JSON key `blockImages`.
    public var blockImages = BlockImagePolicy.deferred
    /// Drop caps: how they are set, and which paragraphs get one without asking. JSON key
    /// `dropcap`.
    public var dropCap = DropCapSpec()
    /// How `<h1>`, `<h2>` and `<h3>` are set. JSON key `headings`.
    public var headings = HeadingsSpec()
    /// Named paragraph and character styles, applied with `class="name"`. JSON key `styles`.
    public var styles: [NamedStyle] = []
    /// What `<a href>` adds to the text's style. JSON key `link`.
    public var link = LinkSpec()
    /// Captions under images. JSON key `caption`.
    public var caption = CaptionSpec()
    /// Narrowest interval beside a float that text goes into, points. JSON key `wrapMinWidth`.
    public var wrapMinWidth = 30.0
    /// Social text (@mentions, #topics#, URLs, [emoticons]). JSON key `social`.
    public var social = SocialSpec()
    /// A thin space between CJK and Latin letters or digits that touch (CJK/Latin auto-spacing).
    /// JSON key `cjkAutoSpacing`.
    public var cjkAutoSpacing = false
    /// Typographic punctuation: curly quotes, apostrophes, dashes. JSON key `typography`.
    public var typography = TypographySpec()
    /// Chinese punctuation: compression and hanging (clreq). JSON key `cjk`.
    public var cjk = CJKSpec()
    /// The most pixels an image may have (width × height): decoding one costs 4 bytes a pixel,
    /// so this bounds an image's memory. JSON key `maxImagePixels`, 100 megapixels by default.
    public var maxImagePixels = 100_000_000
    /// The folio of the first page: pages are numbered from it, in the footer and in the PDF's
    /// page labels. JSON key `startPage`.
    public var startPage = 1
    /// What a printer's sheet adds around the page with `--press`: bleed, slug and marks.
    /// JSON key `print`.
    public var print = PrintSpec()
    /// The limit on `maxImagePixels` itself: Cairo's largest image, 32767 pixels a side.
    public static let largestImagePixels = 32767 * 32767

    public init(
        name: String, summary: String, pageWidth: Double, pageHeight: Double, margins: EdgeInsets,
        columns: Int, gutter: Double, body: TextSpec, paragraphSpacing: Double, firstLineIndent: Double,
        alignment: Alignment, paragraphMode: ParagraphMode, language: String, fallbackFaces: [String],
        footer: FooterSpec
    ) {
        self.name = name
        self.summary = summary
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.margins = margins
        self.columns = columns
        self.gutter = gutter
        self.body = body
        self.paragraphSpacing = paragraphSpacing
        self.firstLineIndent = firstLineIndent
        self.alignment = alignment
        self.paragraphMode = paragraphMode
        self.language = language
        self.fallbackFaces = fallbackFaces
        self.footer = footer
    }

    /// Width of one text column: what is left of the page width after the margins and the
    /// gutters, shared by the columns. `TemplateLoader` refuses templates where this is below 1 pt.
    public var columnWidth: Double {
        (pageWidth - margins.left - margins.right - gutter * Double(columns - 1)) / Double(columns)
    }

    /// Height of the text area: the page height less the top and bottom margins.
    public var textHeight: Double { pageHeight - margins.top - margins.bottom }

    /// The built-in templates: magazine, letter, tabloid, pocket, tablet.
    public static var builtins: [Template] { BuiltinTemplates.all }

    /// The built-in template with this name (ignoring case), if there is one.
    public static func builtin(named name: String) -> Template? {
        let key = name.lowercased()
        return BuiltinTemplates.all.first { $0.name == key }
    }

    /// Page 1 is a right-hand page (recto), and so is every odd page.
    public static func isRightHand(_ number: Int) -> Bool { number % 2 != 0 }

    /// The template used when none is chosen: `magazine`.
    public static let `default`: Template = BuiltinTemplates.magazine
}

/// The look of one heading level. JSON keys `headings.h1` … `headings.h3`.
public struct HeadingSpec: Equatable, Sendable {
    /// Font face, as for `<font face>`. JSON key `face`.
    public var face: String
    /// Font size in points. JSON key `size`.
    public var size: Double
    /// Font weight 100–900. JSON key `weight` (a number, or "bold" / "normal").
    public var weight: Int
    /// JSON key `color`.
    public var color: RGBA
    /// Space before and after the heading, points. JSON keys `before`, `after`.
    public var before: Double
    public var after: Double
    /// Set across every column of the page (`"all"`) or in its column (`"none"`). JSON key `span`.
    public var span: Bool

    public init(face: String, size: Double, weight: Int, color: RGBA, before: Double, after: Double, span: Bool = false) {
        self.face = face
        self.size = size
        self.weight = weight
        self.color = color
        self.before = before
        self.after = after
        self.span = span
    }
}

/// The three heading levels. JSON key `headings`: `{"h1": {…}, "h2": {…}, "h3": {…}}`.
public struct HeadingsSpec: Equatable, Sendable {
    public var h1: HeadingSpec
    public var h2: HeadingSpec
    public var h3: HeadingSpec

    /// The built-ins' headings (all but tablet): DejaVu Sans bold #222222 at 20, 15 and 12 pt,
    /// with 12/6, 9/4 and 6/3 pt before/after.
    public init(
        h1: HeadingSpec = HeadingSpec(face: "DejaVu Sans", size: 20, weight: 700, color: headingGray, before: 12, after: 6),
        h2: HeadingSpec = HeadingSpec(face: "DejaVu Sans", size: 15, weight: 700, color: headingGray, before: 9, after: 4),
        h3: HeadingSpec = HeadingSpec(face: "DejaVu Sans", size: 12, weight: 700, color: headingGray, before: 6, after: 3)
    ) {
        self.h1 = h1
        self.h2 = h2
        self.h3 = h3
    }

    /// `#222222`, the built-ins' heading colour.
    public static let headingGray = RGBA(34.0 / 255, 34.0 / 255, 34.0 / 255)

    /// The JSON names of the levels, in order.
    public static let levels = ["h1", "h2", "h3"]

    /// The spec of level 1, 2 or 3.
    public subscript(level: Int) -> HeadingSpec {
        get {
            switch level {
            case 1: h1
            case 2: h2
            default: h3
            }
        }
        set {
            switch level {
            case 1: h1 = newValue
            case 2: h2 = newValue
            default: h3 = newValue
            }
        }
    }
}

/// Drop caps: the initial's look, and the paragraphs that get one from the template. JSON key
/// `dropcap`: `{"lines": 3, "face": "DejaVu Serif", "color": "#222222", "after": "none"}`.
public struct DropCapSpec: Equatable, Sendable {
    /// How many lines tall a drop cap the template gives is, 2–10. JSON key `dropcap.lines`.
    public var lines: Int
    /// The initial's face and colour, for every drop cap (`<p dropcap>` as well). JSON keys
    /// `dropcap.face`, `dropcap.color`.
    public var face: String
    public var color: RGBA
    /// The first paragraph after a heading of this level (1–3) gets a drop cap; 0 (JSON
    /// `"none"`) gives none. JSON key `dropcap.after`: h1, h2, h3 or none.
    public var after: Int

    /// The built-ins' drop caps (but tablet's, which are Helvetica): three lines of DejaVu Serif
    /// in #222222, given by no heading.
    public init(lines: Int = 3, face: String = "DejaVu Serif", color: RGBA = HeadingsSpec.headingGray, after: Int = 0) {
        self.lines = lines
        self.face = face
        self.color = color
        self.after = after
    }

    /// The lines a drop cap may be tall.
    public static let lineRange = 2...10
    /// The JSON names of `after`, by level (0 is `none`).
    public static let afterNames = ["none", "h1", "h2", "h3"]
}

/// What a link (`<a href>`) adds to the style of its text. JSON key `link`.
public struct LinkSpec: Equatable, Sendable {
    /// The link text's colour. JSON key `link.color`.
    public var color: RGBA
    /// An underline for links; nil (JSON `"none"`) leaves the text's underline as it is.
    /// JSON key `link.underline`: single, double, thick, dotted, dashed, wavy or none.
    public var underline: LineStyle?

    /// The built-ins' link style: #1F4E8C, no underline.
    public init(color: RGBA = RGBA(0x1F / 255.0, 0x4E / 255.0, 0x8C / 255.0), underline: LineStyle? = nil) {
        self.color = color
        self.underline = underline
    }
}

/// The caption style. JSON key `caption`.
public struct CaptionSpec: Equatable, Sendable {
    /// JSON keys `caption.face`, `caption.size` (points), `caption.color`, `caption.italic`.
    public var face: String
    public var size: Double
    public var color: RGBA
    public var italic: Bool
    /// Space between an image and its caption, points. JSON key `caption.gap`.
    public var gap: Double

    /// The built-ins' captions (but tablet's, which are Helvetica): DejaVu Serif italic 8.5 pt
    /// #404040, 4 pt under the image.
    public init(
        face: String = "DejaVu Serif", size: Double = 8.5, color: RGBA = RGBA(0x40 / 255.0, 0x40 / 255.0, 0x40 / 255.0),
        italic: Bool = true, gap: Double = 4
    ) {
        self.face = face
        self.size = size
        self.color = color
        self.italic = italic
        self.gap = gap
    }
}

/// How one kind of social text looks and where it links. JSON keys `social.mention`,
/// `social.topic`, `social.url`.
public struct SocialStyleSpec: Equatable, Sendable {
    /// JSON keys `color`, `weight` (100–900, or "bold" / "normal").
    public var color: RGBA
    public var weight: Int
    /// Link pattern: `{name}` / `{topic}` is replaced by the percent-encoded text. JSON key `url`
    /// (not used for URLs, which link to themselves).
    public var url: String

    public init(color: RGBA, weight: Int = 400, url: String = "") {
        self.color = color
        self.weight = weight
        self.url = url
    }
}

/// Social text settings. JSON key `social`.
public struct SocialSpec: Equatable, Sendable {
    /// Detect social text everywhere (else only in `<social>` blocks, or with `--social`).
    /// JSON key `social.enabled`.
    public var enabled: Bool
    /// JSON keys `social.mention`, `social.topic`, `social.url`.
    public var mention: SocialStyleSpec
    public var topic: SocialStyleSpec
    public var url: SocialStyleSpec
    /// Emoticon pack folders added to the built-in pack. JSON key `social.emoticons`, where
    /// they are relative to the template file's folder; stored resolved against it.
    public var emoticons: [String]

    /// The built-ins' settings: off; mentions #1F6FB2 linking to Weibo, topics #C45A1B linking
    /// to a Weibo search, URLs #1F4E8C, all weight 400; no pack folders.
    public init(
        enabled: Bool = false,
        mention: SocialStyleSpec = SocialStyleSpec(
            color: RGBA(0x1F / 255.0, 0x6F / 255.0, 0xB2 / 255.0), url: "https://weibo.com/n/{name}"),
        topic: SocialStyleSpec = SocialStyleSpec(
            color: RGBA(0xC4 / 255.0, 0x5A / 255.0, 0x1B / 255.0), url: "https://s.weibo.com/weibo?q=%23{topic}%23"),
        url: SocialStyleSpec = SocialStyleSpec(color: RGBA(0x1F / 255.0, 0x4E / 255.0, 0x8C / 255.0)),
        emoticons: [String] = []
    ) {
        self.enabled = enabled
        self.mention = mention
        self.topic = topic
        self.url = url
        self.emoticons = emoticons
    }
}

/// Typographic punctuation, made from what a keyboard types. JSON key `typography`.
public struct TypographySpec: Equatable, Sendable {
    /// Straight quotes become the language's quotation marks, and apostrophes ’. JSON key
    /// `typography.smartQuotes`.
    public var smartQuotes: Bool
    /// `--` becomes an en dash, `---` an em dash and `...` an ellipsis. JSON key
    /// `typography.dashes`.
    public var dashes: Bool
    /// The quotation marks of Chinese and Japanese text. JSON key `typography.cjkQuotes`.
    public var cjkQuotes: CJKQuotes

    /// The built-ins' settings: smart quotes on, dashes off, curly CJK quotes.
    public init(smartQuotes: Bool = true, dashes: Bool = false, cjkQuotes: CJKQuotes = .curly) {
        self.smartQuotes = smartQuotes
        self.dashes = dashes
        self.cjkQuotes = cjkQuotes
    }
}

/// How CJK punctuation is set (clreq §3.1): JSON key `cjk`.
public struct CJKSpec: Equatable, Sendable {
    /// `cjk.punctuation`: the width of full-width punctuation marks.
    public var punctuation: CJKPunctuationWidth
    /// `cjk.hanging`: 。，、 at a line's end may hang past the right edge when the line needs it.
    public var hanging: Bool

    /// clreq's default: compression, no hanging.
    public init(punctuation: CJKPunctuationWidth = .compress, hanging: Bool = false) {
        self.punctuation = punctuation
        self.hanging = hanging
    }
}

/// The width of CJK punctuation marks (标点挤压).
public enum CJKPunctuationWidth: String, Sendable, CaseIterable {
    /// clreq's default: adjacent marks share half an em of blank, and a line may compress its
    /// marks (its first opening bracket, its last closing mark) to half width when it needs to.
    case compress
    /// Every mark a full em, as the font draws it.
    case full
    /// Every mark half an em (the font's `halt` forms).
    case half
}

/// The press sheet around each page (`--press`): the bleed that page-colour, backgrounds and
/// bleeding images run into, and the slug outside it where the marks go. JSON key `print`.
public struct PrintSpec: Equatable, Sendable {
    /// How far past the trim what touches it is drawn, points. JSON key `print.bleed`.
    public var bleed: Double
    /// The width of the area outside the bleed that holds the marks, points. JSON key
    /// `print.slug`.
    public var slug: Double
    /// The marks drawn in the slug, in `PrintMark` order. JSON key `print.marks`.
    public var marks: [PrintMark]

    /// The most bleed a template may ask for: printers ask for 3 to 5 mm, and 20 mm is past
    /// any press's need while keeping the sheet within reach of PDF's page limits.
    public static let largestBleed = LengthUnit.mm.of(20)
    /// The narrowest slug that holds marks: a crop mark's length and its gap from the bleed.
    public static let narrowestMarkedSlug = LengthUnit.mm.of(5)
    /// The widest slug: the marks never need more, and a slug is paper that is thrown away.
    public static let widestSlug = LengthUnit.mm.of(50)

    /// 3 mm of bleed, the usual printer's request; a 10 mm slug with every mark.
    public init(bleed: Double = LengthUnit.mm.of(3), slug: Double = LengthUnit.mm.of(10), marks: [PrintMark] = PrintMark.allCases) {
        self.bleed = bleed
        self.slug = slug
        self.marks = marks
    }
}

/// A mark in the slug of a press sheet.
public enum PrintMark: String, Sendable, CaseIterable {
    /// Lines at the corners, on the trim's edges extended, where the sheet is cut.
    case crop
    /// Targets at the middle of each side, for the press to align the plates.
    case registration
    /// A line of text under the page: file, page and date.
    case slug
}

/// Which quotation marks Chinese and Japanese text gets.
public enum CJKQuotes: String, Sendable, CaseIterable {
    /// “…” and ‘…’, as most Chinese text is typed.
    case curly
    /// 「…」 and 『…』 inside.
    case corner
}

/// Line-breaking strategy. JSON key `lineBreaking`.
/// Where a block image (the tutorial's `<img>` at column width) goes when it does not fit the
/// rest of its column.
public enum BlockImagePolicy: String, Sendable, CaseIterable {
    /// The text after it goes on in the column, and the image opens the next one: no column is
    /// left empty below its text.
    case deferred = "defer"
    /// The Core Text tutorial's strict order: the image opens the next column, and the rest of
    /// its column stays empty.
    case inOrder
}

/// Which paragraphs a template's first-line indent applies to.
public enum IndentRule: String, Sendable, CaseIterable {
    /// The book and magazine convention: not the first paragraph, nor one after a heading, an
    /// image, an empty line or a column or page break (the space above already marks the
    /// start), nor a centred or right-aligned one (a deck, a byline, a pull quote).
    case conventional
    /// Every paragraph.
    case every
}

public enum LineBreaking: String, Sendable, CaseIterable {
    /// Knuth–Plass: the best breaks for the whole paragraph (the default).
    case totalFit = "total-fit"
    /// First fit, line by line (what a PangoLayout does).
    case greedy
}

/// Hyphenation settings. JSON key `hyphenation`.
public struct HyphenationSpec: Equatable, Sendable {
    /// JSON key `hyphenation.enabled`.
    public var enabled: Bool
    /// Shortest word hyphenated, characters. JSON key `hyphenation.minWord`.
    public var minWord: Int
    /// Least characters before / after a hyphen. JSON keys `hyphenation.leftMin`, `hyphenation.rightMin`.
    public var leftMin: Int
    public var rightMin: Int
    /// Hyphenate words in capitals. JSON key `hyphenation.capitals`.
    public var capitals: Bool
    /// Most consecutive hyphenated lines. JSON key `hyphenation.maxConsecutive`.
    public var maxConsecutive: Int
    /// Allow the last line of a column to end with a hyphen. JSON key `hyphenation.acrossColumns`.
    public var acrossColumns: Bool
    /// On a measure narrower than this many ems of the body size (0: never), shorter words are
    /// hyphenated and more hyphens run on: `narrowMinWord` and `narrowMaxConsecutive` replace
    /// `minWord` and `maxConsecutive`. JSON keys `hyphenation.narrowMeasure`, `…narrowMinWord`,
    /// `…narrowMaxConsecutive`.
    public var narrowMeasure: Int = 20
    public var narrowMinWord: Int = 5
    public var narrowMaxConsecutive: Int = 3

    /// The defaults are the built-ins' settings.
    public init(
        enabled: Bool = true, minWord: Int = 6, leftMin: Int = 2, rightMin: Int = 3, capitals: Bool = false,
        maxConsecutive: Int = 2, acrossColumns: Bool = false
    ) {
        self.enabled = enabled
        self.minWord = minWord
        self.leftMin = leftMin
        self.rightMin = rightMin
        self.capitals = capitals
        self.maxConsecutive = maxConsecutive
        self.acrossColumns = acrossColumns
    }
}

/// Named paper sizes for the JSON key `page.size`: ISO 216's A and B series and the US sizes.
public enum PageSize: String, Sendable, CaseIterable {
    case a0 = "A0", a1 = "A1", a2 = "A2", a3 = "A3", a4 = "A4", a5 = "A5", a6 = "A6", a7 = "A7", a8 = "A8", a9 = "A9"
    case a10 = "A10"
    case b0 = "B0", b1 = "B1", b2 = "B2", b3 = "B3", b4 = "B4", b5 = "B5", b6 = "B6", b7 = "B7", b8 = "B8", b9 = "B9"
    case b10 = "B10"
    case letter, legal, tabloid, ledger

    /// Width and height in points, in the size's usual orientation: portrait for all but
    /// `ledger`, which is tabloid turned sideways (17 × 11 in).
    public var points: (width: Double, height: Double) {
        switch self {
        case .letter: return (LengthUnit.in.of(8.5), LengthUnit.in.of(11))
        case .legal: return (LengthUnit.in.of(8.5), LengthUnit.in.of(14))
        case .tabloid: return (LengthUnit.in.of(11), LengthUnit.in.of(17))
        case .ledger: return (LengthUnit.in.of(17), LengthUnit.in.of(11))
        default:
            let mm = PageSize.iso[rawValue] ?? (0, 0)  // every other case is in the table
            return (LengthUnit.mm.of(mm.0), LengthUnit.mm.of(mm.1))
        }
    }

    /// ISO 216's sizes in millimetres, as the standard rounds them (each halving rounded down).
    private static let iso: [String: (Double, Double)] = [
        "A0": (841, 1189), "A1": (594, 841), "A2": (420, 594), "A3": (297, 420), "A4": (210, 297), "A5": (148, 210),
        "A6": (105, 148), "A7": (74, 105), "A8": (52, 74), "A9": (37, 52), "A10": (26, 37),
        "B0": (1000, 1414), "B1": (707, 1000), "B2": (500, 707), "B3": (353, 500), "B4": (250, 353), "B5": (176, 250),
        "B6": (125, 176), "B7": (88, 125), "B8": (62, 88), "B9": (44, 62), "B10": (31, 44),
    ]

    /// The size named `name`, ignoring case.
    public init?(named name: String) {
        guard let s = PageSize.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = s
    }
}

/// The shape of an underline or strikethrough.
public enum LineStyle: String, Hashable, Sendable, CaseIterable {
    case single, double, thick, dotted, dashed, wavy
}
