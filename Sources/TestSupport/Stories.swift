import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

/// A story built from in-memory markup, with everything a test may want to look at.
public struct BuiltStory {
    public var source: SourceFile
    public var story: Story
    /// The parser's and the builder's diagnostics.
    public var diagnostics: Diagnostics

    /// The diagnostics rendered as the CLI prints them (with source line and caret, no colour).
    public var rendered: String {
        diagnostics.all.map { d in
            DiagnosticRenderer.render(d, sources: { [source] in $0 == source.path ? source : nil })
        }.joined()
    }
}

/// Parses `text` as file `path` and builds its story with `template`; `src` paths are relative
/// to `baseDirectory` (default: the repository's `samples/`).
public func buildStory(
    _ text: String, template: Template = .default, path: String = "t.txt",
    baseDirectory: String = repoPath("samples")
) -> BuiltStory {
    let source = SourceFile(path: path, text: text)
    let document = MarkupParser.parse(source)
    let (story, diagnostics) = StoryBuilder(template: template, baseDirectory: baseDirectory).build(document)
    return BuiltStory(source: source, story: story, diagnostics: diagnostics)
}

/// A framesetter for `text` (fonts pinned first).
public func framesetter(
    _ text: String, template: Template = .default, threads: Int? = nil, drawsEveryPage: Bool = false,
    baseDirectory: String = repoPath("samples"), cache: ParagraphCache? = nil
) -> Framesetter {
    TestFonts.pin()
    let built = buildStory(text, template: template, baseDirectory: baseDirectory)
    return Framesetter(
        story: built.story, template: template, file: "t.txt",
        options: LayoutOptions(threads: threads, drawsEveryPage: drawsEveryPage), cache: cache)
}

/// Every page of a layout.
public func pages(of framesetter: Framesetter) -> [Page] {
    var pages: [Page] = []
    framesetter.layOut { page in
        pages.append(page)
        return true
    }
    return pages
}

/// The text of a sample, e.g. `sample("article.txt")`.
public func sample(_ name: String) -> String {
    try! String(contentsOfFile: repoPath("samples/" + name), encoding: .utf8)
}
