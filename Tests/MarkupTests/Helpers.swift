import GalleyMarkup

/// The path every in-memory test file gets.
let testPath = "t.txt"

func source(_ text: String) -> SourceFile { SourceFile(path: testPath, text: text) }

func parse(_ text: String, vocabulary: Vocabulary = .standard) -> MarkupDocument {
    MarkupParser.parse(source(text), vocabulary: vocabulary)
}

/// The node dump of `text`.
func nodes(_ text: String) -> String { dump(parse(text).nodes) }

/// Every diagnostic of `text`, rendered with its source line.
func rendered(_ text: String) -> String {
    let doc = parse(text)
    return rendered(doc.diagnostics.all, doc.source)
}

func rendered(_ ds: [Diagnostic], _ src: SourceFile, color: Bool = false) -> String {
    ds.map { d in DiagnosticRenderer.render(d, sources: { $0 == src.path ? src : nil }, color: color) }.joined()
}

/// Multi-line literals have no final newline; dumps and renderings end with one.
func lines(_ s: String) -> String { s + "\n" }
