import Foundation
import GalleyMarkup
import TestSupport

@testable import GalleyStory
@testable import GalleyTemplate

// What the template tests share: asking the loader, the templates folder and scratch files.

/// The template decoded from `json` (as file `file`), or nil on error.
func decoded(_ json: String, file: String = "t.json") -> Template? {
    try? TemplateLoader.decode(json, file: file).get()
}

/// The diagnostic for `json`, or nil when it decodes.
func templateDiagnostic(_ json: String, file: String = "t.json") -> Diagnostic? {
    if case .failure(let d) = TemplateLoader.decode(json, file: file) { return d }
    return nil
}

/// `line:col message` for the error `json` gives, the way a test can compare it in one go.
func located(_ json: String) -> String? {
    guard let d = templateDiagnostic(json) else { return nil }
    return "\(d.location.map { "\($0)" } ?? "-") \(d.message)"
}

/// The template after overrides, or nil on error.
func overridden(_ sets: [String], _ base: Template = .default) -> Template? {
    try? TemplateLoader.apply(sets, to: base, file: "--set").get()
}

/// The diagnostic for overrides, or nil when they apply.
func overrideDiagnostic(_ sets: [String], _ base: Template = .default) -> Diagnostic? {
    if case .failure(let d) = TemplateLoader.apply(sets, to: base, file: "--set") { return d }
    return nil
}

/// The override error's message, or nil when the overrides apply.
func overrideMessage(_ sets: [String], _ base: Template = .default) -> String? {
    overrideDiagnostic(sets, base)?.message
}

/// The repository's `templates/` folder.
let templatesFolder = URL(fileURLWithPath: repoPath("templates"))

/// A fresh empty folder for file tests.
func scratchFolder() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("galley-template-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
}

func write(_ text: String, to path: String) {
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
}
