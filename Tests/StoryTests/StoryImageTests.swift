import Foundation
import GalleyMarkup
import GalleyStory
import TestSupport
import Testing

@testable import GalleyTemplate

// MARK: - Images

@Suite struct ImageTests {
    // A block <img> on its own line is a paragraph of its own; the newline after it ends nothing.
    @Test func imageOnItsOwnLine() {
        assertDump(
            listing("before\n<img src=\"images/chart.png\">\nafter"),
            #"""
            "before"
            "\u{FFFC}"
            "after"
            style 0 face="DejaVu Serif" size=10 color=#000000
            run 0..<6 style 0 "before"
            run 7..<8 style 0 "\u{FFFC}"
            run 9..<14 style 0 "after"
            paragraph 0..<6 text
            paragraph 7..<8 image 0
            paragraph 9..<14 text
            image 0 src="images/chart.png" png 900x600 px @2:1
            """#)
    }

    // A block <img> in the middle of a line splits the paragraph in two around it.
    @Test func imageSplitsAParagraph() {
        assertDump(
            listing("before <img src=\"images/chart.png\" width=\"30pt\"> after"),
            #"""
            "before "
            "\u{FFFC}"
            "after"
            style 0 face="DejaVu Serif" size=10 color=#000000
            run 0..<7 style 0 "before "
            run 8..<9 style 0 "\u{FFFC}"
            run 10..<15 style 0 "after"
            paragraph 0..<7 text
            paragraph 8..<9 image 0
            paragraph 10..<15 text
            image 0 src="images/chart.png" png 900x600 px set 30x- pt @1:8
            """#)
    }

    // A JPEG's header gives its size; the src is trimmed of spaces.
    @Test func jpegHeader() {
        let s = story("<img src=\" images/harbour.jpg \">\nx")
        #expect(s.images.count == 1)
        #expect(s.images[0].source == "images/harbour.jpg")
        #expect(s.images[0].info.format == .jpeg && s.images[0].info.pixelWidth == 1200 && s.images[0].info.pixelHeight == 800)
    }

    // A JPEG's colour as its header says it: four components are CMYK; an ICC profile of its
    // own is noted unless it is sRGB's (its description names it).
    @Test func jpegColour() throws {
        func jpeg(components: UInt8, profile: String?) -> [UInt8] {
            var b: [UInt8] = [0xFF, 0xD8]
            if let profile {
                let body =
                    Array("ICC_PROFILE".utf8) + [0, 1, 1] + Array(repeating: 0, count: 36) + Array("desc".utf8) + Array(profile.utf8)
                b += [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
            }
            let frame: [UInt8] = [8, 0, 10, 0, 20, components] + Array(repeating: 0, count: 3 * Int(components))
            b += [0xFF, 0xC0, 0, UInt8(frame.count + 2)] + frame + [0xFF, 0xD9]
            return b
        }
        let plain = try ImageInfo.parse(jpeg(components: 3, profile: nil)).get()
        #expect(!plain.cmyk && !plain.embeddedProfile && plain.pixelWidth == 20)
        #expect(try ImageInfo.parse(jpeg(components: 4, profile: nil)).get().cmyk)
        #expect(try ImageInfo.parse(jpeg(components: 3, profile: "Adobe RGB (1998)")).get().embeddedProfile)
        #expect(try !ImageInfo.parse(jpeg(components: 3, profile: "sRGB IEC61966-2.1")).get().embeddedProfile)
    }

    // A JPEG whose Exif turns it a quarter (orientation 5 to 8) is drawn upright, so its box is
    // its height wide: it was set 20 × 10, and its turned pixels squashed into that.
    @Test func jpegOrientation() throws {
        func jpeg(orientation: UInt8, bigEndian: Bool) -> [UInt8] {
            let value: [UInt8] = bigEndian ? [0, orientation, 0, 0] : [orientation, 0, 0, 0]
            let entry: [UInt8] = bigEndian ? [0x01, 0x12, 0, 3, 0, 0, 0, 1] : [0x12, 0x01, 3, 0, 1, 0, 0, 0]
            let tiff: [UInt8] =
                (bigEndian ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1] : [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0]) + entry + value
                + [0, 0, 0, 0]
            let body = Array("Exif".utf8) + [0, 0] + tiff
            let frame: [UInt8] = [8, 0, 10, 0, 20, 3] + Array(repeating: 0, count: 9)
            return [0xFF, 0xD8, 0xFF, 0xE1, 0, UInt8(body.count + 2)] + body + [0xFF, 0xC0, 0, UInt8(frame.count + 2)] + frame
                + [0xFF, 0xD9]
        }
        for (orientation, size) in [(1, [20, 10]), (3, [20, 10]), (6, [10, 20]), (8, [10, 20]), (5, [10, 20])] {
            for bigEndian in [false, true] {
                let info = try ImageInfo.parse(jpeg(orientation: UInt8(orientation), bigEndian: bigEndian)).get()
                #expect([info.pixelWidth, info.pixelHeight] == size, "orientation \(orientation)")
            }
        }
    }

    // The text after an image in mid-line starts its paragraph without the space it was
    // written with: each line after it began with a visible space.
    @Test func noSpaceAfterAnImageInMidLine() {
        #expect(storyText("Text before <img src=\"images/chart.png\"> text after") == "Text before \n\u{FFFC}\ntext after")
    }

    // A comment alone on its line makes no empty paragraph (at the top, it pushed the heading
    // down); one beside text changes nothing else.
    @Test func aCommentLineIsNoParagraph() {
        #expect(storyText("<!-- a comment -->\nTitle\nBody") == "Title\nBody")
        #expect(storyText("A\n<!-- a\ncomment -->\nB") == "A\nB")
        #expect(storyText("A <!-- c -->\nB") == "A \nB")
    }

    // A URL is not read as a path (it was said missing, "No such file or directory").
    @Test func urlSource() {
        for src in ["https://example.org/a.png", "HTTP://x/y.jpg", "file:///tmp/a.png", "data:image/png;base64,AAAA"] {
            let said = buildStory("<img src=\"\(src)\">").diagnostics.all.map(\.message)
            #expect(said.count == 1 && said[0].contains("is a") && said[0].contains("Galley reads images from files only"), "\(said)")
        }
    }

    // width and height attributes set the aspect ratio; without them the pixels do.
    @Test func aspectRatio() {
        let s = story("<img src=\"images/chart.png\">\n<img src=\"images/chart.png\" width=\"100\" height=\"25\">")
        #expect(s.images[0].aspectRatio == 1.5)
        #expect(s.images[1].aspectRatio == 4)
    }

    // A story ending with an image has no terminator after it.
    @Test func imageAtTheEnd() {
        #expect(storyText("x\n<img src=\"images/chart.png\">") == "x\n\u{FFFC}")
    }

    // A missing file: error at the src value, and the image is left out.
    @Test func missingFile() {
        assertDump(
            listing("<img src=\"nope.png\">"),
            #"""
            ""
            style 0 face="DejaVu Serif" size=10 color=#000000
            run 0..<0 style 0 ""
            paragraph 0..<0 text
            t.txt:1:11: error: cannot use image 'nope.png': No such file or directory
            <img src="nope.png">
                      ^~~~~~~~
            """#)
    }

    // A file that is not an image.
    @Test func notAnImage() {
        #expect(
            buildStory("<img src=\"README.md\">").rendered == """
                t.txt:1:11: error: cannot use image 'README.md': it is not a PNG, JPEG or SVG image
                <img src="README.md">
                          ^~~~~~~~~

                """)
    }

    // A PNG cut short after its header, and one cut inside the header.
    @Test func truncatedPNG() throws {
        let dir = TemporaryDirectory("story")
        let png = try #require(FileManager.default.contents(atPath: repoPath("samples/images/chart.png")))
        dir.write("cut.png", png.prefix(200))
        dir.write("stub.png", png.prefix(20))
        let b = buildStory("<img src=\"cut.png\">\n<img src=\"stub.png\">", baseDirectory: dir.path)
        #expect(
            b.rendered == """
                t.txt:1:11: error: cannot use image 'cut.png': the PNG file is truncated
                <img src="cut.png">
                          ^~~~~~~
                t.txt:2:11: error: cannot use image 'stub.png': the PNG file is truncated (no image header)
                <img src="stub.png">
                          ^~~~~~~~

                """)
        #expect(b.story.images.isEmpty)
    }

    // An empty file.
    @Test func emptyFile() {
        let dir = TemporaryDirectory("story")
        dir.write("empty.png", "")
        #expect(
            buildStory("<img src=\"empty.png\">", baseDirectory: dir.path).rendered == """
                t.txt:1:11: error: cannot use image 'empty.png': the file is empty
                <img src="empty.png">
                          ^~~~~~~~~

                """)
    }

    // An empty src: the caret sits where the value would start.
    @Test func emptySrc() {
        #expect(
            buildStory("<img src=\"\">").rendered == """
                t.txt:1:11: error: empty image src
                <img src="">
                          ^

                """)
    }

    // No src at all: the error underlines "<img".
    @Test func missingSrc() {
        #expect(
            buildStory("<img>").rendered == """
                t.txt:1:1: error: <img> needs a src attribute
                <img>
                ^~~~

                """)
    }

    // A bad width is an error, and the image is still placed at its pixel shape.
    @Test func badWidth() {
        let b = buildStory("<img src=\"images/chart.png\" width=\"abc\">")
        #expect(
            b.rendered == """
                t.txt:1:36: error: width must be a number of points, got 'abc'
                <img src="images/chart.png" width="abc">
                                                   ^~~

                """)
        #expect(b.story.images.first?.width == nil)
    }
}
