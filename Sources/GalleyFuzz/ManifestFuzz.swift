import GalleyMarkup
import GalleySupport
import GalleyTemplate
import Glibc

enum ManifestFuzz {
    /// A folder beside the scratch pack with what a manifest may name: two articles, an image,
    /// a template file.
    static let folder: String = {
        let path = FilePath.join(FuzzFiles.scratch, "issue")
        mkdir(path, 0o755)
        FuzzFiles.write(Array("<h1>A</h1>\nText.\n".utf8), to: FilePath.join(path, "a.txt"))
        FuzzFiles.write(Array("<h1>B</h1>\nMore text.\n".utf8), to: FilePath.join(path, "b.txt"))
        FuzzFiles.write(FuzzFiles.onePixelPNG, to: FilePath.join(path, "c.png"))
        FuzzFiles.write(Array(#"{"extends": "magazine", "columns": 3}"#.utf8), to: FilePath.join(path, "t.json"))
        return path
    }()

    static let names = ["issue.json", "a.txt", "b.txt", "c.png", "t.json"]

    /// The manifest decoded (with its files looked up and confined), every `set` applied to a
    /// template, each error rendered against the text.
    static func run(_ bytes: [UInt8]) {
        guard let json = String(validating: bytes, as: UTF8.self) else { return }
        let file = FilePath.join(folder, "issue.json")
        let shown = SourceFile(path: file, text: json)
        let manifest: IssueManifest
        switch IssueManifest.decode(json, file: file) {
        case .success(let m): manifest = m
        case .failure(let d):
            _ = DiagnosticRenderer.render(d, sources: { _ in shown })
            return
        }
        for layer in manifest.layers + manifest.articles.flatMap(\.layers) {
            if case .failure(let d) = layer.apply(to: .default) { _ = DiagnosticRenderer.render(d, sources: { _ in shown }) }
        }
    }
}
