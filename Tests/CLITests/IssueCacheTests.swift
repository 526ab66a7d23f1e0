import Foundation
import TestSupport
import Testing

/// `--cache DIR`: an issue's articles laid out once and kept. The PDF is the same bytes with
/// and without it; an edited article is laid out again, and only that one; an entry that is
/// damaged, made by another build or set in a font that has changed is not used, with a warning.
@Suite struct IssueCacheTests {
    struct Summary: Decodable {
        struct Article: Decodable {
            var file: String
            var cached: Bool
        }
        var articles: [Article]
    }

    /// Builds `manifest` to `pdf` (with the cache in `cache`, if given): the articles' cache
    /// use by file, and the warnings.
    static func build(_ manifest: String, _ pdf: String, cache: String?) throws -> (cached: [String: Bool], stderr: String) {
        let r = run(["build", manifest, "-o", pdf, "--json"] + (cache.map { ["--cache", $0] } ?? []))
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try JSONDecoder().decode(Summary.self, from: r.stdout)
        return (Dictionary(uniqueKeysWithValues: summary.articles.map { ($0.file, $0.cached) }), r.stderr)
    }

    /// The test issue built once to `clean.pdf` with its cache: the folder, the manifest, the
    /// cache folder and its entries.
    static func cachedIssue() throws -> (TemporaryDirectory, String, String, [String]) {
        let d = TemporaryDirectory("cache")
        let manifest = IssueBuildTests.issue(d)
        let cache = d.file("cache")
        _ = try build(manifest, d.file("clean.pdf"), cache: cache)
        return (d, manifest, cache, entries(cache))
    }

    static func entries(_ cache: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter { $0.hasSuffix(".layout") }.sorted().map {
            (cache as NSString).appendingPathComponent($0)
        }
    }

    /// Where two PDFs that should be the same differ, as a reader sees them: the pages and
    /// fonts, and the first page whose text differs.
    static func difference(_ a: String, _ b: String) -> String {
        func pages(_ pdf: String) -> [String] { tool("pdftotext", ["-layout", pdf, "-"]).output.components(separatedBy: "\u{0C}") }
        let (pa, pb) = (pages(a), pages(b))
        let fonts = [a, b].map { tool("pdffonts", [$0]).output }
        var report = "pages \(pa.count) and \(pb.count); fonts:\n\(fonts[0])\n\(fonts[1])"
        let shorter = min(pa.count, pb.count)
        if let k = (0..<shorter).first(where: { pa[$0] != pb[$0] }) ?? (pa.count != pb.count ? shorter : nil) {
            report += "\nfirst differing page \(k + 1):\n\(k < pa.count ? pa[k] : "")\n----\n\(k < pb.count ? pb[k] : "")"
        }
        return report
    }

    // `--cache` naming the PDF made a folder there, then refused to write the PDF over it,
    // and every build after failed the same way.
    @Test func theCacheIsNotAnOutput() {
        let d = TemporaryDirectory("cache")
        let manifest = IssueBuildTests.issue(d)
        let r = run(["build", manifest, "-o", d.file("same.pdf"), "--cache", d.file("same.pdf")])
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "galley build: error: the --cache folder '\(d.file("same.pdf"))' is the issue's PDF ('\(d.file("same.pdf"))'); name another folder\n"
        )
        #expect(!FileManager.default.fileExists(atPath: d.file("same.pdf")))
        let depfile = run(["build", manifest, "-o", d.file("a.pdf"), "--depfile", d.file("a.d"), "--cache", d.file("a.d")])
        #expect(depfile.status == 2 && depfile.stderr.contains("is the --depfile"), "\(depfile.stderr)")
    }

    @Test func sameBytesWithAndWithoutTheCache() throws {
        let d = TemporaryDirectory("cache")
        let manifest = IssueBuildTests.issue(d)
        let cache = d.file("cache/layouts")
        _ = try Self.build(manifest, d.file("plain.pdf"), cache: nil)
        let cold = try Self.build(manifest, d.file("cold.pdf"), cache: cache)
        #expect(cold.cached.values.allSatisfy { !$0 })
        #expect(Self.entries(cache).count == 3)
        let warm = try Self.build(manifest, d.file("warm.pdf"), cache: cache)
        #expect(warm.cached == ["a1.txt": true, "a2.txt": true, "a3.txt": true])
        #expect(!warm.stderr.contains("cache"), "\(warm.stderr)")
        let plain = try #require(d.read("plain.pdf"))
        #expect(d.read("cold.pdf") == plain)
        #expect(d.read("warm.pdf") == plain)
    }

    // The sample issue (every sample as an article: Chinese with compressed punctuation,
    // vertical text, pull quotes, floats, drop caps, a jump, an article sharing a page) is the
    // same bytes from the cache, and every article set on its own page comes from it.
    @Test func theSampleIssueFromTheCache() throws {
        let d = TemporaryDirectory("cache")
        let manifest = repoPath("samples/issue/issue.json")
        func build(_ name: String, _ extra: [String]) -> CLIResult {
            let r = run(["build", manifest, "--root", repoPath("samples"), "-o", d.file(name), "--json"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return r
        }
        _ = build("plain.pdf", [])
        _ = build("cold.pdf", ["--cache", d.file("cache")])
        let warm = build("warm.pdf", ["--cache", d.file("cache")])
        #expect(!warm.stderr.contains("cache"), "\(warm.stderr)")
        let summary = try JSONDecoder().decode(Summary.self, from: warm.stdout)
        // All of them: the one set under another's end (`startOn: any`) too.
        #expect(summary.articles.allSatisfy { $0.cached }, "\(summary.articles)")
        #expect(d.read("warm.pdf") == d.read("plain.pdf"))
        #expect(d.read("cold.pdf") == d.read("plain.pdf"))
    }

    // A file listed twice (`allowRepeat`), its second setting under a title of its own: each
    // has an entry, so both come from the cache, and the PDF is a clean build's.
    @Test func aFileListedTwiceKeepsBothEntries() throws {
        let d = TemporaryDirectory("cache")
        var manifest = IssueBuildTests.issue(d)
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        text = text.replacingOccurrences(
            of: #"{"file": "a3.txt"}"#, with: #"{"file": "a3.txt"}, {"file": "a3.txt", "title": "Again", "allowRepeat": true}"#)
        manifest = d.write("issue.json", text)
        let cache = d.file("cache")
        func cached(_ name: String) throws -> [Bool] {
            let r = run(["build", manifest, "-o", d.file(name), "--json", "--cache", cache])
            #expect(r.status == 0, "\(r.stderr)")
            return try JSONDecoder().decode(Summary.self, from: r.stdout).articles.map(\.cached)
        }
        let cold = try cached("cold.pdf")
        let warm = try cached("warm.pdf")
        #expect(cold == [false, false, false, false] && warm == [true, true, true, true], "\(cold) \(warm)")
        #expect(Self.entries(cache).count == 4)
        #expect(run(["build", manifest, "-o", d.file("clean.pdf"), "-q"]).status == 0)
        #expect(d.read("warm.pdf") == d.read("clean.pdf"), "\(Self.difference(d.file("warm.pdf"), d.file("clean.pdf")))")
    }

    // One article edited: it alone is laid out again, and the PDF is a clean build's, its
    // contents and folios following the article's new length.
    @Test func anEditedArticleAloneIsLaidOutAgain() throws {
        let d = TemporaryDirectory("cache")
        let manifest = IssueBuildTests.issue(d)
        let cache = d.file("cache")
        _ = try Self.build(manifest, d.file("cold.pdf"), cache: cache)
        let a1 = try #require(d.read("a1.txt"))
        _ = d.write("a1.txt", String(decoding: a1, as: UTF8.self) + String(repeating: "A paragraph added at the end. ", count: 200) + "\n")
        let edited = try Self.build(manifest, d.file("edited.pdf"), cache: cache)
        #expect(edited.cached == ["a1.txt": false, "a2.txt": true, "a3.txt": true])
        _ = try Self.build(manifest, d.file("clean.pdf"), cache: nil)
        #expect(d.read("edited.pdf") == d.read("clean.pdf"), "\(Self.difference(d.file("edited.pdf"), d.file("clean.pdf")))")
        #expect(Self.entries(cache).count == 3, "the edited article's entry is replaced, not added")
    }

    // A damaged entry (a byte changed, or cut short) gives the same PDF and a warning, and is
    // written again.
    @Test func aDamagedEntryIsNotTrusted() throws {
        let (d, manifest, cache, files) = try Self.cachedIssue()
        var flipped = try #require(FileManager.default.contents(atPath: files[0]))
        flipped[flipped.count - 100] ^= 0x55
        FileManager.default.createFile(atPath: files[0], contents: flipped)
        let cut = try #require(FileManager.default.contents(atPath: files[1]))
        FileManager.default.createFile(atPath: files[1], contents: cut.prefix(cut.count / 2))
        let damaged = try Self.build(manifest, d.file("damaged.pdf"), cache: cache)
        #expect(damaged.stderr.components(separatedBy: "is damaged; laying it out again").count == 3, "\(damaged.stderr)")
        #expect(damaged.cached.values.filter { $0 }.count == 1)
        #expect(d.read("damaged.pdf") == d.read("clean.pdf"))
        let again = try Self.build(manifest, d.file("again.pdf"), cache: cache)
        #expect(again.cached.values.allSatisfy { $0 }, "\(again.stderr)")
    }

    // An entry's name is the article's name hashed, the same in every project: a symlink
    // planted there was written through, and the article it led to became a cache entry.
    // It is replaced now; and a FIFO or a device there is not read (a FIFO hung the build,
    // /dev/zero grew it without end).
    @Test func plantedEntriesAreNeitherFollowedNorWaitedOn() throws {
        let (d, manifest, cache, files) = try Self.cachedIssue()
        try #require(files.count >= 3)
        let victim = d.write("victim.txt", "An article of someone's.\n")
        try FileManager.default.removeItem(atPath: files[0])
        try FileManager.default.createSymbolicLink(atPath: files[0], withDestinationPath: victim)
        try FileManager.default.removeItem(atPath: files[1])
        #expect(mkfifo(files[1], 0o600) == 0)
        try FileManager.default.removeItem(atPath: files[2])
        try FileManager.default.createSymbolicLink(atPath: files[2], withDestinationPath: "/dev/zero")
        let planted = try Self.build(manifest, d.file("planted.pdf"), cache: cache)
        #expect(d.read("victim.txt") == Data("An article of someone's.\n".utf8))
        #expect(d.read("planted.pdf") == d.read("clean.pdf"))
        #expect(planted.stderr.contains("is damaged; laying it out again"), "\(planted.stderr)")
        let kinds = try [files[0], files[2]].map { try FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType }
        #expect(kinds == [.typeRegular, .typeRegular], "\(kinds)")
    }

    // An entry made by another build of Galley is not used.
    @Test func anEntryOfAnotherBuildIsNotUsed() throws {
        let d = TemporaryDirectory("cache")
        let manifest = IssueBuildTests.issue(d)
        let cache = d.file("cache")
        _ = try Self.build(manifest, d.file("clean.pdf"), cache: cache)
        for file in Self.entries(cache) {
            var bytes = try #require(FileManager.default.contents(atPath: file))
            // The maker's name follows the magic line and its length: "galley 0.1.0 …".
            let at = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1 + 8
            #expect(bytes[at] == UInt8(ascii: "g"))
            bytes[at] = UInt8(ascii: "G")
            FileManager.default.createFile(atPath: file, contents: bytes)
        }
        let other = try Self.build(manifest, d.file("other.pdf"), cache: cache)
        #expect(other.stderr.contains("'a2.txt' was made by another build of Galley"), "\(other.stderr)")
        #expect(other.cached.values.allSatisfy { !$0 })
        #expect(d.read("other.pdf") == d.read("clean.pdf"))
    }

    // A font the layout was set in has changed since: the entry is stale. (As a process: the
    // project font folder is added for the whole process.)
    @Test func anEntryWhoseFontChangedIsStale() throws {
        let d = TemporaryDirectory("cache")
        let fonts = FontsTests.renamedFont(in: d)
        let manifest = IssueBuildTests.issue(d, articles: ["<font face=\"Qwerty Sans\">Set in a project font.</font>\n"])
        let args = ["build", manifest, "-o", d.file("issue.pdf"), "--font-path", fonts, "--cache", d.file("cache")]
        #expect(runExecutable(args).status == 0)
        let warm = runExecutable(args)
        #expect(!warm.stderr.contains("laying it out again"), "\(warm.stderr)")
        let font = (fonts as NSString).appendingPathComponent("QwertySans.ttf")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: font)
        let stale = runExecutable(args)
        #expect(stale.status == 0)
        #expect(stale.stderr.contains("QwertySans.ttf', which has changed since; laying it out again"), "\(stale.stderr)")
    }

    @Test func aCacheThatIsAFileIsAWarning() throws {
        let d = TemporaryDirectory("cache")
        let manifest = IssueBuildTests.issue(d)
        let notAFolder = d.write("cache", "a file")
        let r = run(["build", manifest, "-o", d.file("issue.pdf"), "--cache", notAFolder])
        #expect(r.status == 0)
        #expect(r.stderr.contains("cannot use '\(notAFolder)' as the layout cache: it is not a writable folder"), "\(r.stderr)")
    }

    @Test func aSingleDocumentSaysTheCacheIsForIssues() {
        let d = TemporaryDirectory("cache")
        let doc = d.write("doc.txt", "One paragraph.\n")
        let r = run(["build", doc, "-o", d.file("doc.pdf"), "--cache", d.file("cache")])
        #expect(r.status == 0)
        #expect(r.stderr.contains("--cache keeps the articles of an issue; a single document is laid out afresh"), "\(r.stderr)")
    }
}
