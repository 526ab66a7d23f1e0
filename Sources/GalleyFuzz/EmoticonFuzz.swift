import GalleyMarkup
import GalleySupport
import GalleyStory

enum EmoticonFuzz {
    static func run(_ bytes: [UInt8]) {
        FuzzFiles.write(bytes, to: FilePath.join(FuzzFiles.pack, "pack.json"))
        let packs: EmoticonPacks
        switch EmoticonPacks.builtin.adding(folder: FuzzFiles.pack) {
        case .success(let p): packs = p
        case .failure(let d):
            _ = DiagnosticRenderer.render(d, sources: { _ in nil })
            return
        }
        // Each code the pack gave or changed, found by the social scanner in running text.
        let codes = packs.codes.filter { packs.lookup($0) != EmoticonPacks.builtin.lookup($0) }
        let text = "<social>" + codes.joined(separator: " and ") + "</social>\n" + codes.joined() + "\n"
        let source = SourceFile(path: FuzzStory.file, text: text)
        let (story, diagnostics) = FuzzStory.build(source, template: .default, baseDirectory: FuzzFiles.pack, emoticons: packs)
        _ = DiagnosticRenderer.render(diagnostics, sources: { _ in source })
        _ = StoryDump.dump(story)
    }
}
