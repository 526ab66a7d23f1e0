import Foundation
import GalleyLayout
import TestSupport
import Testing

/// `build --synctex`, checked with TeX Live's own `synctex` tool: from every placed line of
/// every page to its source line, and from source lines back to their pages.
@Suite struct SyncTeXTests {
    static let text =
        (1...14).map { k in
            "Paragraph \(k) of the harbour report, with words enough to fill two or three lines of a column, and then a few more."
        }.joined(separator: "\n") + "\n<img src=\"chart.png\" width=\"200\" height=\"120\">\n"
        + (15...40).map { "Line \($0): the tide came in at dawn and went out again by noon, as it always does in Port Ellery." }
        .joined(separator: "\n") + "\n"

    @Test func everyLineRoundTrips() throws {
        let d = TemporaryDirectory("synctex")
        d.write("chart.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/chart.png"))))
        let doc = d.write("doc.txt", Self.text)
        let pdf = d.file("doc.pdf")
        let r = run(["build", doc, "-o", pdf, "--synctex", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let gz = d.file("doc.synctex.gz")
        #expect(FileManager.default.fileExists(atPath: gz))
        // The same layout, in process, tells where each line is and which source line it sets.
        let fs = framesetter(Self.text, baseDirectory: d.path)
        let ps = pages(of: fs)
        try #require(ps.count >= 2)
        var firstPage: [Int: Int] = [:]
        for page in ps {
            for line in page.frames.flatMap(\.lines) {
                let source = try #require(fs.story.sourceMap.sourceLocation(ofByte: line.storyRange.lowerBound, in: fs.story.text)).line
                firstPage[source] = firstPage[source] ?? page.number
                let at = "\(page.number):\(line.box.midX):\(line.box.midY):\(pdf)"
                let edit = tool("synctex", ["edit", "-o", at]).output
                #expect(edit.contains("\nLine:\(source)\n"), "page \(page.number) line @\(line.storyRange): \(edit)")
                #expect(edit.contains("Input:\(FileManager.default.currentDirectoryPath)") || edit.contains("doc.txt"))
            }
            for image in page.frames.flatMap(\.images) + page.floats {
                let at = "\(page.number):\(image.rect.midX):\(image.rect.midY):\(pdf)"
                #expect(tool("synctex", ["edit", "-o", at]).output.contains("\nLine:15\n"), "the image's <img> is on line 15")
            }
        }
        // From a source line to the page that sets it.
        for (source, page) in firstPage.sorted(by: { $0.key < $1.key }) where source % 5 == 0 {
            let view = tool("synctex", ["view", "-i", "\(source):1:\(doc)", "-o", pdf]).output
            #expect(view.contains("\nPage:\(page)\n"), "source line \(source): \(view)")
        }
    }

    @Test func notOnStandardOutput() {
        let r = run(["build", "-", "--synctex"], stdin: Array("Text.\n".utf8))
        #expect(r.status == 2 && r.stderr.contains("--synctex writes beside the PDF"))
        // Nor beside a device: `-o /dev/null --synctex` made a file in /dev.
        let null = run(["build", "-", "-o", "/dev/null", "--synctex"], stdin: Array("Text.\n".utf8))
        #expect(null.status == 2 && null.stderr.contains("'/dev/null' is not a file"), "\(null.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null.synctex.gz"))
    }

    // A SyncTeX file that cannot be written is refused before the PDF is made: the PDF from
    // before is kept, and the message says what is in the way.
    @Test func refusedBeforeThePDF() throws {
        let d = TemporaryDirectory("synctex")
        let source = d.write("doc.txt", "Text.\n")
        d.write("doc.pdf", "the PDF from before")
        try FileManager.default.createDirectory(atPath: d.file("doc.synctex.gz"), withIntermediateDirectories: false)
        let r = run(["build", source, "-o", d.file("doc.pdf"), "--synctex"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("the SyncTeX file '\(d.file("doc.synctex.gz"))' is a folder"), "\(r.stderr)")
        #expect(d.read("doc.pdf") == Data("the PDF from before".utf8))
    }
}
