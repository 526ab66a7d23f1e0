import GalleyMarkup
import GalleySupport
import GalleyTemplate

enum TemplateFuzz {
    static func run(_ bytes: [UInt8]) {
        let (main, overrides) = FuzzTarget.split(bytes)
        // The loader reads files as UTF-8 text, refusing anything else before decoding.
        guard let json = String(validating: main, as: UTF8.self) else { return }
        let file = FilePath.join(FuzzFiles.scratch, "fuzz.json")
        let shown = SourceFile(path: file, text: json)
        var template = Template.default
        if !json.isEmpty {
            switch TemplateLoader.decode(json, file: file) {
            case .success(let t): template = t
            case .failure(let d):
                _ = DiagnosticRenderer.render(d, sources: { _ in shown })
                return
            }
        }
        if !overrides.isEmpty {
            switch TemplateLoader.apply(overrides, to: template, file: "--set") {
            case .success(let t): template = t
            case .failure(let d):
                _ = DiagnosticRenderer.render(d, sources: { _ in nil })
                return
            }
        }
        _ = TemplateLoader.describe(template)
        // `galley templates NAME` promises JSON that reads back as the same template.
        let written = TemplateLoader.encode(template)
        guard case .success(let read) = TemplateLoader.decode(written, file: file), read == template else {
            fatalError("fuzz: the template written does not read back the same:\n\(written)")
        }
    }
}
