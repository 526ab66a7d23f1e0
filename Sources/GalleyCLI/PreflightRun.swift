import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleySupport

/// A preflight finding as JSON (`check --json`, an issue's `build --json`).
struct PreflightEntry: Encodable {
    var kind: String
    var severity: String
    /// The page of the PDF, from 1.
    var page: Int
    var file: String?
    var line: Int?
    var column: Int?
    var message: String
    /// ppi for images, points for text sizes and rule widths.
    var value: Double?
    /// The image's or font's file, or the missing character.
    var subject: String?

    init(_ f: PreflightFinding) {
        kind = f.kind.rawValue
        severity = f.severity.rawValue
        page = f.page
        file = f.file
        line = f.location?.line
        column = f.location?.column
        message = f.message
        value = f.value
        subject = f.subject
    }
}

/// What `check --json` prints: the counts, every diagnostic, and with `--preflight` the
/// findings (also among the diagnostics, as they are printed).
struct CheckReport: Encodable {
    var file: String
    var pages: Int
    var errors: Int
    var warnings: Int
    var diagnostics: [InspectReport.Message]
    var preflight: [PreflightEntry]?

    init(file: String, pages: Int, diagnostics: Diagnostics, preflight: Preflight?) {
        self.file = file
        self.pages = pages
        errors = diagnostics.errors.count
        warnings = diagnostics.warnings.count
        self.diagnostics = diagnostics.inReadingOrder.map(InspectReport.Message.init)
        self.preflight = preflight.map { $0.inPageOrder.map(PreflightEntry.init) }
    }

    func json() -> String { prettyJSON(self) }
}

extension Run {
    /// The layout's own warnings that a preflight finding at the same place says again (with
    /// its page): a missing glyph, a line or a box that did not fit. Each is said once.
    static let restatedWarnings = [
        "no installed font has", "line is ", "a line ", "this pull quote is longer", "this sidebar is longer", "the caption of image",
    ]

    /// Adds the preflight's findings to the diagnostics, in place of the layout's warnings
    /// they restate.
    mutating func addPreflight(_ preflight: Preflight) {
        let findings = preflight.inPageOrder
        let restating = Set(
            findings.filter { $0.kind == .missingGlyph || $0.kind == .overset }.compactMap { f in
                f.location.map { "\(f.file ?? "")|\($0.offset)" }
            })
        let kept = diagnostics.all.filter { d in
            guard d.severity == .warning, let at = d.location, restating.contains("\(d.file ?? "")|\(at.offset)") else { return true }
            return !Self.restatedWarnings.contains { d.message.hasPrefix($0) }
        }
        diagnostics = Diagnostics()
        diagnostics.append(contentsOf: kept)
        diagnostics.append(contentsOf: findings.map(\.diagnostic))
    }

    /// The preflight over an issue's pages in the order of its PDF: the cover and inserts, and
    /// every part's pages (articles under another's end included).
    static func preflight(_ issue: LoadedIssue, _ plan: IssuePlan, manifest: String, strict: Bool) -> Preflight {
        var preflight = Preflight(strict: strict)
        let bleed = issue.base.print.bleed
        for (i, entry) in plan.pages.enumerated() {
            if let image = entry.image {
                let size = entry.page.map { ($0.width, $0.height) } ?? (issue.base.pageWidth, issue.base.pageHeight)
                // Said at the manifest's `image` value that names it.
                let m = issue.manifest
                let named = entry.kind == .cover ? m.cover?.location : m.inserts.first { $0.image == image }?.location
                preflight.checkFullPageImage(
                    image, index: i + 1, width: size.0, height: size.1, bleed: bleed, manifest: manifest, at: named)
            }
            for (part, page) in entry.placements {
                preflight.check(page, of: plan.parts[part].framesetter, index: i + 1, bleed: bleed)
            }
        }
        preflight.finish()
        return preflight
    }
}
