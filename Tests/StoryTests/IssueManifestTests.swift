import Foundation
import GalleyMarkup
import TestSupport
import Testing

@testable import GalleyTemplate

/// A folder `issue/` holding two articles, a cover, an ad, a template and a sub-folder, with a
/// file outside it; manifests are decoded as `issue/issue.json`.
final class IssueFolder: Sendable {
    let dir = TemporaryDirectory("issue")

    init() {
        dir.write("issue/a.txt", "<h1>A</h1>\nText.\n")
        dir.write("issue/b.txt", "<h1>B</h1>\nText.\n")
        dir.write("issue/cover.jpg", "not really a JPEG")
        dir.write("issue/ad.png", "not really a PNG")
        dir.write("issue/t.json", "{\"columns\": 1}\n")
        dir.write("issue/more/c.txt", "C\n")
        dir.write("outside.txt", "secret\n")
    }

    var manifest: String { dir.file("issue/issue.json") }

    func decode(_ json: String, root: String? = nil) -> Result<IssueManifest, Diagnostic> {
        IssueManifest.decode(json, file: manifest, root: root)
    }

    func decoded(_ json: String) -> IssueManifest? { try? decode(json).get() }

    /// The error `json` gives, rendered as the CLI prints it, with `<dir>` for the folder.
    func error(_ json: String, root: String? = nil) -> String {
        guard case .failure(let d) = decode(json, root: root) else { return "decoded" }
        let source = SourceFile(path: manifest, text: json)
        return DiagnosticRenderer.render(d, sources: { $0 == d.file ? source : nil })
            .replacingOccurrences(of: dir.path, with: "<dir>")
    }

    /// The first line of `error(json)` without the file name: `line:col: error: message`.
    func message(_ json: String, root: String? = nil) -> String {
        let first = error(json, root: root).split(separator: "\n").first.map(String.init) ?? ""
        return first.replacingOccurrences(of: "<dir>/issue/issue.json:", with: "")
    }
}

/// `{"articles": [{"file": "a.txt"}], …}` with `more` members before the articles.
func manifest(_ more: String = "", articles: String = #"{"file": "a.txt"}"#) -> String {
    "{\(more.isEmpty ? "" : more + ", ")\"articles\": [\(articles)]}"
}

@Suite struct IssueManifestDecodeTests {
    let folder = IssueFolder()

    static let full = """
        {
          "title": "Harbour Monthly", "subtitle": "The printing issue", "issue": "No. 12", "date": "2026-12",
          "language": "en-GB", "keywords": ["printing", "type"], "template": "Tabloid", "set": {"body.size": 9.5},
          "startPage": 3, "pageMultiple": 4, "frontMatter": "roman",
          "cover": {"image": "cover.jpg", "lines": [{"text": "The Last Compositors", "class": "coverline"}, {"text": "Tides"}]},
          "contents": {"after": "start", "title": "In this issue"},
          "articles": [
            {"file": "a.txt", "title": "The Last Compositors", "section": "Features", "byline": "Isobel Carrow",
             "startOn": "recto", "template": "t.json", "set": {"columns": 3}, "jump": {"after": 2, "to": "./more/c.txt"}},
            {"file": "b.txt", "section": "Notebook", "startOn": "any"},
            {"file": "more/c.txt", "startOn": "Verso"},
            {"file": "a.txt", "allowRepeat": true}
          ],
          "inserts": [{"image": "ad.png", "after": "b.txt"}, {"image": "ad.png", "filler": true}, {"image": "ad.png", "after": "cover"}]
        }
        """

    // Every field of a full manifest, paths resolved against the manifest's folder.
    @Test func fullManifest() throws {
        let m = try folder.decode(Self.full).get()
        let issue = folder.dir.file("issue")
        #expect(m.path == folder.manifest && m.folder == issue && m.root == issue)
        #expect(m.title == "Harbour Monthly" && m.subtitle == "The printing issue" && m.issue == "No. 12" && m.date == "2026-12")
        #expect(m.language == "en-GB" && m.keywords == ["printing", "type"] && m.template == "tabloid")
        #expect(m.startPage == 3 && m.pageMultiple == 4 && m.romanFrontMatter)
        #expect(m.cover?.image == issue + "/cover.jpg" && m.cover?.location.line == 5)
        #expect(m.cover?.lines.map(\.text) == ["The Last Compositors", "Tides"])
        #expect(m.cover?.lines.map(\.styleClass) == ["coverline", nil])
        #expect(m.contents?.after == "start" && m.contents?.title == "In this issue")
        #expect(m.articles.map(\.written) == ["a.txt", "b.txt", "more/c.txt", "a.txt"])
        #expect(m.articles.map(\.file) == ["a.txt", "b.txt", "more/c.txt", "a.txt"].map { issue + "/" + $0 })
        #expect(m.articles.map(\.startOn) == [.recto, .any, .verso, .newPage])
        #expect(m.articles.map(\.allowRepeat) == [false, false, false, true])
        let a = m.articles[0]
        #expect("\(a.location)" == "8:14")
        #expect(a.title == "The Last Compositors" && a.section == "Features" && a.byline == "Isobel Carrow")
        #expect(a.template == issue + "/t.json" && a.layers.map(\.keyPath) == ["articles[0].set"])
        // A jump names its article as that article is listed.
        #expect(a.jump?.after == 2 && a.jump?.to == "more/c.txt" && "\(a.jump!.location)" == "9:79")
        #expect(m.articles[1].title == nil && m.articles[1].section == "Notebook" && m.articles[1].template == nil)
        #expect(m.inserts.map(\.after) == ["b.txt", nil, "cover"] && m.inserts.map(\.filler) == [false, true, false])
        #expect(m.inserts.allSatisfy { $0.image == issue + "/ad.png" })
        #expect(m.layers.map(\.keyPath) == ["set"] && "\(m.layers[0].location)" == "3:88")
    }

    // Keys left out take their defaults; a manifest beside the working folder has folder ".".
    @Test func defaults() throws {
        let m = try folder.decode(manifest()).get()
        #expect(m.title == nil && m.keywords.isEmpty && m.template == "magazine" && m.layers.isEmpty)
        #expect(m.startPage == 1 && m.pageMultiple == 1 && !m.romanFrontMatter && m.cover == nil && m.contents == nil)
        #expect(m.articles.count == 1 && m.articles[0].startOn == .newPage && m.articles[0].jump == nil && m.inserts.isEmpty)
        let contents = try folder.decode(manifest(#""contents": {}"#)).get().contents
        #expect(contents?.after == "cover" && contents?.title == "Contents")
        let here = IssueManifest.decode(#"{"articles": []}"#, file: "issue.json")
        guard case .failure(let d) = here else { Issue.record("decoded"); return }
        #expect(d.file == "issue.json")
    }

    // Loading reads the file; a missing one or a folder is refused in the template's words.
    @Test func load() throws {
        folder.dir.write("issue/issue.json", manifest())
        let m = try IssueManifest.load(folder.manifest).get()
        #expect(m.articles.map(\.written) == ["a.txt"])
        guard case .failure(let d) = IssueManifest.load(folder.dir.file("issue/none.json")) else { Issue.record("loaded"); return }
        #expect(d.message.hasPrefix("cannot read issue manifest '") && d.message.hasSuffix("none.json': No such file or directory"))
        guard case .failure(let e) = IssueManifest.load(folder.dir.file("issue/more")) else { Issue.record("loaded"); return }
        #expect(e.message.hasSuffix("more': it is a folder"))
    }

    // A template read where a manifest is expected is named as one.
    @Test func aTemplateIsNotAManifest() {
        guard case .failure(let d) = IssueManifest.decode(#"{"columns": 3, "extends": "magazine"}"#, file: "t.json") else {
            Issue.record("decoded")
            return
        }
        #expect(d.message.hasPrefix("this is a template, not an issue manifest"))
        guard case .failure(let e) = IssueManifest.decode(#"{"artcles": []}"#, file: "i.json") else {
            Issue.record("decoded")
            return
        }
        #expect(e.message == "unknown key 'artcles'; did you mean 'articles'?")
    }
}

@Suite struct IssueManifestErrorTests {
    let folder = IssueFolder()

    // Text that is not JSON gets the JSON reader's located error.
    @Test func notJSON() {
        #expect(
            folder.error("{\"articles\": [],\n}")
                == "<dir>/issue/issue.json:2:1: error: trailing comma before '}'\n}\n^\n")
        #expect(folder.message("title: x") == "1:1: error: unexpected word 'title'; strings need double quotes, as in \"title\"")
        #expect(folder.message("[1]") == "1:1: error: an issue manifest must be a JSON object, got an array")
        #expect(folder.message("{}") == "1:1: error: an issue manifest needs \"articles\", the list of its article files")
        #expect(
            folder.message(#"{"articles": []}"#)
                == #"1:14: error: key 'articles': an issue needs at least one article, as in [{"file": "story.txt"}]"#)
        #expect(
            folder.message(#"{"articles": {}}"#)
                == "1:14: error: key 'articles': expected a list of articles, as in [{\"file\": \"story.txt\"}], got an object")
    }

    // A NUL in a path would cut it short where the system reads it: refused.
    @Test func controlCharacterInAPath() {
        #expect(
            folder.message(#"{"articles": [{"file": "a.txt\u0000.evil"}]}"#)
                == #"1:24: error: key 'articles[0].file': a file name cannot hold control characters (such as \u0000)"#)
    }

    // A NUL in a title cut the PDF's title and outline entry short while the contents showed
    // it whole: text holds no control characters (a cover line may break its line).
    @Test func controlCharacterInText() {
        #expect(
            folder.message(#"{"title": "T\u0000x", "articles": [{"file": "a.txt"}]}"#)
                == #"1:11: error: key 'title': text cannot hold control characters (such as \u0000): they would cut the PDF's title and outline short"#
        )
        #expect(
            folder.message(#"{"articles": [{"file": "a.txt", "section": "S\u0007T"}]}"#)
                == #"1:44: error: key 'articles[0].section': text cannot hold control characters (such as \u0007): they would cut the PDF's title and outline short"#
        )
        let cover = folder.decoded(
            #"{"cover": {"image": "cover.jpg", "lines": [{"text": "Two\nlines"}]}, "articles": [{"file": "a.txt"}]}"#)
        #expect(cover?.cover?.lines.first?.text == "Two\nlines")
    }

    // Unknown keys, at the key, with the nearest key of the same object.
    @Test func unknownKeys() {
        let json = """
            {
              "articles": [
                {"file": "a.txt"},
                {"file": "b.txt", "sectoin": "Notebook"}
              ]
            }
            """
        #expect(
            folder.error(json) == """
                <dir>/issue/issue.json:4:23: error: unknown key 'articles[1].sectoin'; did you mean 'section'?
                    {"file": "b.txt", "sectoin": "Notebook"}
                                      ^~~~~~~~~

                """)
        #expect(folder.message(manifest(#""titel": "x""#)) == "1:2: error: unknown key 'titel'; did you mean 'title'?")
        #expect(folder.message(manifest(#""colour": "x""#)) == "1:2: error: unknown key 'colour'")
        #expect(
            folder.message(manifest(#""cover": {"image": "cover.jpg", "lines": [{"text": "x", "klass": "y"}]}"#))
                == "1:58: error: unknown key 'cover.lines[0].klass'; did you mean 'class'?")
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt", "jump": {"afte": 1}}"#))
                == "1:42: error: unknown key 'articles[0].jump.afte'; did you mean 'after'?")
        #expect(
            folder.message(manifest(#""title": "x", "title": "y""#))
                == "1:16: error: duplicate key 'title' (first given at 1:2)")
    }

    // Numbers: pageMultiple and startPage whole and at least 1, jump.after too.
    @Test func numbers() {
        let range = "expected a whole number from 1 to 1000"
        #expect(folder.message(manifest(#""pageMultiple": 0"#)) == "1:18: error: key 'pageMultiple': \(range), got 0")
        #expect(folder.message(manifest(#""pageMultiple": -4"#)) == "1:18: error: key 'pageMultiple': \(range), got -4")
        #expect(folder.message(manifest(#""pageMultiple": 2.5"#)) == "1:18: error: key 'pageMultiple': \(range), got 2.5")
        #expect(folder.message(manifest(#""pageMultiple": "4""#)) == "1:18: error: key 'pageMultiple': \(range), got \"4\"")
        #expect(folder.decoded(manifest(#""pageMultiple": 4.0"#))?.pageMultiple == 4)
        #expect(
            folder.message(manifest(#""startPage": 0"#))
                == "1:15: error: key 'startPage': expected a whole number from 1 to 99999, got 0")
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt", "jump": {"after": 0}}"#))
                == "1:51: error: key 'articles[0].jump.after': expected a whole number from 1 to 99999, got 0")
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt", "jump": {}}"#))
                == "1:41: error: key 'articles[0].jump': a jump needs \"after\", the pages set before it")
    }

    // Choices: startOn, frontMatter and contents.after, with the nearest or the list.
    @Test func choices() {
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt", "startOn": "rectoo"}"#))
                == "1:44: error: key 'articles[0].startOn': unknown place to start 'rectoo'; did you mean 'recto'?")
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt", "startOn": "sideways"}"#))
                == "1:44: error: key 'articles[0].startOn': unknown place to start 'sideways'; use any, newPage, recto or verso")
        #expect(folder.decoded(manifest(articles: #"{"file": "a.txt", "startOn": "newpage"}"#))?.articles[0].startOn == .newPage)
        #expect(
            folder.message(manifest(#""frontMatter": "roma""#))
                == "1:17: error: key 'frontMatter': unknown front matter numbering 'roma'; did you mean 'roman'?")
        #expect(
            folder.message(manifest(#""contents": {"after": "covers"}"#))
                == "1:24: error: key 'contents.after': unknown place for the contents 'covers'; did you mean 'cover'?")
        #expect(
            folder.message(manifest(#""language": "English language""#))
                == "1:14: error: key 'language': expected a BCP 47 language tag such as \"en\" or \"zh-Hans\", got \"English language\"")
    }

    // A link to nothing, or a loop of links, is said to be one.
    @Test func brokenLinks() throws {
        try FileManager.default.createSymbolicLink(atPath: folder.dir.file("issue/gone.txt"), withDestinationPath: "nothing.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.dir.file("issue/loop.txt"), withDestinationPath: "loop.txt")
        #expect(
            folder.message(manifest(articles: #"{"file": "gone.txt"}"#))
                == "1:24: error: cannot use article 'gone.txt': it is a symbolic link to a file that does not exist")
        #expect(
            folder.message(manifest(articles: #"{"file": "loop.txt"}"#))
                == "1:24: error: cannot use article 'loop.txt': it is a loop of symbolic links")
    }

    // A missing article, cover image, insert image or template file: at its value.
    @Test func missingFiles() {
        #expect(
            folder.error(manifest(articles: #"{"file": "nope.txt"}"#))
                == """
                <dir>/issue/issue.json:1:24: error: cannot find article 'nope.txt'
                {"articles": [{"file": "nope.txt"}]}
                                       ^~~~~~~~~~

                """)
        #expect(
            folder.message(manifest(#""cover": {"image": "cover.png"}"#)) == "1:21: error: cannot find cover image 'cover.png'")
        #expect(folder.message(manifest(#""cover": {"lines": []}"#)) == "1:11: error: key 'cover': the cover needs an \"image\"")
        #expect(
            folder.message(#"{"articles": [{"file": "a.txt"}], "inserts": [{"image": "ads.png"}]}"#)
                == "1:57: error: cannot find insert image 'ads.png'")
        #expect(folder.message(manifest(#""template": "my.json""#)) == "1:14: error: cannot find template 'my.json'")
        #expect(folder.message(manifest(articles: #"{"file": "more"}"#)) == "1:24: error: cannot use article 'more': it is a folder")
        #expect(
            folder.message(manifest(articles: #"{"title": "A"}"#))
                == "1:15: error: key 'articles[0]': an article needs a \"file\", its text file")
        #expect(
            folder.message(manifest(articles: #"{"file": ""}"#)) == "1:24: error: key 'articles[0].file': expected a file name, got \"\"")
    }

    // Paths that lead out of the folder are refused in the same words whether or not the file
    // exists; --root widens the folder.
    @Test func confinement() {
        let refusal = { (path: String, what: String) in
            "cannot use \(what) '\(path)': it is outside '<dir>/issue', the folder an issue's files are read from; "
                + "run with --root DIR to read files under DIR"
        }
        #expect(
            folder.message(manifest(articles: #"{"file": "../outside.txt"}"#)) == "1:24: error: " + refusal("../outside.txt", "article"))
        #expect(
            folder.message(manifest(articles: #"{"file": "../missing.txt"}"#)) == "1:24: error: " + refusal("../missing.txt", "article"))
        let absolute = folder.dir.file("outside.txt")
        #expect(
            folder.message(manifest(articles: "{\"file\": \"\(absolute)\"}"))
                == "1:24: error: " + refusal("<dir>/outside.txt", "article"))
        #expect(
            folder.message(manifest(#""cover": {"image": "../outside.txt"}"#))
                == "1:21: error: " + refusal("../outside.txt", "cover image"))
        #expect(
            folder.message(manifest(#""template": "../t.json""#)) == "1:14: error: " + refusal("../t.json", "template"))
        // A link inside that leads out is refused too.
        symlink(folder.dir.file("outside.txt"), folder.dir.file("issue/link.txt"))
        #expect(folder.message(manifest(articles: #"{"file": "link.txt"}"#)) == "1:24: error: " + refusal("link.txt", "article"))
        let m = try? folder.decode(manifest(articles: #"{"file": "../outside.txt"}"#), root: folder.dir.path).get()
        #expect(m?.articles[0].file == folder.dir.file("issue") + "/../outside.txt" && m?.root == folder.dir.path)
    }

    // The same file twice needs "allowRepeat" on the second, however it is spelt.
    @Test func repeatedArticle() {
        #expect(
            folder.error(manifest(articles: #"{"file": "a.txt"}, {"file": "./a.txt"}"#))
                == """
                <dir>/issue/issue.json:1:43: error: article './a.txt' is already listed (as 'a.txt' at 1:24); \
                add "allowRepeat": true to list it again
                {"articles": [{"file": "a.txt"}, {"file": "./a.txt"}]}
                                                          ^~~~~~~~~

                """)
        #expect(folder.decoded(manifest(articles: #"{"file": "a.txt"}, {"file": "./a.txt", "allowRepeat": true}"#)) != nil)
        // The manifest itself as an article.
        folder.dir.write("issue/issue.json", "{}")
        #expect(
            folder.message(manifest(articles: #"{"file": "issue.json"}"#))
                == "1:24: error: article 'issue.json' is this manifest; list the articles' text files")
        // Another manifest: its JSON was typeset as the article's text.
        folder.dir.write("issue/other.json", #"{"articles": [{"file": "a.txt"}]}"#)
        #expect(
            folder.message(manifest(articles: #"{"file": "other.json"}"#))
                == "1:24: error: article 'other.json' is a JSON file (a manifest or a template); list the articles' text files")
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt"}, {"file": "a.txt", "allowRepeat": "yes"}"#))
                == "1:67: error: key 'articles[1].allowRepeat': expected true or false, got \"yes\"")
    }

    // jump.to names another listed article; inserts go after an article, the cover or the contents.
    @Test func references() {
        let two = #"{"file": "a.txt", "jump": {"after": 1, "to": "bb.txt"}}, {"file": "b.txt"}"#
        #expect(
            folder.message(manifest(articles: two))
                == "1:60: error: key 'articles[0].jump.to': 'bb.txt' is not one of the articles; did you mean 'b.txt'?")
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt", "jump": {"after": 1, "to": "a.txt"}}"#))
                == "1:60: error: key 'articles[0].jump.to': an article cannot continue after itself")
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt"}, {"file": "b.txt", "jump": {"after": 1, "to": "a.txt"}}"#))
                == "1:79: error: key 'articles[1].jump.to': 'a.txt' comes before this article; a jump continues after a later one")
        #expect(
            folder.message(#"{"articles": [{"file": "a.txt"}], "inserts": [{"image": "ad.png", "after": "a.text"}]}"#)
                == "1:76: error: key 'inserts[0].after': 'a.text' is not one of the articles, 'cover' or 'contents'; did you mean 'a.txt'?")
        #expect(
            folder.message(#"{"articles": [{"file": "a.txt"}], "inserts": [{"image": "ad.png", "after": "contents"}]}"#)
                == "1:76: error: key 'inserts[0].after': the manifest has no contents to place the insert after")
        let m = folder.decoded(#"{"articles": [{"file": "a.txt"}], "inserts": [{"image": "ad.png", "after": "./a.txt"}]}"#)
        #expect(m?.inserts.first?.after == "a.txt")
    }

    // The template is a built-in name (nearest suggested) or a file.
    @Test func templates() {
        #expect(
            folder.message(manifest(#""template": "magazin""#))
                == "1:14: error: key 'template': unknown template 'magazin'; did you mean 'magazine'? "
                + "(built-in: magazine, letter, tabloid, pocket, tablet, magazine-zh)")
        #expect(
            folder.message(manifest(articles: #"{"file": "a.txt", "template": 3}"#))
                == "1:45: error: key 'articles[0].template': expected a built-in template name or a path to a JSON file, got 3")
        #expect(folder.decoded(manifest(#""template": "t.json""#))?.template == folder.dir.file("issue") + "/t.json")
    }
}

@Suite struct IssueManifestLayerTests {
    let folder = IssueFolder()

    // Dotted and nested keys, merged; the article's layer goes over the manifest's.
    @Test func apply() throws {
        let json = manifest(
            #""set": {"body.size": 9.5, "body": {"leading": 11}, "headings.h2.size": 13}"#,
            articles: #"{"file": "a.txt", "template": "t.json", "set": {"columns": 3}}, {"file": "b.txt"}"#)
        let m = try folder.decode(json).get()
        let t = try m.layers[0].apply(to: .default).get()
        #expect(t.body.size == 9.5 && t.body.leading == 11 && t.headings[2].size == 13 && t.columns == 2)
        var files: [String] = []
        let a = try m.template(for: m.articles[0], files: &files).get()
        #expect(a.columns == 3 && a.body.size == 9.5 && files == [folder.dir.file("issue") + "/t.json"])
        let b = try m.template(for: m.articles[1], files: &files).get()
        #expect(b.columns == 2 && b.body.size == 9.5)
        let issue = try m.template(for: nil, files: &files).get()
        #expect(issue == t)
    }

    // Keys are checked at decode time, at the key, named under the layer's path.
    @Test func badKeys() {
        #expect(
            folder.message(manifest(#""set": {"body.sise": 9}"#))
                == "1:10: error: unknown key 'set.body.sise'; did you mean 'body.size'?")
        #expect(
            folder.message(manifest(#""set": {"colums": 3}"#)) == "1:10: error: unknown key 'set.colums'; did you mean 'columns'?")
        #expect(
            folder.message(manifest(#""set": {"body": {"sise": 9}}"#))
                == "1:19: error: unknown key 'set.body.sise'; did you mean 'body.size'?")
        #expect(
            folder.message(manifest(#""set": {"columns.size": 9}"#))
                == "1:10: error: unknown key 'set.columns.size'")
        #expect(
            folder.message(manifest(#""set": {"body.size": 9, "body": {"size": 10}}"#))
                == "1:35: error: duplicate key 'set.body.size' (first given at 1:10)")
        #expect(
            folder.message(manifest(#""set": {"extends": "letter"}"#))
                == "1:10: error: key 'set.extends': a manifest's set cannot extend a template; name it with \"template\"")
        #expect(
            folder.message(manifest(#""set": 3"#))
                == "1:9: error: key 'set': expected an object of template keys, as in {\"body.size\": 9.5}, got 3")
    }

    // A bad value is found at decode time, pointing at the value, its key path named.
    @Test func badValues() {
        #expect(
            folder.error(manifest(articles: #"{"file": "a.txt", "set": {"columns": 0}}"#))
                == """
                <dir>/issue/issue.json:1:52: error: key 'articles[0].set.columns': expected a whole number from 1 to 12, got 0
                {"articles": [{"file": "a.txt", "set": {"columns": 0}}]}
                                                                   ^

                """)
        #expect(
            folder.message(manifest(#""set": {"body.color": "gren"}"#))
                == "1:24: error: key 'set.body.color': unknown colour 'gren'; did you mean 'green'?")
        // Checks across keys run on a built-in template at decode time…
        #expect(
            folder.message(manifest(#""set": {"body.size": 30}"#))
                == "1:23: error: key 'set.body.size': size 30 pt needs a leading of at least 15 pt (the leading is 12 pt)")
        // …and on a template file when applied to it.
        let m = folder.decoded(manifest(#""template": "t.json", "set": {"body.size": 30}"#))
        var files: [String] = []
        guard case .failure(let d)? = m.map({ $0.template(for: nil, files: &files) }) else { Issue.record("applied"); return }
        #expect(
            "\(d.location!) \(d.message)" == "1:45 key 'set.body.size': size 30 pt needs a leading of at least 15 pt (the leading is 12 pt)"
        )
        // An emoticon folder outside the manifest's folder is refused.
        #expect(folder.message(manifest(#""set": {"social.emoticons": ["../packs"]}"#)).contains("'../packs' is outside '<dir>/issue'"))
    }
}
