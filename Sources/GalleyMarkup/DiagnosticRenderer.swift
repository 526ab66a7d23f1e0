import GalleySupport

/// Formats diagnostics the way compilers do:
///
///     article.txt:3:12: error: unknown colour 'gren'; did you mean 'green'?
///         <font color="gren">
///                      ^~~~
public enum DiagnosticRenderer {
    /// Lines wider than this many cells are shown as a window around the caret.
    public static let maxLineWidth = 200
    /// Cells of the line shown before the caret in a window.
    static let contextBeforeCaret = 80
    /// Cells of the line shown in a window.
    static let windowWidth = 160

    /// A source line taken apart once for all the diagnostics shown on it: its scalars and the
    /// cells they take. Diagnostics come in source order, so keeping the last line is enough for
    /// thousands of diagnostics on one long line to cost time linear in it.
    public struct LineCache {
        var file: String?
        var line = 0
        var scalars: [Unicode.Scalar] = []
        var widths: [Int] = []
        var width = 0
        public init() {}

        mutating func view(_ file: String, _ line: Int, in source: SourceFile) -> (scalars: [Unicode.Scalar], widths: [Int], width: Int) {
            if file != self.file || line != self.line {
                self.file = file
                self.line = line
                scalars = Array(source.lineText(line).unicodeScalars)
                widths = DiagnosticRenderer.cells(of: scalars)
                width = widths.reduce(0, +)
            }
            return (scalars, widths, width)
        }
    }

    /// `sources` finds the text of a file by the diagnostic's `file`; lines are shown only when found.
    /// The result ends with a newline.
    public static func render(_ d: Diagnostic, sources: (String) -> SourceFile?, color: Bool = false) -> String {
        var cache = LineCache()
        return render(d, sources: sources, color: color, cache: &cache)
    }

    /// `render(_:sources:color:)`, reusing the line taken apart for the diagnostic before.
    public static func render(
        _ d: Diagnostic, sources: (String) -> SourceFile?, color: Bool = false, cache: inout LineCache
    ) -> String {
        let style = Style(enabled: color)
        var place: String
        if let file = d.file {
            place = file
            if let location = d.location { place += ":\(location.line):\(location.column)" }
        } else {
            place = "galley"
        }
        // A message quoting a huge value (a 100 KB src) keeps its ends, as the line shown does.
        var message = escapingControls(d.message)
        if message.unicodeScalars.count > 400 {
            let scalars = Array(message.unicodeScalars)
            message = String(String.UnicodeScalarView(scalars.prefix(200))) + "…" + String(String.UnicodeScalarView(scalars.suffix(150)))
        }
        var out = style.bold(escapingControls(place) + ":") + " " + style.severity(d.severity) + " " + style.bold(message) + "\n"
        if let file = d.file, let location = d.location, let source = sources(file),
            location.line >= 1, location.line <= source.lineCount
        {
            let view = cache.view(file, location.line, in: source)
            let (line, caret) = snippet(view.scalars, widths: view.widths, width: view.width, column: location.column, length: d.length)
            out += line + "\n" + caret.padding + style.caret(caret.marker) + "\n"
        }
        return out
    }

    /// Every diagnostic, one after another.
    public static func render(_ ds: Diagnostics, sources: (String) -> SourceFile?, color: Bool = false) -> String {
        var cache = LineCache()
        return ds.all.map { render($0, sources: sources, color: color, cache: &cache) }.joined()
    }

    /// Cells a scalar takes in the shown line; a tab counts as one, whatever the terminal makes of it.
    static func cells(_ s: Unicode.Scalar) -> Int { s == "\t" ? 1 : escaped(s)?.count ?? DisplayWidth.of(s) }

    /// The cells of each scalar of a line as a terminal draws it: what joins the emoji before
    /// it takes none (a scalar after a zero-width joiner, a skin-tone modifier), and a pair of
    /// regional indicators is one flag, two cells. Linear in the line.
    static func cells(of scalars: [Unicode.Scalar]) -> [Int] {
        let indicators: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF
        var out: [Int] = []
        out.reserveCapacity(scalars.count)
        var indicatorRun = 0
        for (i, s) in scalars.enumerated() {
            let v = s.value
            indicatorRun = indicators.contains(v) ? indicatorRun + 1 : 0
            if i > 0 && scalars[i - 1].value == 0x200D || (0x1F3FB...0x1F3FF).contains(v) {
                out.append(0)
            } else if indicatorRun > 0 {
                out.append(indicatorRun % 2 == 1 ? 2 : 0)
            } else {
                out.append(cells(s))
            }
        }
        return out
    }

    /// How a control character (C0 but tab, DEL, C1) is shown: `\x1b`, never raw, so that a
    /// file's escape sequences cannot reach the user's terminal. Nil for other characters.
    static func escaped(_ s: Unicode.Scalar) -> String? {
        let v = s.value
        guard (v < 0x20 && v != 0x09) || (v >= 0x7F && v < 0xA0) else { return nil }
        let hex = String(v, radix: 16)
        return "\\x" + (hex.count < 2 ? "0" + hex : hex)
    }

    /// `text` with its control characters escaped (its line breaks kept, when `keepingNewlines`).
    package static func escapingControls(_ text: String, keepingNewlines: Bool = false) -> String {
        func shown(_ s: Unicode.Scalar) -> String? { keepingNewlines && s == "\n" ? nil : escaped(s) }
        guard text.unicodeScalars.contains(where: { shown($0) != nil }) else { return text }
        var out = ""
        for s in text.unicodeScalars {
            if let e = shown(s) { out += e } else { out.unicodeScalars.append(s) }
        }
        return out
    }

    /// The line as shown (possibly cut down to a window) and the caret line under it.
    /// `width`: the cells of the whole line.
    static func snippet(
        _ scalars: [Unicode.Scalar], widths: [Int], width lineWidth: Int, column: Int, length: Int
    ) -> (String, (padding: String, marker: String)) {
        let count = scalars.count
        let caret = max(0, column - 1)
        func cells(_ i: Int) -> Int { widths[i] }

        var lo = 0
        var hi = count
        if lineWidth > maxLineWidth {
            lo = min(caret, count)
            var width = 0
            while lo > 0, width + cells(lo - 1) <= contextBeforeCaret {
                lo -= 1
                width += cells(lo)
            }
            hi = lo
            width = 0
            while hi < count, width + cells(hi) <= windowWidth {
                width += cells(hi)
                hi += 1
            }
            // Near the end of the line: use the room on the left instead.
            while hi == count, lo > 0, width + cells(lo - 1) <= windowWidth {
                lo -= 1
                width += cells(lo)
            }
        }

        var shown = lo > 0 ? "…" : ""
        for s in scalars[lo..<hi] {
            if let e = escaped(s) { shown += e } else { shown.unicodeScalars.append(s) }
        }
        if hi < count { shown += "…" }

        // Padding mirrors the shown text: tabs stay tabs so that they expand the same way.
        var padding = lo > 0 ? " " : ""
        for i in lo..<min(caret, count) {
            if scalars[i] == "\t" {
                padding += "\t"
            } else {
                padding += String(repeating: " ", count: cells(i))
            }
        }
        if caret > count { padding += String(repeating: " ", count: caret - count) }

        var marker = "^"
        if caret < count, scalars[caret] != "\t" {
            marker += String(repeating: "~", count: max(0, cells(caret) - 1))
        }
        var i = caret + 1
        while i < min(hi, caret + length) {
            marker += String(repeating: "~", count: cells(i))
            i += 1
        }
        return (shown, (padding, marker))
    }

    private struct Style {
        let enabled: Bool

        func wrap(_ s: String, _ code: String) -> String {
            enabled ? "\u{1B}[\(code)m" + s + "\u{1B}[0m" : s
        }
        func bold(_ s: String) -> String { wrap(s, "1") }
        func caret(_ s: String) -> String { wrap(s, "1;32") }
        func severity(_ s: Severity) -> String {
            let label = s.rawValue + ":"
            switch s {
            case .error: return wrap(label, "1;31")
            case .warning: return wrap(label, "1;35")
            case .note: return wrap(label, "1;36")
            }
        }
    }
}
