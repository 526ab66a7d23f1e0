import Foundation
import TestSupport
import Testing

/// Files are read only under a root: the input's folder, or `--root`. Templates and packs named
/// on the command line may be anywhere; what they name lies in their own folder. A refusal reads
/// the same whether or not the file exists, and nothing is written.
@Suite struct RootTests {
    /// A whole image: `check` decodes what it reads, as a build draws it.
    static let png = PreflightTests.png(width: 2, height: 2)

    /// A folder with `doc/` (the input's folder) and `outside/` beside it.
    static func layout() -> TemporaryDirectory {
        let d = TemporaryDirectory("root")
        d.write("doc/img/in.png", png)
        d.write("outside/out.png", png)
        return d
    }

    static func refusal(_ input: String, _ src: String, root: String) -> String {
        "\(input):1:11: error: cannot use image '\(src)': it is outside '\(root)', the folder images are read from; "
            + "run with --root DIR to read files under DIR\n"
    }

    // `../`, absolute paths and a link that leads out are refused alike, existing or not.
    @Test(arguments: ["../outside/out.png", "../outside/missing.png", "/etc/passwd", "/nonexistent/x.png", "img/link.png", "img/ghost.png"])
    func imagesOutsideTheRootAreRefused(src: String) throws {
        let d = Self.layout()
        try FileManager.default.createSymbolicLink(atPath: d.file("doc/img/link.png"), withDestinationPath: "../../outside/out.png")
        try FileManager.default.createSymbolicLink(atPath: d.file("doc/img/ghost.png"), withDestinationPath: "../../outside/ghost.png")
        let input = d.write("doc/a.txt", "<img src=\"\(src)\">\n")
        let r = run(["build", input, "-o", d.file("doc/a.pdf")])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix(Self.refusal(input, src, root: d.file("doc"))))
        #expect(!FileManager.default.fileExists(atPath: d.file("doc/a.pdf")))
    }

    // Inside the root, every spelling works; `--root` widens the root to reach `outside/`.
    @Test func imagesInsideTheRootAndWidened() {
        let d = Self.layout()
        for src in ["img/in.png", "./img/../img/in.png", d.file("doc/img/in.png")] {
            let input = d.write("doc/a.txt", "<img src=\"\(src)\">\n")
            #expect(run(["check", input, "-q"]).status == 0, "\(src)")
        }
        let input = d.write("doc/a.txt", "<img src=\"../outside/out.png\">\n")
        #expect(run(["check", input, "-q", "--root", d.path]).status == 0)
        // Widening does not reach beyond the new root.
        let r = run(["check", input, "-q", "--root", d.file("doc/img")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("it is outside '\(d.file("doc/img"))'"))
        #expect(run(["check", input, "--root", d.file("nowhere")]).stderr.hasPrefix("galley check: error: --root must name a folder"))
    }

    // A template's `extends` lies in its folder; `--root` widens that too.
    @Test func templateExtendsConfined() {
        let d = Self.layout()
        d.write("shared/base.json", #"{"columns": 2}"#)
        let template = d.write("tpl/t.json", #"{"extends": "../shared/base.json"}"#)
        let input = d.write("doc/a.txt", "Hello\n")
        let r = run(["check", input, "-t", template])
        #expect(r.status == 1)
        #expect(
            r.stderr.hasPrefix(
                "\(template):1:13: error: key 'extends': '../shared/base.json' is outside '\(d.file("tpl"))', "
                    + "the folder a template's files are read from; run with --root DIR to read files under DIR too\n"))
        #expect(run(["check", input, "-t", template, "--root", d.file("shared"), "-q"]).status == 0)
        // A system file's first line never lands in a message.
        d.write("tpl/t.json", #"{"extends": "/etc/passwd"}"#)
        let r2 = run(["check", input, "-t", template])
        #expect(r2.status == 1)
        #expect(!r2.stderr.contains("root:"))
    }

    // A pack may be anywhere; its images lie in its folder.
    @Test func packImagesConfined() {
        let d = Self.layout()
        d.write("pack/pack.json", #"{"name": "p", "emoticons": {"[o]": "../outside/out.png"}}"#)
        let input = d.write("doc/a.txt", "Hi [o]\n")
        let r = run(["check", input, "--emoticons", d.file("pack")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("[o] points to '../outside/out.png', outside the pack's folder"))
        d.write("pack/ok.png", Self.png)
        d.write("pack/pack.json", #"{"name": "p", "emoticons": {"[o]": "ok.png"}}"#)
        #expect(run(["check", input, "--emoticons", d.file("pack"), "-q"]).status == 0)
    }
}
