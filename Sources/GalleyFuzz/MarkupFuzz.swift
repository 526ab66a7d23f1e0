import GalleyMarkup
import GalleyStory
import GalleyTemplate

enum MarkupFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let source = FuzzStory.source(bytes) else { return }
        let (story, diagnostics) = FuzzStory.build(source, template: .default, baseDirectory: FuzzFiles.samples)
        _ = DiagnosticRenderer.render(diagnostics, sources: { _ in source })
        _ = StoryDump.dump(story)
    }
}

/// The steps from bytes to a story that several targets take, as the CLI takes them.
enum FuzzStory {
    static let file = "fuzz.txt"

    /// The bytes as a source file; nil, with the error rendered, when they are not UTF-8.
    static func source(_ bytes: some Collection<UInt8>) -> SourceFile? {
        do {
            return try SourceFile(path: file, bytes: bytes)
        } catch {
            let shown = SourceFile(path: file, text: String(decoding: bytes, as: UTF8.self))
            _ = DiagnosticRenderer.render(error, sources: { _ in shown })
            return nil
        }
    }

    static func build(
        _ source: SourceFile, template: Template, baseDirectory: String, emoticons: EmoticonPacks = .builtin
    ) -> (Story, Diagnostics) {
        var builder = StoryBuilder(template: template, baseDirectory: baseDirectory)
        builder.emoticons = emoticons
        return builder.build(MarkupParser.parse(source))
    }
}
