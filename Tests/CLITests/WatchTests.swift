import Foundation
import TestSupport
import Testing

/// `galley watch` as a user runs it: a process of its own, the source edited the ways editors
/// do, stopped with a signal.
@Suite(.serialized) struct WatchTests {
    /// A running `galley watch` whose standard error goes to a file in `dir`.
    final class Watcher {
        let process = Process()
        let log: String

        init(_ dir: TemporaryDirectory, _ args: [String], log name: String = "watch.log") throws {
            log = dir.file(name)
            FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = URL(fileURLWithPath: galleyExecutable)
            process.arguments = ["watch"] + args
            // With its hooks, as `runExecutable` runs the executable by default.
            process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "GALLEY_NO_HOOKS" }
            process.currentDirectoryURL = URL(fileURLWithPath: dir.path)
            process.standardError = FileHandle(forWritingAtPath: log)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }

        deinit { stop() }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        var text: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func lines(containing s: String) -> Int { text.components(separatedBy: "\n").filter { $0.contains(s) }.count }

        /// Waits (at most 30 s) until `condition` holds.
        func wait(_ what: String, _ condition: () -> Bool) throws {
            let end = Date().addingTimeInterval(30)
            while !condition() {
                guard Date() < end, process.isRunning else {
                    Issue.record("waited in vain for \(what); log:\n\(text)")
                    throw CancellationError()
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    static func pdfText(_ path: String) -> String { tool("pdftotext", [path, "-"]).output }

    // Edits by renaming over, an error that keeps the last good PDF, deleting and creating the
    // file again, a burst of saves built once, and SIGTERM leaving no temporary file.
    @Test func rebuildsOnEveryKindOfSave() throws {
        let d = TemporaryDirectory("watch")
        d.write("doc.txt", "<h1>Harbour</h1>\nThe first draft.\n")
        let w = try Watcher(d, ["doc.txt", "-o", "doc.pdf"])
        let pdf = d.file("doc.pdf")
        try w.wait("the first build") { w.lines(containing: "wrote doc.pdf") == 1 }
        #expect(Self.pdfText(pdf).contains("The first draft."))

        // Written beside and renamed over, as most editors save.
        d.write("doc.new", "<h1>Harbour</h1>\nThe second draft.\n")
        try FileManager.default.moveItem(atPath: d.file("doc.new"), toPath: d.file("doc.txt.tmp"))
        #expect(rename(d.file("doc.txt.tmp"), d.file("doc.txt")) == 0)
        try w.wait("the rename") { w.lines(containing: "wrote doc.pdf") == 2 }
        #expect(Self.pdfText(pdf).contains("The second draft."))
        #expect(w.text.contains("1 page, 1 changed"), "\(w.text)")

        // An error: said, and the PDF stays as it was.
        let good = try Data(contentsOf: URL(fileURLWithPath: pdf))
        d.write("doc.txt", "<h1>Harbour</h1>\n<span color=\"nope\">Broken.</span>\n")
        try w.wait("the error") { w.lines(containing: "kept as it was") == 1 }
        #expect(w.text.contains("doc.txt:2:14: error: unknown colour 'nope'"), "\(w.text)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: pdf)) == good)

        // Deleted, then made again.
        try FileManager.default.removeItem(atPath: d.file("doc.txt"))
        Thread.sleep(forTimeInterval: 0.3)
        d.write("doc.txt", "<h1>Harbour</h1>\nThe third draft.\n")
        try w.wait("the file made again") { w.lines(containing: "wrote doc.pdf") == 3 }
        #expect(Self.pdfText(pdf).contains("The third draft."))

        // A burst of saves: built once (at most twice, should the machine stall between them).
        for k in 1...5 { d.write("doc.txt", "<h1>Harbour</h1>\nDraft \(k + 3).\n") }
        try w.wait("the burst") { w.lines(containing: "wrote doc.pdf") >= 4 }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(w.lines(containing: "wrote doc.pdf") <= 5, "\(w.text)")
        #expect(Self.pdfText(pdf).contains("Draft 8."))

        w.stop()
        #expect(w.process.terminationReason == .uncaughtSignal)
        let left = try FileManager.default.contentsOfDirectory(atPath: d.path).sorted()
        #expect(left == ["doc.pdf", "doc.txt", "watch.log"], "\(left)")
    }

    // An output that a save finds unwritable (here made a folder) is that build's error: watch
    // says it and goes on waiting, and writes again once the folder is gone.
    @Test func anOutputMadeAFolderIsAnErrorOfThatBuild() throws {
        let d = TemporaryDirectory("watch")
        d.write("doc.txt", "The first draft.\n")
        let w = try Watcher(d, ["doc.txt", "-o", "doc.pdf"])
        try w.wait("the first build") { w.lines(containing: "wrote doc.pdf") == 1 }
        try FileManager.default.removeItem(atPath: d.file("doc.pdf"))
        try FileManager.default.createDirectory(atPath: d.file("doc.pdf"), withIntermediateDirectories: false)
        d.write("doc.txt", "The second draft.\n")
        try w.wait("the refused output") { w.lines(containing: "1 error; doc.pdf kept as it was") == 1 }
        #expect(w.text.contains("error: the output 'doc.pdf' is a folder"), "\(w.text)")
        #expect(w.process.isRunning)
        try FileManager.default.removeItem(atPath: d.file("doc.pdf"))
        d.write("doc.txt", "The third draft.\n")
        try w.wait("the build after it") { w.lines(containing: "wrote doc.pdf") == 2 }
        #expect(Self.pdfText(d.file("doc.pdf")).contains("The third draft."))
        w.stop()
    }

    // A first build that fails on a file it names (an image not made yet, a pack with a
    // mistake) still watches that file: making or mending it builds again.
    @Test func aFileMadeAfterTheErrorIsBuilt() throws {
        let d = TemporaryDirectory("watch")
        d.write("doc.txt", "<img src=\"chart.png\" width=\"50%\">\nThe harbour at dawn.\n")
        let w = try Watcher(d, ["doc.txt", "-o", "doc.pdf"])
        try w.wait("the failed build") { w.lines(containing: "1 error; doc.pdf not written") == 1 }
        #expect(w.text.contains("cannot use image 'chart.png'"), "\(w.text)")
        try FileManager.default.copyItem(atPath: repoPath("samples/images/chart.png"), toPath: d.file("chart.png"))
        try w.wait("the build once the image is there") { w.lines(containing: "wrote doc.pdf") == 1 }
        w.stop()
    }

    // A folder deleted and made again (a checkout, a clean step) is watched again: the input
    // in it, then an image in a folder that did not exist, then a template's `extends` target
    // made after the build that needed it.
    @Test func foldersMadeAgainAreWatchedAgain() throws {
        let d = TemporaryDirectory("watch")
        d.write("sub/doc.txt", "The harbour at dawn.\n")
        d.write("t.json", #"{"extends": "base.json"}"#)
        d.write("base.json", #"{"extends": "magazine"}"#)
        let w = try Watcher(d, ["sub/doc.txt", "-t", "t.json", "-o", "doc.pdf"])
        try w.wait("the first build") { w.lines(containing: "wrote doc.pdf") == 1 }
        try FileManager.default.removeItem(atPath: d.file("sub"))
        try w.wait("the input gone") { w.text.contains("is gone; waiting for it") }
        d.write("sub/doc.txt", "The harbour at dusk.\n<img src=\"pics/chart.png\" width=\"50%\">\n")
        try w.wait("the failed build on the missing image") { w.lines(containing: "1 error; doc.pdf kept as it was") == 1 }
        try FileManager.default.createDirectory(atPath: d.file("sub/pics"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: repoPath("samples/images/chart.png"), toPath: d.file("sub/pics/chart.png"))
        try w.wait("the build once the image is there") { w.lines(containing: "wrote doc.pdf") == 2 }
        #expect(Self.pdfText(d.file("doc.pdf")).contains("The harbour at dusk."))
        try FileManager.default.removeItem(atPath: d.file("base.json"))
        d.write("t.json", #"{"extends": "base.json", "columns": 1}"#)
        try w.wait("the failed build on the missing template") { w.lines(containing: "1 error; doc.pdf kept as it was") == 2 }
        d.write("base.json", #"{"extends": "magazine"}"#)
        try w.wait("the build once the template is there") { w.lines(containing: "wrote doc.pdf") == 3 }
        w.stop()
    }

    // So does an issue whose manifest names an article not written yet.
    @Test func anArticleMadeAfterTheErrorIsBuilt() throws {
        let d = TemporaryDirectory("watch")
        d.write("a.txt", "<h1>One</h1>\nThe harbour at dawn.\n")
        d.write("issue.json", #"{"title": "T", "articles": [{"file": "a.txt"}, {"file": "b.txt"}]}"#)
        let w = try Watcher(d, ["issue.json", "-o", "issue.pdf"])
        try w.wait("the failed build") { w.lines(containing: "1 error; issue.pdf not written") == 1 }
        #expect(w.text.contains("cannot find article 'b.txt'"), "\(w.text)")
        d.write("b.txt", "<h1>Two</h1>\nThe harbour at dusk.\n")
        try w.wait("the build once the article is there") { w.lines(containing: "wrote issue.pdf") == 1 }
        #expect(Self.pdfText(d.file("issue.pdf")).contains("The harbour at dusk."))
        w.stop()
    }

    // A save while a build runs is built after it: the watch's queued event is not lost. (A
    // long text, so that the second save lands during the build its first one started.)
    @Test func saveDuringABuild() throws {
        let d = TemporaryDirectory("watch")
        let body = (1...400).map { "Line \($0) of a long text that takes the build a while to set and draw." }.joined(separator: "\n")
        d.write("doc.txt", "First.\n" + body + "\n")
        let w = try Watcher(d, ["doc.txt", "-o", "doc.pdf"])
        try w.wait("the first build") { w.lines(containing: "wrote doc.pdf") == 1 }
        d.write("doc.txt", "Second.\n" + body + "\n")
        Thread.sleep(forTimeInterval: 0.15)
        d.write("doc.txt", "Third.\n" + body + "\n")
        try w.wait("the third text") { Self.pdfText(d.file("doc.pdf")).contains("Third.") }
        w.stop()
    }

    // An image the text shows is watched too; --pages writes PNGs of those pages.
    @Test func imagesAndPages() throws {
        let d = TemporaryDirectory("watch")
        let chart = try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/chart.png")))
        d.write("chart.png", chart)
        d.write("doc.txt", "A chart.\n<img src=\"chart.png\" width=\"200\" height=\"120\">\n")
        // The folder, missing, is made when watching begins.
        let w = try Watcher(d, ["doc.txt", "--pages", "1", "--png-dir", "png"])
        try w.wait("the first build") { w.lines(containing: "wrote png/doc-p1.png") == 1 }
        d.write("doc.txt", "A chart, again.\n<img src=\"chart.png\" width=\"200\" height=\"120\">\n")
        try w.wait("the second build") { w.lines(containing: "wrote png/doc-p1.png") == 2 }
        let before = try Data(contentsOf: URL(fileURLWithPath: d.file("png/doc-p1.png")))
        // Replacing the image alone rebuilds.
        d.write("chart.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/tall.png"))))
        try w.wait("the image's change") { w.lines(containing: "wrote png/doc-p1.png") == 3 }
        #expect(try Data(contentsOf: URL(fileURLWithPath: d.file("png/doc-p1.png"))) != before)
        // The page counts as changed, as it does when only a colour changes.
        #expect(w.text.split(separator: "\n").last { $0.contains("wrote") }?.hasSuffix("1 page, 1 changed") == true, "\(w.text)")
        d.write("doc.txt", "A chart, <font color=\"red\">again</font>.\n<img src=\"chart.png\" width=\"200\" height=\"120\">\n")
        try w.wait("the red word") { w.lines(containing: "wrote png/doc-p1.png") == 4 }
        d.write("doc.txt", "A chart, <font color=\"blue\">again</font>.\n<img src=\"chart.png\" width=\"200\" height=\"120\">\n")
        try w.wait("the blue word") { w.lines(containing: "wrote png/doc-p1.png") == 5 }
        #expect(w.text.split(separator: "\n").last { $0.contains("wrote") }?.hasSuffix("1 page, 1 changed") == true, "\(w.text)")
        w.stop()
    }

    // The --png-dir folder removed while watching (a `make clean`) is made again: every later
    // build failed on it, "no such folder".
    @Test func thePNGFolderIsMadeAgain() throws {
        let d = TemporaryDirectory("watch")
        d.write("doc.txt", "A line.\n")
        let w = try Watcher(d, ["doc.txt", "--pages", "1", "--png-dir", "png"])
        try w.wait("the first build") { w.lines(containing: "wrote png/doc-p1.png") == 1 }
        try FileManager.default.removeItem(atPath: d.file("png"))
        d.write("doc.txt", "Another line.\n")
        try w.wait("the build after the folder went") { w.lines(containing: "wrote png/doc-p1.png") == 2 }
        #expect(d.read("png/doc-p1.png") != nil)
        w.stop()
    }

    // An image set in a line (as an emoticon of a pack is) counts its page as changed when
    // its file alone is replaced: the line's text shows only its anchor.
    @Test func inlineImageChanged() throws {
        let d = TemporaryDirectory("watch")
        d.write("dot.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/chart.png"))))
        d.write("doc.txt", "A dot <img src=\"dot.png\" inline width=\"12pt\" height=\"8pt\"> in a line.\n")
        let w = try Watcher(d, ["doc.txt", "--pages", "1", "--png-dir", "png"])
        try w.wait("the first build") { w.lines(containing: "wrote png/doc-p1.png") == 1 }
        d.write("dot.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/tall.png"))))
        try w.wait("the image's change") { w.lines(containing: "wrote png/doc-p1.png") == 2 }
        #expect(w.text.split(separator: "\n").last { $0.contains("wrote") }?.hasSuffix("1 page, 1 changed") == true, "\(w.text)")
        // So is one in a pull quote, whose text is a story of its own.
        d.write("doc.txt", "A line.\n<pullquote>A dot <img src=\"dot.png\" inline width=\"12pt\" height=\"8pt\"> quoted.</pullquote>\n")
        try w.wait("the pull quote") { w.lines(containing: "wrote png/doc-p1.png") == 3 }
        d.write("dot.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/chart.png"))))
        try w.wait("its image's change") { w.lines(containing: "wrote png/doc-p1.png") == 4 }
        #expect(w.text.split(separator: "\n").last { $0.contains("wrote") }?.hasSuffix("1 page, 1 changed") == true, "\(w.text)")
        w.stop()
    }

    // An image an SVG draws from is watched as well: replacing it rebuilds, and the page is a
    // cold build's.
    @Test func imagesInsideAnSVG() throws {
        let d = TemporaryDirectory("watch")
        d.write("pics/dot.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/chart.png"))))
        d.write("pics/frame.svg", Self.framedImage)
        d.write("doc.txt", "A framed chart.\n<img src=\"pics/frame.svg\" width=\"200\" height=\"120\">\n")
        let w = try Watcher(d, ["doc.txt", "--page", "1", "-o", "p1.png"])
        try w.wait("the first build") { w.lines(containing: "wrote p1.png") == 1 }
        let before = try #require(d.read("p1.png"))
        d.write("pics/dot.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/tall.png"))))
        try w.wait("the inner image's change") { w.lines(containing: "wrote p1.png") == 2 }
        w.stop()
        #expect(d.read("p1.png") != before)
        #expect(runExecutable(["preview", d.file("doc.txt"), "--page", "1", "-o", d.file("cold.png")]).status == 0)
        #expect(d.read("p1.png") == d.read("cold.png"))
    }

    // A link on the way to an image (`current` a link to a folder of this week's pictures),
    // pointed at another folder the way `ln -sfn` does it, rebuilds.
    @Test func aLinkOnTheWayRetargeted() throws {
        let d = TemporaryDirectory("watch")
        d.write("v1/chart.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/chart.png"))))
        d.write("v2/chart.png", try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/tall.png"))))
        #expect(symlink("v1", d.file("current")) == 0)
        d.write("doc.txt", "This week's chart.\n<img src=\"current/chart.png\" width=\"200\" height=\"120\">\n")
        let w = try Watcher(d, ["doc.txt", "--page", "1", "-o", "p1.png"])
        try w.wait("the first build") { w.lines(containing: "wrote p1.png") == 1 }
        #expect(symlink("v2", d.file("current.new")) == 0)
        #expect(rename(d.file("current.new"), d.file("current")) == 0)
        try w.wait("the link's new target") { w.lines(containing: "wrote p1.png") == 2 }
        w.stop()
        #expect(runExecutable(["preview", d.file("doc.txt"), "--page", "1", "-o", d.file("cold.png")]).status == 0)
        #expect(d.read("p1.png") == d.read("cold.png"))
    }

    /// An SVG that draws `dot.png` beside it inside a frame.
    static let framedImage = """
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="120">
          <rect width="200" height="120" fill="none" stroke="black"/>
          <image xlink:href="dot.png" x="10" y="10" width="180" height="100"/>
        </svg>
        """

    // An edit that removes a page asked for is an error, and no PNG of the set is written:
    // they are kept as they were, as the line says.
    @Test func pagesKeptWholeWhenOneIsGone() throws {
        let d = TemporaryDirectory("watch")
        let body = String(repeating: "The harbour at dawn is a study in grey and silver, with boats. ", count: 8) + "\n"
        d.write("doc.txt", String(repeating: body, count: 40))
        let w = try Watcher(d, ["doc.txt", "--pages", "1,2", "--png-dir", "png"])
        try w.wait("the first build") { w.lines(containing: "wrote png/doc-p1.png") == 1 }
        let first = try #require(d.read("png/doc-p1.png"))
        d.write("doc.txt", "One short paragraph.\n")
        try w.wait("the failed build") { w.lines(containing: "kept as it was") == 1 }
        #expect(w.text.contains("page 2 does not exist"), "\(w.text)")
        #expect(d.read("png/doc-p1.png") == first)
        w.stop()
    }

    // A press build in watch runs the preflight as `build --press` does, each build: a
    // 72 ppi image is named with its page; at 400 ppi it is not.
    @Test func pressBuildsAreChecked() throws {
        let d = TemporaryDirectory("watch")
        d.write("pic.png", PreflightTests.png(width: 100, height: 100))
        // 100 pixels across 100 pt: 72 ppi; across 18 pt: 400 ppi.
        d.write("doc.txt", "A picture.\n<img src=\"pic.png\" float=\"left\" width=\"100pt\">\n")
        let w = try Watcher(d, ["doc.txt", "--press", "-o", "doc.pdf"])
        try w.wait("the first build") { w.lines(containing: "wrote doc.pdf") == 1 }
        #expect(w.text.contains("doc.txt:2:1: warning: page 1: image 'pic.png' is 72 ppi"), "\(w.text)")
        d.write("doc.txt", "A picture.\n<img src=\"pic.png\" float=\"left\" width=\"18pt\">\n")
        try w.wait("the second build") { w.lines(containing: "wrote doc.pdf") == 2 }
        #expect(w.lines(containing: "[low-resolution]") == 1, "\(w.text)")
        w.stop()
    }

    // After an edit, what watch writes (taking the unchanged paragraphs from the builds
    // before) is what a fresh build writes, byte for byte: a document's PDF and a page's PNG,
    // and an issue's PDF after one of its articles changed.
    @Test func editsWriteWhatAColdBuildWrites() throws {
        let d = TemporaryDirectory("watch")
        let body = (1...60).map { "Paragraph \($0): the harbour at dawn, grey and silver, boats that rock against the quay." }
        d.write("doc.txt", "<h1>Harbour</h1>\n" + body.joined(separator: "\n") + "\n")
        let manifest = IssueBuildTests.issue(d)
        let pdf = try Watcher(d, ["doc.txt", "-o", "doc.pdf"], log: "pdf.log")
        let png = try Watcher(d, ["doc.txt", "--page", "2", "-o", "p2.png"], log: "png.log")
        let issue = try Watcher(d, [manifest, "-o", "issue.pdf"], log: "issue.log")
        for (w, name) in [(pdf, "doc.pdf"), (png, "p2.png"), (issue, "issue.pdf")] {
            try w.wait("the first build") { w.lines(containing: "wrote \(name)") == 1 }
        }
        var edited = body
        edited[30] = "Paragraph 31, <b>changed</b> in the middle of the text, and longer than it was before the edit."
        d.write("doc.txt", "<h1>Harbour</h1>\n" + edited.joined(separator: "\n") + "\n")
        let a2 = try #require(d.read("a2.txt"))
        d.write("a2.txt", String(decoding: a2, as: UTF8.self) + "A paragraph added at the end of the second article.\n")
        for (w, name) in [(pdf, "doc.pdf"), (png, "p2.png"), (issue, "issue.pdf")] {
            try w.wait("the build after the edit") { w.lines(containing: "wrote \(name)") == 2 }
            w.stop()
        }
        // By the executable, as watch ran (its hooks choose the PDF's compression).
        #expect(runExecutable(["build", d.file("doc.txt"), "-o", d.file("cold.pdf")]).status == 0)
        #expect(runExecutable(["preview", d.file("doc.txt"), "--page", "2", "-o", d.file("cold.png")]).status == 0)
        #expect(runExecutable(["build", manifest, "-o", d.file("cold-issue.pdf")]).status == 0)
        #expect(d.read("doc.pdf") == d.read("cold.pdf"))
        #expect(d.read("p2.png") == d.read("cold.png"))
        #expect(d.read("issue.pdf") == d.read("cold-issue.pdf"))
    }

    // While it waits, watch draws the pages the next build will most likely keep (those
    // before the last edit): a build after a pause takes them ("drawn before the edit"), its
    // PDF is still the cold one, and SIGTERM leaves no temporary file of the next PDF behind.
    @Test func pagesDrawnWhileWaitingMakeTheColdPDF() throws {
        let d = TemporaryDirectory("watch")
        var body = (1...120).map {
            "Paragraph \($0): the harbour at dawn, grey and silver, boats that rock against the quay, gulls above the masts."
        }
        func save() { d.write("doc.txt", "<h1>Harbour</h1>\n" + body.joined(separator: "\n") + "\n") }
        save()
        let w = try Watcher(d, ["doc.txt", "-o", "doc.pdf"])
        try w.wait("the first build") { w.lines(containing: "wrote doc.pdf") == 1 }
        for n in 2...4 {
            body[100] += " Edited."
            save()
            try w.wait("build \(n)") { w.lines(containing: "wrote doc.pdf") == n }
            Thread.sleep(forTimeInterval: 0.5)
        }
        w.stop()
        #expect(w.lines(containing: "drawn before the edit") == 2, "log:\n\(w.text)")
        #expect(runExecutable(["build", d.file("doc.txt"), "-o", d.file("cold.pdf")]).status == 0)
        #expect(d.read("doc.pdf") == d.read("cold.pdf"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    // --synctex writes the SyncTeX file beside each PDF: after an edit it is a cold build's,
    // for a document and for an issue.
    @Test func synctexFollowsEachBuild() throws {
        let d = TemporaryDirectory("watch")
        let body = (1...40).map { "Paragraph \($0): the harbour at dawn, grey and silver, boats that rock against the quay." }
        d.write("doc.txt", "<h1>Harbour</h1>\n" + body.joined(separator: "\n") + "\n")
        let manifest = IssueBuildTests.issue(d)
        let doc = try Watcher(d, ["doc.txt", "-o", "doc.pdf", "--synctex"], log: "doc.log")
        let issue = try Watcher(d, [manifest, "-o", "issue.pdf", "--synctex"], log: "issue.log")
        for (w, name) in [(doc, "doc.pdf"), (issue, "issue.pdf")] {
            try w.wait("the first build") { w.lines(containing: "wrote \(name)") == 1 }
        }
        #expect(d.read("doc.synctex.gz") != nil)
        d.write("doc.txt", "<h1>Harbour</h1>\nA paragraph added at the top.\n" + body.joined(separator: "\n") + "\n")
        let a2 = try #require(d.read("a2.txt"))
        d.write("a2.txt", "A paragraph added at the top of the second article.\n" + String(decoding: a2, as: UTF8.self))
        for (w, name) in [(doc, "doc.pdf"), (issue, "issue.pdf")] {
            try w.wait("the build after the edit") { w.lines(containing: "wrote \(name)") == 2 }
            w.stop()
        }
        #expect(runExecutable(["build", d.file("doc.txt"), "-o", d.file("cold.pdf"), "--synctex"]).status == 0)
        #expect(runExecutable(["build", manifest, "-o", d.file("cold-issue.pdf"), "--synctex"]).status == 0)
        let gunzip = { (name: String) in tool("gzip", ["-dc", d.file(name)]).output }
        let cold = gunzip("cold.synctex.gz")
        #expect(cold.contains("Input:1:"))
        #expect(gunzip("doc.synctex.gz") == cold)
        #expect(gunzip("issue.synctex.gz") == gunzip("cold-issue.synctex.gz"))
        #expect(run(["watch", d.file("doc.txt"), "--page", "1", "--synctex"]).stderr.contains("--synctex goes with a PDF"))
    }

    // The next PDF's temporary file removed while watch waits (a clean-up of the folder): the
    // next build makes the PDF afresh instead of failing on the file gone.
    @Test func aPredrawnFileRemovedIsDrawnAgain() throws {
        let d = TemporaryDirectory("watch")
        var body = (1...120).map { "Paragraph \($0): the harbour at dawn, grey and silver, boats that rock against the quay." }
        func save() { d.write("doc.txt", "<h1>Harbour</h1>\n" + body.joined(separator: "\n") + "\n") }
        save()
        let w = try Watcher(d, ["doc.txt", "-o", "doc.pdf"])
        try w.wait("the first build") { w.lines(containing: "wrote doc.pdf") == 1 }
        body[100] += " Edited."
        save()
        try w.wait("the second build") { w.lines(containing: "wrote doc.pdf") == 2 }
        let scratch = { try FileManager.default.contentsOfDirectory(atPath: d.path).filter { $0.hasSuffix(".tmp") } }
        try w.wait("the next PDF begun") { (try? scratch().isEmpty) == false }
        for name in try scratch() { try FileManager.default.removeItem(atPath: d.file(name)) }
        body[100] += " Again."
        save()
        try w.wait("the third build") { w.lines(containing: "wrote doc.pdf") == 3 || w.text.contains("error") }
        w.stop()
        #expect(!w.text.contains("error"), "\(w.text)")
        #expect(runExecutable(["build", d.file("doc.txt"), "-o", d.file("cold.pdf")]).status == 0)
        #expect(d.read("doc.pdf") == d.read("cold.pdf"))
    }

    // --press --strict: a build whose preflight finds an error (a 72 ppi image) writes
    // nothing, and the last good PDF stays; mended, the next one is written.
    @Test func strictKeepsTheLastGoodPDF() throws {
        let d = TemporaryDirectory("watch")
        d.write("pic.png", PreflightTests.png(width: 100, height: 100))
        d.write("doc.txt", "A picture.\n<img src=\"pic.png\" float=\"left\" width=\"18pt\">\n")
        let w = try Watcher(d, ["doc.txt", "--press", "--strict", "-o", "doc.pdf"])
        try w.wait("the first build") { w.lines(containing: "wrote doc.pdf") == 1 }
        let good = try #require(d.read("doc.pdf"))
        d.write("doc.txt", "A picture.\n<img src=\"pic.png\" float=\"left\" width=\"100pt\">\n")
        try w.wait("the refused build") { w.lines(containing: "doc.pdf kept as it was") == 1 }
        #expect(w.text.contains("error: page 1: image 'pic.png' is 72 ppi"), "\(w.text)")
        #expect(d.read("doc.pdf") == good)
        d.write("doc.txt", "A picture, smaller.\n<img src=\"pic.png\" float=\"left\" width=\"18pt\">\n")
        try w.wait("the mended build") { w.lines(containing: "wrote doc.pdf") == 2 }
        w.stop()
        #expect(Self.pdfText(d.file("doc.pdf")).contains("smaller"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    // Watching an issue with --depfile and --split writes them again after each build, as
    // `build` does.
    @Test func depfileAndSplitOfAnIssue() throws {
        let d = TemporaryDirectory("watch")
        let manifest = IssueBuildTests.issue(d)
        let w = try Watcher(d, [manifest, "-o", "issue.pdf", "--depfile", "issue.d", "--split", "parts"])
        try w.wait("the first build") { w.lines(containing: "wrote issue.pdf") == 1 }
        #expect(try String(contentsOfFile: d.file("issue.d"), encoding: .utf8).contains(d.file("a3.txt")))
        #expect(d.read("parts/a1.pdf") != nil && d.read("parts/a3.pdf") != nil)
        d.write("a3.txt", "<h1>Tides</h1>\nThe tide turned at noon, and the harbour emptied.\n")
        try w.wait("the build after the edit") { w.lines(containing: "wrote issue.pdf") == 2 }
        w.stop()
        #expect(Self.pdfText(d.file("parts/a3.pdf")).contains("The tide turned at noon"))
        let usage = run(["watch", d.file("a1.txt"), "--depfile", d.file("x.d")])
        #expect(usage.status == 2 && usage.stderr.contains("are for issue manifests"), "\(usage.stderr)")
        // `--depfile -` prints a build's rule; watch would print it after every rebuild.
        let printed = run(["watch", manifest, "-o", d.file("issue.pdf"), "--depfile", "-"])
        #expect(printed.status == 2 && printed.stderr.contains("--depfile -: watch writes the rule"), "\(printed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    // Options that cannot go together are usage errors, before anything is watched.
    @Test func usageErrors() {
        let d = TemporaryDirectory("watch")
        let doc = d.write("doc.txt", "Text.\n")
        #expect(run(["watch", doc, "--page", "1", "--pages", "2"]).status == 2)
        #expect(run(["watch", doc, "--pages", "x"]).stderr.contains("--pages must be page numbers"))
        #expect(run(["watch", doc, "--png-dir", "out"]).stderr.contains("--png-dir goes with --pages"))
        #expect(run(["watch", "-"]).stderr.contains("not standard input"))
        #expect(run(["watch", doc, "-o", "-"]).stderr.contains("watch writes a file after each save; give -o FILE"))
        #expect(run(["watch", doc, "--pages", "2", "-o", d.file("x.pdf")]).stderr.contains("with --pages the PNGs go to --png-dir"))
        #expect(run(["watch", doc, "--pages", "1,,2"]).stderr.contains("--pages must be page numbers"))
        let file = d.write("taken", "a file, not a folder")
        let r = run(["watch", doc, "--pages", "1", "--png-dir", file])
        #expect(r.status == 2 && r.stderr.contains("--png-dir: cannot make the folder"), "\(r.stderr)")
    }
}
