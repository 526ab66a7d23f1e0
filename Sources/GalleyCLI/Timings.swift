import GalleyRender

/// `--timings`: where a PDF build's time went, said in one line on standard error after it.
struct TimingsReport {
    /// Reading the input into a story (for an issue, also laying its articles out and
    /// planning its pages), before the PDF is begun.
    var reading: Duration
    /// The PDF's export, whole.
    var export: Duration
    /// The export's parts measured on the drawing thread.
    var parts: PDFTimings
    /// An issue: its articles are laid out while reading, and what the export spends besides
    /// its parts is the outline and page labels.
    var issue = false

    /// "timings: reading 4 ms, layout 12 ms, drawing 52 ms, Cairo writing the pages 140 ms,
    /// Cairo writing the fonts 4 ms; 212 ms in all" (a press build adds its post-pass).
    var line: String {
        var items: [(String, Duration)] = [
            (issue ? "reading and laying out the articles" : "reading", reading),
            (issue ? "the rest" : "layout", export - parts.measured),
            ("drawing", parts[.drawing]),
            ("Cairo writing the pages", parts[.pages]),
            ("Cairo writing the fonts", parts[.fonts]),
        ]
        if parts[.postPass] > .zero { items.append(("PDF/X post-pass", parts[.postPass])) }
        let said = items.map { "\($0.0) \(Self.milliseconds($0.1)) ms" }.joined(separator: ", ")
        return "timings: \(said); \(Self.milliseconds(reading + export)) ms in all\n"
    }

    /// An issue's timings in its `--json` summary, in seconds to the millisecond.
    struct IssueSeconds: Encodable {
        var readingAndLayout, drawing, cairoPages, cairoFonts, postPass, rest, total: Double

        init(_ r: TimingsReport) {
            func s(_ d: Duration) -> Double { Double(TimingsReport.milliseconds(d)) / 1000 }
            readingAndLayout = s(r.reading)
            drawing = s(r.parts[.drawing])
            cairoPages = s(r.parts[.pages])
            cairoFonts = s(r.parts[.fonts])
            postPass = s(r.parts[.postPass])
            rest = s(r.export - r.parts.measured)
            total = s(r.reading + r.export)
        }
    }

    /// Whole milliseconds (never below 0: the layout is a difference of two clock readings).
    static func milliseconds(_ d: Duration) -> Int {
        let (seconds, attoseconds) = d.components
        return max(0, Int(((Double(seconds) + Double(attoseconds) / 1e18) * 1000).rounded()))
    }
}

/// `--timings`' clock for one build: started before the input is read, told when the reading
/// ends and when the PDF's export begins. Without `--timings` it keeps no parts and reports
/// nothing.
struct BuildTimer {
    /// The export's parts, for `Export.pdf` and `IssueExport.pdf` to fill; nil when not asked.
    let parts: PDFTimings?
    private var mark = ContinuousClock.now
    private var reading: Duration = .zero

    init(asked: Bool) { parts = asked ? PDFTimings() : nil }

    /// The input is read: what follows until `exportBegins()` is counted in neither part.
    mutating func readingEnds() { reading = ContinuousClock.now - mark }

    mutating func exportBegins() { mark = ContinuousClock.now }

    /// What the build took, its export just ended; nil when not asked.
    func report(issue: Bool = false) -> TimingsReport? {
        parts.map { TimingsReport(reading: reading, export: ContinuousClock.now - mark, parts: $0, issue: issue) }
    }
}
