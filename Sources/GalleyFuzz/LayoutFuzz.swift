import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyTemplate

enum LayoutFuzz {
    static func run(_ bytes: [UInt8]) {
        let (main, overrides) = FuzzTarget.split(bytes)
        var template = Template.default
        if !overrides.isEmpty {
            guard case .success(let t) = TemplateLoader.apply(overrides, to: template, file: "--set") else { return }
            template = t
        }
        guard let source = FuzzStory.source(main) else { return }
        let (story, diagnostics) = FuzzStory.build(source, template: template, baseDirectory: FuzzFiles.samples)
        if diagnostics.hasErrors { return }
        // One thread: what the fuzzer measures is then all on the thread it watches.
        let framesetter = Framesetter(story: story, template: template, file: FuzzStory.file, options: LayoutOptions(threads: 1))
        if framesetter.diagnostics.hasErrors { return }
        let metadata = PDFMetadata(title: "fuzz", creator: "galley fuzz", date: Date(timeIntervalSince1970: 0))
        _ = try? Export.pdf(framesetter, to: FuzzFiles.pdf, metadata: metadata)
    }
}
