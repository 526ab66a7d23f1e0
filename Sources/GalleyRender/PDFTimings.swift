/// Where the time of writing a PDF went (`--timings`), measured on the thread that draws, which
/// bounds a build: Galley drawing each page (Cairo recording what is drawn included), Cairo
/// writing each page's operators into the file (`cairo_show_page`, where Cairo replays the
/// page it recorded), Cairo writing the fonts and the end of the file (`cairo_surface_finish`),
/// and the press post-pass. What the export spends besides is the layout, which places each
/// page between two drawings, and the rest.
///
/// Cairo's two parts are the floor of a PDF build that reuses its layout (`watch`, an issue
/// rebuilt from `--cache`): every page is written again, and no work of Galley's shortens them.
public final class PDFTimings {
    public enum Part: Int, CaseIterable, Sendable {
        case drawing, pages, fonts, postPass
    }

    private var spent = [Duration](repeating: .zero, count: Part.allCases.count)
    private let clock = ContinuousClock()

    public init() {}

    /// The time spent in `part` so far.
    public subscript(part: Part) -> Duration { spent[part.rawValue] }

    /// All the parts together.
    public var measured: Duration { spent.reduce(.zero, +) }

    /// Runs `body`, adding its time to `part`.
    func measure<T, E: Error>(_ part: Part, _ body: () throws(E) -> T) throws(E) -> T {
        let start = clock.now
        defer { spent[part.rawValue] += clock.now - start }
        return try body()
    }
}

extension Optional where Wrapped == PDFTimings {
    /// Runs `body`, timed as `part` when there are timings to keep.
    func measure<T, E: Error>(_ part: PDFTimings.Part, _ body: () throws(E) -> T) throws(E) -> T {
        guard let timings = self else { return try body() }
        return try timings.measure(part, body)
    }
}
