import Foundation
import Glibc
import TestSupport
import Testing

/// An output never destroys a file: not an input under another spelling, not a device, FIFO or
/// symlink, not an existing output's permissions. Each case checks the exit status, the message,
/// that the input is unchanged and that no temporary file is left.
@Suite struct OutputSafetyTests {
    static let source = "Hello <b>world</b>.\n"

    /// A folder holding `dir/self.txt`.
    func folder() -> TemporaryDirectory {
        let d = TemporaryDirectory("outputs")
        d.write("dir/self.txt", Self.source)
        return d
    }

    func refusal(_ command: String, output: String, input: String? = nil) -> String {
        let same = input.map { " (the same file as '\($0)')" } ?? ""
        return "galley \(command): error: the output '\(output)' would overwrite the input\(same); choose another output with -o\n"
    }

    /// Names in `dir` that look like temporary files.
    func leftovers(_ d: TemporaryDirectory, _ sub: String = "dir") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: d.file(sub))) ?? []).filter { $0.hasSuffix(".tmp") }
    }

    // A build to standard output goes through a scratch file in TMPDIR, which the PDF's own
    // temporary file is renamed over: it is removed all the same, PDF, press PDF and PNG.
    @Test func outputToAStreamLeavesNoScratchFile() throws {
        let d = TemporaryDirectory("scratch")
        d.write("a.txt", "Text.\n")
        d.write("tmp/.keep", "")
        for args in [["build", "-o", "-"], ["build", "--press", "-o", "-"], ["preview", "-o", "-"]] {
            let r = tool("TMPDIR=\(d.file("tmp"))", [galleyExecutable, args[0], d.file("a.txt")] + args.dropFirst())
            #expect(r.status == 0, "\(args): \(r.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: d.file("tmp"))
            #expect(left == [".keep"], "\(args): \(left)")
        }
    }

    // Every other spelling of the input's path is refused, for build and preview alike.
    @Test(arguments: ["build", "preview"]) func otherSpellings(command: String) {
        let d = folder()
        let input = d.file("dir/self.txt")
        for output in [d.file("dir/./self.txt"), d.file("dir/../dir/self.txt"), d.path + "//dir/self.txt"] {
            let r = run([command, input, "-o", output])
            #expect(r.status == 2)
            #expect(r.stderr == refusal(command, output: output, input: input))
        }
        #expect(d.read("dir/self.txt") == Data(Self.source.utf8))
        #expect(leftovers(d).isEmpty)
    }

    // A hard link and a symlink to the input are the input.
    @Test func linksToTheInput() {
        let d = folder()
        let input = d.file("dir/self.txt")
        #expect(link(input, d.file("dir/hard.txt")) == 0)
        #expect(symlink("self.txt", d.file("dir/soft.txt")) == 0)
        for name in ["hard.txt", "soft.txt"] {
            let r = run(["build", input, "-o", d.file("dir/" + name)])
            #expect(r.status == 2)
            #expect(r.stderr == refusal("build", output: d.file("dir/" + name), input: input))
        }
        #expect(d.read("dir/self.txt") == Data(Self.source.utf8))
        #expect(leftovers(d).isEmpty)
    }

    // The template and the images are inputs too.
    @Test func templateAndImageAreInputs() throws {
        let d = folder()
        let template = d.write("dir/t.json", #"{"extends": "magazine", "columns": 1}"#)
        let r1 = run(["build", d.file("dir/self.txt"), "-t", template, "-o", template])
        #expect(r1.status == 2 && r1.stderr == refusal("build", output: template))
        #expect(d.read("dir/t.json") == Data(#"{"extends": "magazine", "columns": 1}"#.utf8))
        let png = try #require(FileManager.default.contents(atPath: repoPath("samples/images/badge.png")))
        d.write("dir/badge.png", png)
        let withImage = d.write("dir/img.txt", "<img src=\"badge.png\">\n")
        let r2 = run(["preview", withImage, "-o", d.file("dir/badge.png")])
        #expect(r2.status == 2 && r2.stderr == refusal("preview", output: d.file("dir/badge.png")))
        #expect(d.read("dir/badge.png") == png)
    }

    // A font file of the project's (`--font-path`) is read too: writing the PDF over it
    // destroyed the face.
    @Test func aProjectFontIsAnInput() throws {
        let d = folder()
        let font = try #require(FileManager.default.contents(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"))
        try FileManager.default.createDirectory(atPath: d.file("dir/fonts"), withIntermediateDirectories: true)
        let path = d.write("dir/fonts/House.ttf", font)
        // A process of its own: the font folder is added to fontconfig for the whole process.
        let r = runExecutable(["build", d.file("dir/self.txt"), "--font-path", d.file("dir/fonts"), "-o", path])
        #expect(r.status == 2 && r.stderr.contains("would overwrite the input"), "\(r.stderr)")
        #expect(d.read("dir/fonts/House.ttf") == font)
    }

    // An installed font (fontconfig's, not the project's) is read by every build that sets
    // text in it: `-o` naming it replaced the face with the PDF.
    @Test func anInstalledFontIsAnInput() throws {
        let d = folder()
        let font = try #require(FileManager.default.contents(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"))
        try FileManager.default.createDirectory(atPath: d.file("fonts"), withIntermediateDirectories: true)
        let path = d.write("fonts/DejaVuSerif.ttf", font)
        let config = d.write(
            "fonts.conf",
            "<?xml version=\"1.0\"?><fontconfig><dir>\(d.file("fonts"))</dir><cachedir>\(d.file("cache"))</cachedir></fontconfig>\n")
        // A process of its own, whose fontconfig knows only that font.
        let r = tool("FONTCONFIG_FILE=\(config)", [galleyExecutable, "build", d.file("dir/self.txt"), "-o", path])
        #expect(r.status == 2 && r.stderr.contains("would overwrite the installed font, which builds read"), "\(r.stderr)")
        #expect(d.read("fonts/DejaVuSerif.ttf") == font)
    }

    // A PDF or PNG for standard output when that is a terminal (`build -` with no `-o`) is a
    // usage error, before any work: it wrote a screen of binary.
    @Test func noBinaryOnATerminal() {
        let text = Array("Hello.\n".utf8)
        let build = run(["build", "-"], stdin: text, outputIsTerminal: true)
        #expect(build.status == 2 && build.stdout.isEmpty)
        #expect(build.stderr.contains("the PDF would be written to the terminal; give -o FILE"), "\(build.stderr)")
        let preview = run(["preview", "-", "-o", "-"], stdin: text, outputIsTerminal: true)
        #expect(preview.status == 2 && preview.stdout.isEmpty && preview.stderr.contains("the PNG would be written"))
        #expect(run(["build", "-"], stdin: text).stdout.starts(with: Data("%PDF".utf8)))
    }

    // A build killed outright (SIGKILL) leaves its temporary file: the next build of that
    // output removes it once its process is gone and it is ten minutes old, and never one a
    // build may still be writing.
    @Test func aKilledBuildsTemporaryFileIsRemovedLater() {
        let d = folder()
        let stale = d.write("dir/.self.pdf.2147000000.12345.tmp", "half a PDF")
        let fresh = d.write("dir/.self.pdf.2147000001.12345.tmp", "half a PDF")
        let alive = d.write("dir/.self.pdf.\(getpid()).12345.tmp", "half a PDF")
        let old = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        for path in [stale, alive] {
            var times = [old, old]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        #expect(run(["build", d.file("dir/self.txt")]).status == 0)
        #expect(leftovers(d).sorted() == [".self.pdf.2147000001.12345.tmp", ".self.pdf.\(getpid()).12345.tmp"].sorted())
        #expect(FileManager.default.fileExists(atPath: fresh) && FileManager.default.fileExists(atPath: alive))
    }

    // An argument's control characters, quoted back in a usage error or by `fonts --resolve`,
    // are shown escaped: they reached the terminal raw (an escape sequence recoloured it).
    @Test func argumentsControlCharactersAreEscaped() {
        let d = folder()
        let set = run(["build", d.file("dir/self.txt"), "--set", "columns=\u{1b}[31m"])
        #expect(set.status == 2 && !set.stderr.contains("\u{1b}") && set.stderr.contains("\\x1b[31m"), "\(set.stderr)")
        let fonts = run(["fonts", "--resolve", "A\u{1b}[31mB"])
        #expect(!fonts.output.contains("\u{1b}") && fonts.output.contains("A\\x1b[31mB"), "\(fonts.output)")
    }

    // /dev/null is written to, not replaced by a regular file.
    @Test func deviceIsWrittenNotReplaced() {
        let d = folder()
        let r = run(["build", d.file("dir/self.txt"), "-o", "/dev/null"])
        #expect(r.status == 0 && r.stderr == "")
        var s = stat()
        #expect(stat("/dev/null", &s) == 0 && s.st_mode & S_IFMT == S_IFCHR)
    }

    // A FIFO gets the PDF's bytes through it, and stays a FIFO.
    @Test func fifoIsWrittenThrough() throws {
        let d = folder()
        let fifo = d.file("dir/pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let r = run(["build", d.file("dir/self.txt"), "-o", fifo])
        let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(r.status == 0)
        #expect(bytes.starts(with: Data("%PDF-".utf8)))
        var s = stat()
        #expect(lstat(fifo, &s) == 0 && s.st_mode & S_IFMT == S_IFIFO)
        #expect(leftovers(d).isEmpty)
    }

    // A symlink as the output writes the file it names; the link stays a link.
    @Test func symlinkWritesItsTarget() {
        let d = folder()
        #expect(symlink("real.pdf", d.file("dir/link.pdf")) == 0)
        let r = run(["build", d.file("dir/self.txt"), "-o", d.file("dir/link.pdf")])
        #expect(r.status == 0)
        var s = stat()
        #expect(lstat(d.file("dir/link.pdf"), &s) == 0 && s.st_mode & S_IFMT == S_IFLNK)
        #expect(d.read("dir/real.pdf")?.starts(with: Data("%PDF-".utf8)) == true)
        #expect(leftovers(d).isEmpty)
    }

    // A rebuilt output keeps its permission bits, a read-only one included (the bits are set
    // once it is written).
    @Test(arguments: ["build", "preview"], [0o600, 0o444]) func modeIsKept(command: String, mode: Int) {
        let d = folder()
        let out = d.write("dir/out.bin", "old")
        #expect(chmod(out, mode_t(mode)) == 0)
        #expect(run([command, d.file("dir/self.txt"), "-o", out]).status == 0)
        var s = stat()
        #expect(stat(out, &s) == 0 && Int(s.st_mode & 0o777) == mode)
        #expect(d.read("dir/out.bin") != Data("old".utf8))
    }

    // A socket and a folder are refused, and are still there.
    @Test func socketAndFolderRefused() {
        let d = folder()
        let path = d.file("dir/sock")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        defer { close(fd) }
        #expect(bound == 0)
        let r = run(["build", d.file("dir/self.txt"), "-o", path])
        #expect(r.status == 2 && r.stderr == "galley build: error: the output '\(path)' is a socket, not a file\n")
        var s = stat()
        #expect(lstat(path, &s) == 0 && s.st_mode & S_IFMT == S_IFSOCK)
        let r2 = run(["build", d.file("dir/self.txt"), "-o", d.path])
        #expect(r2.status == 2)
        #expect(r2.stderr == "galley build: error: the output '\(d.path)' is a folder; name a file inside it with -o\n")
    }

    // A temporary file planted under the name galley would pick is never opened: names are
    // made with O_EXCL, and a failed write leaves the folder as it was.
    @Test func failedBuildLeavesNothing() {
        let d = folder()
        let bad = d.write("dir/bad.txt", "<img src=\"missing.png\">\n")
        let r = run(["build", bad, "-o", d.file("dir/out.pdf")])
        #expect(r.status == 1)
        #expect(d.read("dir/out.pdf") == nil)
        #expect(leftovers(d).isEmpty)
    }

    // A write to standard output that fails (a full disk, a closed pipe) failed in silence,
    // with status 0: a depfile or a PDF cut short, trusted by the script. Each command's
    // output, PDF, report or listing, now fails with the reason.
    @Test func aFailedWriteToStandardOutputFails() {
        let d = folder()
        let input = d.file("dir/self.txt")
        for args in [["build", input, "-o", "-"], ["inspect", input, "--json"], ["check", input, "--json"], ["templates", "magazine"]] {
            let r = tool("sh", ["-c", #""$0" "$@" > /dev/full"#, galleyExecutable] + args)
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.hasSuffix("galley: error: cannot write standard output: No space left on device\n"), "\(args): \(r.stderr)")
        }
    }

    // Standard input that cannot be read (a folder, a closed stream) was read as empty, and a
    // blank PDF written with status 0.
    @Test func anUnreadableStandardInputFails() {
        let d = folder()
        for redirect in [#"< "$1""#, "<&-"] {
            let r = tool("sh", ["-c", #""$0" build - -o "$1/out.pdf" "# + redirect, galleyExecutable, d.file("dir")])
            #expect(r.status == 1, "\(redirect): \(r.stderr)")
            #expect(r.stderr.contains("error: cannot read standard input: "), "\(redirect): \(r.stderr)")
            #expect(d.read("dir/out.pdf") == nil)
        }
    }

    // An output name of 233 to 255 bytes is legal, but its temporary file's name (the output's
    // and 22 bytes more) was not: a 77-character Chinese title could not be built.
    @Test func aLongOutputNameIsBuilt() {
        let d = folder()
        let name = String(repeating: "从活字到像素", count: 13) + ".pdf"  // 238 bytes
        let r = run(["build", d.file("dir/self.txt"), "-o", d.file("dir/" + name)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(d.read("dir/" + name) != nil)
        #expect(leftovers(d).isEmpty)
    }

    // An empty input is set as one blank page, and said: an editor's truncated save, or a
    // script's wrong path, gave a blank PDF in silence.
    @Test func anEmptyInputIsSaid() {
        let d = folder()
        let empty = d.write("dir/empty.txt", "\n\n")
        let r = run(["build", empty])
        #expect(r.status == 0)
        #expect(r.stderr.contains("warning: the input has no text; it is set as one empty page"), "\(r.stderr)")
    }
}
