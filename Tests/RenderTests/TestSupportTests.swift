import CPixbuf
import Foundation
import TestSupport
import Testing

/// Every pixel of `path` as gdk-pixbuf decodes it, for checking PNGPixels against a real decoder.
private func pixbufPixels(_ path: String) throws -> (width: Int, height: Int, pixels: [PNGPixels.Pixel]) {
    var error: UnsafeMutablePointer<GError>?
    let pb = try #require(gdk_pixbuf_new_from_file(path, &error))
    defer { g_object_unref(UnsafeMutableRawPointer(pb)) }
    let w = Int(gdk_pixbuf_get_width(pb))
    let h = Int(gdk_pixbuf_get_height(pb))
    let n = Int(gdk_pixbuf_get_n_channels(pb))
    let stride = Int(gdk_pixbuf_get_rowstride(pb))
    let p = try #require(gdk_pixbuf_read_pixels(pb))
    var out: [PNGPixels.Pixel] = []
    for y in 0..<h {
        for x in 0..<w {
            let o = y * stride + x * n
            out.append(PNGPixels.Pixel(p[o], p[o + 1], p[o + 2], n == 4 ? p[o + 3] : 255))
        }
    }
    return (w, h, out)
}

private func allPixels(_ png: PNGPixels) -> [PNGPixels.Pixel] {
    (0..<png.height).flatMap { y in (0..<png.width).map { x in png[x, y] } }
}

@Suite struct TestSupportTests {
    // PNGPixels decodes the samples (RGB and RGBA, written by Python's zlib) exactly as gdk-pixbuf does.
    @Test(arguments: ["chart.png", "badge.png", "tall.png"]) func pngMatchesPixbuf(name: String) throws {
        let path = repoPath("samples/images/" + name)
        let mine = try PNGPixels(path: path)
        let theirs = try pixbufPixels(path)
        #expect(mine.width == theirs.width && mine.height == theirs.height)
        let same = allPixels(mine) == theirs.pixels
        #expect(same)
    }

    // PNGPixels decodes Galley's own previews (libpng, adaptive filters) exactly as gdk-pixbuf does.
    @Test func pngOfAPreviewMatchesPixbuf() throws {
        let dir = TemporaryDirectory("support")
        #expect(run(["preview", repoPath("samples/article.txt"), "-o", dir.file("p.png"), "--dpi", "40", "-q"]).status == 0)
        let mine = try PNGPixels(path: dir.file("p.png"))
        let same = allPixels(mine) == (try pixbufPixels(dir.file("p.png"))).pixels
        #expect(same)
    }

    // Inflate reads stored blocks and checks the Adler-32.
    @Test func inflateStored() throws {
        let body = Array("hello".utf8)
        let adler = Inflate.adler32(body)
        let stream: [UInt8] =
            [0x78, 0x01, 0x01, 5, 0, 0xFA, 0xFF] + body + [
                UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF),
            ]
        #expect(try Inflate.zlib(stream) == body)
        var bad = stream
        bad[bad.count - 1] ^= 1
        #expect(throws: Inflate.Failure.self) { try Inflate.zlib(bad) }
    }

    // Inflate rejects truncated data instead of trapping.
    @Test func inflateTruncated() throws {
        let png = try #require(FileManager.default.contents(atPath: repoPath("samples/images/chart.png")))
        #expect(throws: PNGPixels.Failure.self) { try PNGPixels(data: png.prefix(png.count / 2)) }
    }

    // lineDiff marks removed and added lines and keeps the common ones.
    @Test func lineDiffMarks() {
        #expect(lineDiff("a\nb\nc", "a\nx\nc") == "  a\n- b\n+ x\n  c")
        #expect(lineDiff("a", "a\nb") == "  a\n+ b")
    }

    // tool() runs a program and captures its output; a missing program gives 127.
    @Test func tools() {
        let echo = tool("printf", ["%s-%s", "a", "b"])
        #expect(echo.status == 0 && echo.output == "a-b")
        #expect(tool("false", []).status == 1)
        #expect(tool("galley-no-such-tool", []).status == 127)
        #expect(tool("cat", [], stdin: Data("in".utf8)).output == "in")
    }

    // A temporary directory exists while it lives and is gone after.
    @Test func temporaryDirectory() {
        var path = ""
        do {
            let dir = TemporaryDirectory("support")
            path = dir.path
            dir.write("a/b.txt", "x")
            #expect(FileManager.default.fileExists(atPath: dir.file("a/b.txt")))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // The fonts are pinned to Tests/fonts.conf unless the environment already chose a file.
    @Test func fontsPinned() {
        TestFonts.pin()
        let value = ProcessInfo.processInfo.environment["FONTCONFIG_FILE"]
        #expect(value != nil)
        #expect(FileManager.default.fileExists(atPath: value ?? ""))
    }

    // repoPath finds the repository from the sources.
    @Test func repository() {
        #expect(FileManager.default.fileExists(atPath: repoPath("Package.swift")))
    }
}
