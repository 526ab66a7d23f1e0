import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

// The preflight (`galley check --preflight`, and every `--press` build): what a printer would
// reject or regret, read from the laid-out pages (what the renderer will draw), not from the
// PDF. Each kind of finding is one function in `Preflight.pageChecks` (PreflightChecks.swift),
// or, for what is known only once every page is seen, a step of `finish()`.

/// What a finding is about: one kind per check.
public enum PreflightKind: String, Sendable, CaseIterable, Encodable {
    case lowResolution = "low-resolution"
    case smallText = "small-text"
    case thinRule = "thin-rule"
    case overset
    case missingGlyph = "missing-glyph"
    case noBleed = "no-bleed"
    case fontLicence = "font-licence"
    case inkCoverage = "ink-coverage"
    case imageColour = "image-colour"
}

/// One thing the preflight found.
public struct PreflightFinding: Sendable, Equatable {
    public var kind: PreflightKind
    public var severity: Severity
    /// The page of the PDF it is on, from 1.
    public var page: Int
    /// The source file and the place in it, when the finding has one (a running footer's size
    /// is the template's, a cover image the manifest's).
    public var file: String?
    public var location: SourceLocation?
    public var length = 1
    /// What is wrong and what to do, without the page (`diagnostic` adds it).
    public var message: String
    /// The measure, when there is one: an image's ppi, text's size or a rule's width in points.
    public var value: Double?
    /// What it is about, when it is a file or a character: the image's or the font's file,
    /// the missing character ("U+12000").
    public var subject: String?

    public init(
        _ kind: PreflightKind, _ severity: Severity = .warning, page: Int, file: String?, at location: SourceLocation?,
        length: Int = 1, _ message: String, value: Double? = nil, subject: String? = nil
    ) {
        self.kind = kind
        self.severity = severity
        self.page = page
        self.file = file
        self.location = location
        self.length = length
        self.message = message
        self.value = value
        self.subject = subject
    }

    /// The finding as a compiler-style diagnostic: "page 3: … [low-resolution]".
    public var diagnostic: Diagnostic {
        Diagnostic(severity, "page \(page): \(message) [\(kind.rawValue)]", file: file, at: location, length: length)
    }
}

/// The preflight's thresholds.
public enum PreflightLimits {
    /// Offset screens print at up to 150 lines per inch, and an image needs two pixels per line
    /// to hold its detail: printers ask for 300 ppi at the printed size.
    public static let imagePPI = 300.0
    /// Below half of that the pixels themselves show in print: an error with `--strict`.
    public static let strictImagePPI = 150.0
    /// Smaller type fills in and misregisters in colour on coated stock, and breaks up on
    /// uncoated: 6 pt is the floor printers and legibility guides give.
    public static let textSize = 6.0
    /// Hairlines thinner than a quarter point break up or vanish on a plate (many RIPs and
    /// Acrobat's own preflight flag them): 0.25 pt is the usual minimum rule.
    public static let ruleWidth = 0.25
}

/// Runs the checks over pages as they are laid out (or drawn) and collects what they find,
/// each thing once.
public struct Preflight {
    public internal(set) var findings: [PreflightFinding] = []
    /// `--strict`: the findings that spoil the print are errors.
    public let strict: Bool
    /// What has been reported already (see `once(_:_:)`).
    private var reported: Set<String> = []
    /// Each font the pages are set in, with the page it is first used on and a framesetter
    /// whose engine can load it.
    var fonts: [(key: FontKey, page: Int, framesetter: Framesetter)] = []
    var fontKeys: Set<FontKey> = []
    /// Renderers made to measure decorations as they are drawn, one per story.
    var renderers: [ObjectIdentifier: PageRenderer] = [:]
    /// The images each page of the PDF shows, where they are drawn on it: what an ink finding
    /// names when its spots fall on one.
    var pictures: [Int: [InkSubject]] = [:]

    public init(strict: Bool) { self.strict = strict }

    /// The checks each page goes through, in order: a new kind of finding is one more here.
    static let pageChecks: [@Sendable (inout Preflight, PreflightPage) -> Void] = [
        { $0.checkImages($1) }, { $0.checkTextSize($1) }, { $0.checkRules($1) }, { $0.checkOverset($1) },
        { $0.checkMissingGlyphs($1) }, { $0.checkTrim($1) }, { $0.collectFonts($1) },
    ]

    /// Checks a laid-out page of `framesetter`'s story, page `index` of the PDF (from 1),
    /// on a sheet whose bleed is `bleed` points (the template's `print.bleed`).
    public mutating func check(_ page: Page, of framesetter: Framesetter, index: Int, bleed: Double) {
        check(PreflightPage(page: page, index: index, framesetter: framesetter, bleed: bleed, nested: false))
    }

    private mutating func check(_ p: PreflightPage) {
        for check in Self.pageChecks { check(&self, p) }
        // A pull quote's or sidebar's text is a page of its own, drawn in its box.
        for placed in p.page.floats + p.page.frames.flatMap(\.images) {
            guard let set = placed.block, let inner = set.page else { continue }
            check(PreflightPage(page: inner, index: p.index, framesetter: set.framesetter, bleed: 0, nested: true))
        }
    }

    /// Adds a finding made elsewhere (a check that reads the PDF, such as ink coverage).
    public mutating func add(_ finding: PreflightFinding) { findings.append(finding) }

    /// Adds `finding` the first time `key` is met: a thing is reported once, however many
    /// lines or pages show it.
    mutating func once(_ key: String, _ finding: PreflightFinding) {
        guard reported.insert(key).inserted else { return }
        findings.append(finding)
    }

    /// The severity of a finding of `kind`: with `--strict`, what spoils the print (an image
    /// under 150 ppi, text lost or drawn as boxes, a font that may not be embedded) is an error.
    func severity(_ kind: PreflightKind, ppi: Double = .infinity) -> Severity {
        guard strict else { return .warning }
        switch kind {
        case .lowResolution: return ppi < PreflightLimits.strictImagePPI ? .error : .warning
        case .overset, .missingGlyph, .fontLicence: return .error
        case .smallText, .thinRule, .noBleed, .inkCoverage, .imageColour: return .warning
        }
    }

    /// The ink of `press`'s pages when it converted to CMYK (measured once its PDF is made);
    /// nothing for another build.
    public mutating func checkInk(of press: PressOutput?) {
        for f in inkFindings(of: press) { add(f) }
    }

    /// What `checkInk(of:)` adds, for a build whose other findings are reported already.
    public func inkFindings(of press: PressOutput?) -> [PreflightFinding] {
        // (Measured on the trim: `InkMeter`.)
        guard let press, let measured = press.cmyk?.ink.pages else { return [] }
        return inkFindings(measured, margin: 0)
    }

    /// A page whose ink goes over the limit anywhere, or why it could not be measured; the
    /// spots are located on the sheet, whose trim starts `margin` points in.
    func inkFindings(_ measured: Result<[InkCoverage], RenderError>, margin: Double) -> [PreflightFinding] {
        switch measured {
        case .failure(let e):
            return [PreflightFinding(.inkCoverage, page: 1, file: nil, at: nil, e.diagnostic.message)]
        case .success(let pages):
            return pages.filter { $0.maximum > InkMeter.limit + 0.5 }.map { p in
                let share = p.overLimit * 100
                let area = share < 0.1 ? "a spot" : "\(Self.oneDecimal(share)) % of the page"
                // The spots' box on the trim, where the images were placed.
                let culprit = p.hot.flatMap { hot in
                    let onPage = Rect(x: hot.x - margin, y: hot.y - margin, width: hot.width, height: hot.height)
                    return InkSubject.most(of: pictures[p.page] ?? [], under: onPage)
                }
                let message =
                    "total ink reaches \(Int(p.maximum.rounded())) % over \(area)"
                    + (culprit.map { " in image '\($0.name)'" } ?? "")
                    + " (the press takes at most \(Int(InkMeter.limit)) %);"
                    + (culprit == nil ? " lighten the darkest colours" : " lighten its darkest tones") + " or use the printer's profile"
                return PreflightFinding(
                    .inkCoverage, severity(.inkCoverage), page: p.page, file: culprit?.file, at: culprit?.location,
                    length: culprit?.length ?? 1, message, value: p.maximum, subject: culprit?.path)
            }
        }
    }

    static func oneDecimal(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// What is known once every page has been seen: the fonts' licences.
    public mutating func finish() {
        checkFontLicences()
    }

    /// The findings in the order of the PDF's pages, each page's in the order found.
    public var inPageOrder: [PreflightFinding] {
        findings.enumerated().sorted { ($0.element.page, $0.offset) < ($1.element.page, $1.offset) }.map(\.element)
    }

    public var hasErrors: Bool { findings.contains { $0.severity == .error } }
}

/// A page as the checks see it: the page, where it is in the PDF, and its story.
struct PreflightPage {
    var page: Page
    /// The page of the PDF, from 1.
    var index: Int
    var framesetter: Framesetter
    /// How far the sheet's bleed reaches past the trim.
    var bleed: Double
    /// A pull quote's or sidebar's text, drawn inside its box: its edges are the box's, not
    /// the trim, and what does not fit the box is the host page's overset.
    var nested: Bool

    /// Every placed line, with the paragraph bytes it holds (its trailing space included)
    /// and what its paragraph holds: made once, for every check to read.
    let lines: [PreflightLine]

    init(page: Page, index: Int, framesetter: Framesetter, bleed: Double, nested: Bool) {
        self.page = page
        self.index = index
        self.framesetter = framesetter
        self.bleed = bleed
        self.nested = nested
        var facts: [ObjectIdentifier: ParagraphFacts] = [:]
        let styles = framesetter.story.styles
        // A paragraph's lines follow one another in a column: the table is looked up only
        // where the paragraph changes (a page holds a hundred lines and a dozen paragraphs).
        var last: (id: ObjectIdentifier, facts: ParagraphFacts)?
        lines = page.frames.flatMap(\.lines).map { l in
            let (start, length) = (l.paragraph.text.storyStart, l.paragraph.text.length)
            let lo = min(length, max(0, l.storyRange.lowerBound - start))
            let hi = min(length, max(lo, l.storyRange.upperBound - start))
            let id = ObjectIdentifier(l.paragraph)
            if let last, last.id == id { return PreflightLine(line: l, bytes: lo..<hi, facts: last.facts) }
            let known = facts[id] ?? ParagraphFacts(l.paragraph.text, styles: styles)
            facts[id] = known
            last = (id, known)
            return PreflightLine(line: l, bytes: lo..<hi, facts: known)
        }
    }

    var story: Story { framesetter.story }
    var file: String { framesetter.file }

    /// The source position of story byte `b`.
    func location(ofByte b: Int) -> SourceLocation? {
        story.sourceMap.sourceLocation(ofByte: b, in: story.text)
    }

    /// A key naming a thing of this page's story for `Preflight.once`.
    func key(_ parts: Any...) -> String {
        "\(UInt(bitPattern: ObjectIdentifier(framesetter)))|" + parts.map { "\($0)" }.joined(separator: "|")
    }

    /// The placed images and text blocks, page-wide ones first.
    var images: [PlacedImage] { page.floats + page.frames.flatMap(\.images) }
}

/// "12.3": a measure for a message, to `places` decimals at most (a tenth by default).
func preflightNumber(_ v: Double, places: Int = 1, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
    guard v.isFinite else { return "?" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let r = (v * scale).rounded(rounding) / scale
    return r == r.rounded() ? String(Int(r)) : String(r)
}

/// `v`, under `limit`, beside it: rounded down, so that 0.249 pt is never said to be the
/// 0.25 pt print wants.
func preflightBelow(_ v: Double, places: Int = 1) -> String { preflightNumber(v, places: places, rounding: .down) }

extension TextStyle {
    /// The size the text prints at: narrowed by a horizontal scale, since a condensed letter is
    /// as hard to print as a smaller one.
    var printedSize: Double { size * min(1, horizontalScale) }

    /// Its text is outlined (`strokeWidth`) thinner than a press holds.
    var hasThinOutline: Bool { isStroked && outlineWidth < PreflightLimits.ruleWidth }

    /// It draws a rule of its own: an underline or a strikethrough.
    var isDecorated: Bool { underline != nil || strikethrough != nil }
}

/// A placed line as the checks read it.
struct PreflightLine {
    var line: PlacedLine
    /// The paragraph bytes the line holds, its trailing space included.
    var bytes: Range<Int>
    var facts: ParagraphFacts
}

/// What a paragraph holds that a check of its lines looks for, found once for the paragraph:
/// most paragraphs have none of it, and their lines are then passed over.
struct ParagraphFacts {
    /// A run set under `PreflightLimits.textSize`.
    var smallText = false
    /// A run drawn with a stroke: an outline thinner than the limit, an underline or a strikethrough.
    var strokes = false
    /// A glyph no installed font has (Pango's unknown glyph).
    var missingGlyphs = false
    /// The fonts of the runs.
    var fonts: Set<FontKey> = []

    init(_ text: ShapedText, styles: [TextStyle]) {
        for run in text.runs {
            let style = styles[Int(run.style)]
            smallText = smallText || style.printedSize < PreflightLimits.textSize
            strokes = strokes || style.hasThinOutline || style.isDecorated
            fonts.insert(run.font)
        }
        missingGlyphs = text.hasMissingGlyphs
    }
}

/// An image as an ink finding names it: where it is drawn on its page (the trim's
/// coordinates), its file and where the source places it.
struct InkSubject {
    var rect: Rect
    var name: String
    var path: String
    var file: String?
    var location: SourceLocation?
    var length: Int

    /// The one of `subjects` that covers most of `hot`; nil when none touches it.
    static func most(of subjects: [InkSubject], under hot: Rect) -> InkSubject? {
        func overlap(_ r: Rect) -> Double {
            max(0, min(r.maxX, hot.maxX) - max(r.x, hot.x)) * max(0, min(r.maxY, hot.maxY) - max(r.y, hot.y))
        }
        let covering = subjects.map { ($0, overlap($0.rect)) }.filter { $0.1 > 0 }
        return covering.max { $0.1 < $1.1 }?.0
    }
}
