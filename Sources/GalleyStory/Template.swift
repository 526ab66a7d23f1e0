import Foundation
import GalleyMarkup

/// How lines of a paragraph are set across the column. JSON key `alignment`.
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

    public init(top: Double, right: Double, bottom: Double, left: Double) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// The same inset on every side.
    public init(all: Double) { self.init(top: all, right: all, bottom: all, left: all) }
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

/// The running footer with the folio. JSON key `footer`.
public struct FooterSpec: Equatable, Sendable {
    public var enabled: Bool
    /// The footer line: `{page}` is replaced by the folio, `{pages}` by the page count.
    public var text: String
    public var face: String
    /// Font size in points.
    public var size: Double
    public var color: RGBA

    public init(enabled: Bool, text: String, face: String, size: Double, color: RGBA) {
        self.enabled = enabled
        self.text = text
        self.face = face
        self.size = size
        self.color = color
    }

    /// The placeholders `text` may contain.
    public static let placeholders = ["{page}", "{pages}"]

    /// `text` with `{page}` and `{pages}` filled in.
    public func text(page: Int, pages: Int) -> String {
        text.replacingOccurrences(of: "{pages}", with: String(pages))
            .replacingOccurrences(of: "{page}", with: String(page))
    }
}

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
    /// JSON key `alignment`.
    public var alignment: Alignment
    /// JSON key `paragraphs`.
    public var paragraphMode: ParagraphMode
    /// BCP 47, e.g. "en", "zh-Hans": drives hyphenation and line breaking. JSON key `language`.
    public var language: String
    /// Tried after the run's face, in order, for characters it lacks. JSON key `fallback`.
    public var fallbackFaces: [String]
    /// JSON key `footer`.
    public var footer: FooterSpec
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

    /// The template used when none is chosen: `magazine`.
    public static let `default`: Template = BuiltinTemplates.magazine
}

/// Line-breaking strategy. JSON key `lineBreaking`.
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

/// Named paper sizes for the JSON key `page.size`.
public enum PageSize: String, Sendable, CaseIterable {
    case a3 = "A3", a4 = "A4", a5 = "A5", a6 = "A6", b5 = "B5"
    case letter, legal, tabloid, ledger

    /// Width and height in points, in the size's usual orientation: portrait for all but
    /// `ledger`, which is tabloid turned sideways (17 × 11 in).
    public var points: (width: Double, height: Double) {
        switch self {
        case .a3: (LengthUnit.mm.of(297), LengthUnit.mm.of(420))
        case .a4: (LengthUnit.mm.of(210), LengthUnit.mm.of(297))
        case .a5: (LengthUnit.mm.of(148), LengthUnit.mm.of(210))
        case .a6: (LengthUnit.mm.of(105), LengthUnit.mm.of(148))
        case .b5: (LengthUnit.mm.of(176), LengthUnit.mm.of(250))
        case .letter: (LengthUnit.in.of(8.5), LengthUnit.in.of(11))
        case .legal: (LengthUnit.in.of(8.5), LengthUnit.in.of(14))
        case .tabloid: (LengthUnit.in.of(11), LengthUnit.in.of(17))
        case .ledger: (LengthUnit.in.of(17), LengthUnit.in.of(11))
        }
    }

    /// The size named `name`, ignoring case.
    public init?(named name: String) {
        guard let s = PageSize.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = s
    }
}
