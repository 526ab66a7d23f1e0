import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

// MARK: - Helpers shared by the Attribute*Tests files

/// A small page for attribute tests: 240 × 120 pt, 10 pt margins, one column, DejaVu Sans
/// 20/24, ragged right, no footer, no hyphenation.
func attributeTemplate(
    width: Double = 240, height: Double = 120, columns: Int = 1, alignment: Alignment = .left
) -> Template {
    var t = Template.default
    t.pageWidth = width
    t.pageHeight = height
    t.margins = EdgeInsets(all: 10)
    t.columns = columns
    t.gutter = 10
    t.body = TextSpec(face: "DejaVu Sans", size: 20, leading: 24, color: .black)
    t.alignment = alignment
    t.firstLineIndent = 0
    t.paragraphSpacing = 0
    t.footer.enabled = false
    t.hyphenation.enabled = false
    t.widows = 1
    t.orphans = 1
    return t
}

/// A framesetter for `markup` whose styles `edit` changes: it is called with every style of
/// the story (tell them apart by the colour the markup gave them).
func attributed(
    _ markup: String, template: Template = attributeTemplate(), edit: (inout TextStyle) -> Void
) -> Framesetter {
    TestFonts.pin()
    var story = buildStory(markup, template: template).story
    for i in story.styles.indices { edit(&story.styles[i]) }
    return Framesetter(story: story, template: template, file: "t.txt", options: LayoutOptions(threads: 1))
}

let attrRed = RGBA(1, 0, 0)
let attrBlue = RGBA(0, 0, 1)
let attrYellow = RGBA(1, 1, 0)

/// Page `page` of a layout as a PNG at `dpi`, read back.
func renderPNG(_ fs: Framesetter, page: Int = 1, dpi: Double = 144) throws -> PNGPixels {
    let dir = TemporaryDirectory("attr")
    try Export.png(fs, page: page, to: dir.file("p.png"), dpi: dpi)
    return try PNGPixels(path: dir.file("p.png"))
}

/// The whole layout as a PDF in `dir`; returns its path.
@discardableResult
func renderPDF(_ fs: Framesetter, in dir: TemporaryDirectory) throws -> String {
    let path = dir.file("t.pdf")
    try Export.pdf(fs, to: path, metadata: PDFMetadata(title: "t", creator: "test", date: Date(timeIntervalSince1970: 0)))
    return path
}

/// The pixels satisfying a predicate: their bounding box, count and centroid.
struct Ink {
    var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
    var count = 0
    var sumX = 0.0, sumY = 0.0
    var isEmpty: Bool { count == 0 }
    var centroid: (x: Double, y: Double) { (sumX / Double(max(1, count)), sumY / Double(max(1, count))) }
    var width: Int { maxX - minX + 1 }
    var height: Int { maxY - minY + 1 }

    init(_ png: PNGPixels, x: Range<Int>? = nil, y: Range<Int>? = nil, where predicate: (PNGPixels.Pixel) -> Bool) {
        for yy in y ?? 0..<png.height {
            for xx in x ?? 0..<png.width where predicate(png[xx, yy]) {
                minX = min(minX, xx)
                maxX = max(maxX, xx)
                minY = min(minY, yy)
                maxY = max(maxY, yy)
                count += 1
                sumX += Double(xx)
                sumY += Double(yy)
            }
        }
    }
}

/// Strongly red (the styled text), strongly blue (decorations), yellow (backgrounds), white.
func redPixel(_ p: PNGPixels.Pixel) -> Bool { p.r > 180 && p.g < 90 && p.b < 90 }
func bluePixel(_ p: PNGPixels.Pixel) -> Bool { p.b > 180 && p.r < 90 && p.g < 90 }
func yellowPixel(_ p: PNGPixels.Pixel) -> Bool { p.r > 230 && p.g > 230 && p.b < 40 }
func whitePixel(_ p: PNGPixels.Pixel) -> Bool { p.r > 250 && p.g > 250 && p.b > 250 }
func darkPixel(_ p: PNGPixels.Pixel) -> Bool { p.r < 80 && p.g < 80 && p.b < 80 }
/// Any tint of blue over white (a blurred blue shadow): blue clearly above red and green.
func bluishPixel(_ p: PNGPixels.Pixel) -> Bool { Int(p.b) - Int(p.r) > 30 && Int(p.b) - Int(p.g) > 30 }

/// The lines of page 1 and the page extents (left, right) of each line's runs, points.
func firstPageLines(_ fs: Framesetter) -> [PlacedLine] {
    var out: [PlacedLine] = []
    fs.layOut { page in
        out = page.frames.flatMap(\.lines)
        return false
    }
    return out
}

/// Where a line's runs start and end on the page, with their style indices, points.
func runExtents(_ line: PlacedLine) -> [(style: Int, start: Double, end: Double)] {
    let x0 = line.origin.x + line.paragraph.lines[line.lineIndex].alignOffset
    return line.paragraph.drawRuns(line: line.lineIndex).map { ($0.style, x0 + $0.x, x0 + $0.x + $0.width) }
}

// MARK: - Underline and strikethrough

@Suite struct AttributeDecorationTests {
    // A single underline is drawn below the baseline, inside the descent, along the whole run.
    @Test func underlineBelowBaseline() throws {
        let fs = attributed("<font color=\"red\">xxxxx</font>") {
            if $0.color == attrRed { $0.underline = Decoration(style: .single, color: attrBlue) }
        }
        let line = try #require(firstPageLines(fs).first)
        let run = try #require(runExtents(line).first)
        let png = try renderPNG(fs)
        let baseline = Int((line.origin.y * 2).rounded())
        let u = Ink(png, where: bluePixel)
        #expect(!u.isEmpty)
        #expect(u.minY > baseline, "underline top \(u.minY), baseline \(baseline)")
        #expect(u.maxY < baseline + 10, "underline bottom \(u.maxY) is below the descent")
        #expect(abs(Double(u.minX) - run.start * 2) <= 1.5 && abs(Double(u.maxX + 1) - run.end * 2) <= 1.5)
        // The glyphs themselves stay above it.
        #expect(Ink(png, where: redPixel).maxY <= baseline + 1)
    }

    // A strikethrough crosses the x-height: between the top of an "x" and the baseline, near the middle.
    @Test func strikethroughThroughXHeight() throws {
        let plain = attributed("<font color=\"red\">xxxxx</font>") { _ in }
        let xTop = Ink(try renderPNG(plain), where: redPixel).minY
        let fs = attributed("<font color=\"red\">xxxxx</font>") {
            if $0.color == attrRed { $0.strikethrough = Decoration(style: .single, color: attrBlue) }
        }
        let line = try #require(firstPageLines(fs).first)
        let baseline = Int((line.origin.y * 2).rounded())
        let s = Ink(try renderPNG(fs), where: bluePixel)
        #expect(!s.isEmpty)
        #expect(s.minY > xTop && s.maxY < baseline, "strike \(s.minY)…\(s.maxY), x-height \(xTop)…\(baseline)")
        let middle = Double(xTop + baseline) / 2
        #expect(abs(s.centroid.y - middle) < Double(baseline - xTop) * 0.3)
    }

    // Two runs with the same underline make one unbroken line, across the style change and the space.
    @Test func underlineContinuousAcrossRuns() throws {
        let fs = attributed("<font color=\"red\">abc </font><font color=\"#800000\">def</font> ghi") {
            if $0.color != .black { $0.underline = Decoration(style: .single, color: attrBlue) }
        }
        let line = try #require(firstPageLines(fs).first)
        let runs = runExtents(line)
        #expect(runs.count >= 2)
        let png = try renderPNG(fs)
        let baseline = Int((line.origin.y * 2).rounded())
        let x0 = Int((runs[0].start * 2).rounded()) + 1
        let x1 = Int((runs[1].end * 2).rounded()) - 1
        let band = baseline..<(baseline + 10)
        let gaps = (x0..<x1).filter { x in !band.contains { bluePixel(png[x, $0]) } }
        #expect(gaps.isEmpty, "columns without underline: \(gaps.prefix(10))")
        // " ghi" is not underlined.
        let u = Ink(png, where: bluePixel)
        #expect(Double(u.maxX) <= runs[1].end * 2 + 1)
    }

    // The underline of a wrapped line stops at its last letter: the trailing space is not underlined.
    @Test func noUnderlineUnderTrailingSpace() throws {
        let fs = attributed("<font color=\"red\">aaaa bbbb cccc dddd eeee ffff</font>", template: attributeTemplate(width: 160)) {
            if $0.color == attrRed { $0.underline = Decoration(style: .single, color: attrBlue) }
        }
        let lines = firstPageLines(fs)
        #expect(lines.count >= 2)
        let first = lines[0]
        let end = first.origin.x + first.paragraph.lines[0].alignOffset + first.contentWidth
        let png = try renderPNG(fs)
        let top = Int((first.origin.y * 2).rounded())
        let u = Ink(png, y: top..<(top + 10), where: bluePixel)
        #expect(!u.isEmpty)
        #expect(abs(Double(u.maxX + 1) - end * 2) <= 1.5, "underline ends at \(u.maxX + 1) px, content at \(end * 2) px")
    }

    // The line styles: thick is about twice as thick as single; double is two bands; dotted and
    // dashed have gaps, dashes longer than dots; wavy goes up and down.
    @Test func lineStyles() throws {
        func underline(_ style: LineStyle) throws -> (PNGPixels, Int) {
            let fs = attributed("<font color=\"red\">xxxxxxxx</font>") {
                if $0.color == attrRed { $0.underline = Decoration(style: style, color: attrBlue) }
            }
            let line = try #require(firstPageLines(fs).first)
            return (try renderPNG(fs, dpi: 288), Int((line.origin.y * 4).rounded()))
        }
        /// Blue rows in column x below the baseline, and how many separate bands they form.
        func bands(_ png: PNGPixels, _ x: Int, _ baseline: Int) -> (rows: Int, bands: Int) {
            var rows = 0
            var n = 0
            var inside = false
            for y in baseline..<(baseline + 24) {
                let b = bluePixel(png[x, y])
                if b { rows += 1 }
                if b && !inside { n += 1 }
                inside = b
            }
            return (rows, n)
        }
        let (single, b1) = try underline(.single)
        let u1 = Ink(single, where: bluePixel)
        let mid = (u1.minX + u1.maxX) / 2
        let singleRows = bands(single, mid, b1).rows
        let (thick, b2) = try underline(.thick)
        let thickRows = bands(thick, mid, b2).rows
        #expect(thickRows >= singleRows * 2 - 1 && thickRows <= singleRows * 2 + 2, "single \(singleRows), thick \(thickRows)")
        let (double, b3) = try underline(.double)
        #expect(bands(double, mid, b3).bands == 2)
        // Dotted and dashed: along the band, blue and white alternate.
        func segments(_ png: PNGPixels, _ baseline: Int) -> [Int] {
            let ink = Ink(png, y: baseline..<(baseline + 24), where: bluePixel)
            let y = Int(ink.centroid.y.rounded())
            var lengths: [Int] = []
            var run = 0
            for x in ink.minX...ink.maxX {
                if bluePixel(png[x, y]) {
                    run += 1
                } else if run > 0 {
                    lengths.append(run)
                    run = 0
                }
            }
            if run > 0 { lengths.append(run) }
            return lengths
        }
        let (dotted, b4) = try underline(.dotted)
        let (dashed, b5) = try underline(.dashed)
        let dots = segments(dotted, b4)
        let dashes = segments(dashed, b5)
        #expect(dots.count > 5 && dashes.count > 3)
        #expect(dashes.max()! > dots.max()!)
        // Wavy: the top of the blue band moves up and down along the line.
        let (wavy, b6) = try underline(.wavy)
        let w = Ink(wavy, y: b6..<(b6 + 30), where: bluePixel)
        let tops = Set(
            stride(from: w.minX + 2, to: w.maxX - 2, by: 1).compactMap { x in
                (b6..<(b6 + 30)).first { bluePixel(wavy[x, $0]) }
            })
        #expect(tops.count >= 3)
        #expect(w.minY > b6)
    }

    // A decoration without a colour takes the text's colour.
    @Test func decorationDefaultsToTextColour() throws {
        let fs = attributed("<font color=\"blue\">xxxxx</font>") {
            if $0.color == attrBlue { $0.underline = Decoration(style: .thick) }
        }
        let line = try #require(firstPageLines(fs).first)
        let baseline = Int((line.origin.y * 2).rounded())
        let u = Ink(try renderPNG(fs), y: (baseline + 1)..<(baseline + 10), where: bluePixel)
        #expect(u.count > 50)
    }
}

// MARK: - Backgrounds

@Suite struct AttributeBackgroundTests {
    // A background box is exactly as tall as the line box, and covers the space between words.
    @Test func boxSpansLineHeightAndSpace() throws {
        let fs = attributed("<font color=\"red\">aaa bbb</font>") {
            if $0.color == attrRed { $0.background = attrYellow }
        }
        let line = try #require(firstPageLines(fs).first)
        let run = try #require(runExtents(line).first)
        let png = try renderPNG(fs)
        let bg = Ink(png, where: yellowPixel)
        #expect(abs(Double(bg.minY) - line.box.y * 2) <= 1 && abs(Double(bg.maxY + 1) - line.box.maxY * 2) <= 1)
        #expect(abs(Double(bg.minX) - run.start * 2) <= 1 && abs(Double(bg.maxX + 1) - run.end * 2) <= 1)
        // The widest gap between the letters' ink is the space: yellow from top to bottom of the box.
        let letters = Ink(png, where: redPixel)
        let inkColumns = (letters.minX...letters.maxX).filter { x in (0..<png.height).contains { redPixel(png[x, $0]) } }
        let gap = zip(inkColumns, inkColumns.dropFirst()).max { ($0.1 - $0.0) < ($1.1 - $1.0) }!
        let x = (gap.0 + gap.1) / 2
        let rows = Int((line.box.y * 2).rounded()) + 1..<Int((line.box.maxY * 2).rounded()) - 1
        #expect(rows.allSatisfy { yellowPixel(png[x, $0]) })
    }

    // Two adjacent runs of one background colour make one box: no seam at the style change.
    @Test func joinedAcrossRuns() throws {
        let fs = attributed("<font color=\"red\">aaa </font><font color=\"#c00000\">bbb</font>") {
            if $0.color != .black { $0.background = attrYellow }
        }
        let line = try #require(firstPageLines(fs).first)
        let runs = runExtents(line)
        #expect(runs.count == 2)
        let png = try renderPNG(fs)
        let y = Int((line.box.y * 2).rounded()) + 2
        let x0 = Int((runs[0].start * 2).rounded()) + 1
        let x1 = Int((runs[1].end * 2).rounded()) - 1
        #expect((x0..<x1).allSatisfy { yellowPixel(png[$0, y]) })
    }

    // In a justified line the box covers the justified spaces: the line's full width is yellow.
    @Test func coversJustifiedSpaces() throws {
        let text = "<font color=\"red\">aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp</font>"
        let fs = attributed(text, template: attributeTemplate(alignment: .justify)) {
            if $0.color == attrRed { $0.background = attrYellow }
        }
        let lines = firstPageLines(fs)
        #expect(lines.count >= 2)
        let first = lines[0]
        #expect(first.paragraph.lines[0].ratio != 0)
        let png = try renderPNG(fs)
        let y = Int((first.box.y * 2).rounded()) + 2
        let x0 = Int((first.box.x * 2).rounded()) + 1
        let x1 = Int((first.box.maxX * 2).rounded()) - 1
        #expect((x0..<x1).allSatisfy { yellowPixel(png[$0, y]) })
    }

    // The background is behind the text: the glyphs stay red on it.
    @Test func behindText() throws {
        let fs = attributed("<font color=\"red\" size=\"40\">MMM</font>") {
            if $0.color == attrRed { $0.background = attrYellow }
        }
        let png = try renderPNG(fs)
        #expect(png.count(where: redPixel) > 500)
    }
}

// MARK: - Shadows

@Suite struct AttributeShadowTests {
    /// Red text with a blue shadow; returns the centroids and extents of the text and its shadow.
    private func shadowed(dx: Double, dy: Double, blur: Double, hollow: Bool = false) throws -> (text: Ink, shadow: Ink) {
        let fs = attributed("<font color=\"red\" size=\"40\">HH</font>") {
            if $0.color == attrRed {
                $0.shadow = Shadow(dx: dx, dy: dy, blur: blur, color: attrBlue)
                if hollow {
                    $0.strokeWidth = 3
                    $0.strokeColor = attrRed
                }
            }
        }
        let png = try renderPNG(fs)
        return (Ink(png, where: { redPixel($0) }), Ink(png, where: bluishPixel))
    }

    // dx, dy positive: the shadow lies to the right of and below the glyphs, by about the offset.
    @Test(arguments: [0.0, 2.0]) func offsetDirection(blur: Double) throws {
        let (text, shadow) = try shadowed(dx: 3, dy: 4, blur: blur)
        #expect(!text.isEmpty && !shadow.isEmpty)
        let dx = shadow.centroid.x - text.centroid.x
        let dy = shadow.centroid.y - text.centroid.y
        #expect(dx > 3 && dx < 12, "dx \(dx) px")
        #expect(dy > 4 && dy < 14, "dy \(dy) px")
    }

    // dx, dy negative: left of and above.
    @Test func negativeOffset() throws {
        let (text, shadow) = try shadowed(dx: -3, dy: -3, blur: 1)
        #expect(shadow.centroid.x < text.centroid.x - 2 && shadow.centroid.y < text.centroid.y - 2)
    }

    // A blur spreads the shadow past the sharp one's edges, in every direction.
    @Test func blurSpreads() throws {
        let (_, sharp) = try shadowed(dx: 2, dy: 2, blur: 0)
        let (_, soft) = try shadowed(dx: 2, dy: 2, blur: 4)
        #expect(soft.minX < sharp.minX - 2 && soft.maxX > sharp.maxX + 2)
        #expect(soft.minY < sharp.minY - 2 && soft.maxY > sharp.maxY + 2)
    }

    // A colour emoji casts a sharp shadow of its whole silhouette (its glyph is an image, not an
    // outline to fill): a solid disc, filling most of its bounding box.
    @Test func emojiSharpShadow() throws {
        let fs = attributed("<font color=\"red\" size=\"30\">😀</font>") {
            if $0.color == attrRed { $0.shadow = Shadow(dx: 0, dy: 40, blur: 0, color: attrBlue) }
        }
        let png = try renderPNG(fs)
        let line = try #require(firstPageLines(fs).first)
        // Below the line box there is nothing but the shadow.
        let below = Int((line.box.maxY * 2).rounded(.up)) + 1
        let shadow = Ink(png, y: below..<png.height, where: bluishPixel)
        #expect(shadow.width > 40)
        #expect(Double(shadow.count) > 0.7 * Double(shadow.width * shadow.height), "\(shadow.count) of \(shadow.width)×\(shadow.height)")
        #expect(bluishPixel(png[(shadow.minX + shadow.maxX) / 2, (shadow.minY + shadow.maxY) / 2]))
    }

    // Hollow text casts the shadow of its outline only: the middle of a stem's shadow stays clear.
    @Test func hollowCastsOutline() throws {
        func stemMiddle(hollow: Bool) throws -> PNGPixels.Pixel {
            let fs = attributed("<font color=\"red\" size=\"60\">I</font>") {
                guard $0.color == attrRed else { return }
                // 40 pt down: the shadow lies clear of the glyph.
                $0.shadow = Shadow(dx: 0, dy: 40, blur: 0, color: attrBlue)
                if hollow { $0.strokeWidth = 2 }
            }
            let png = try renderPNG(fs, dpi: 72)
            let s = Ink(png, where: bluishPixel)
            return png[(s.minX + s.maxX) / 2, (s.minY + s.maxY) / 2]
        }
        #expect(bluishPixel(try stemMiddle(hollow: false)))
        #expect(whitePixel(try stemMiddle(hollow: true)))
    }
}

// MARK: - Baseline offset, obliqueness, expansion

@Suite struct AttributeGlyphTransformTests {
    /// Bottom of the red and of the dark ink of `xx<red>xx</red>xx` with the red run's baseline offset.
    private func bottoms(offset: Double) throws -> (red: Int, dark: Int) {
        let fs = attributed("xx<font color=\"red\">xx</font>xx") {
            if $0.color == attrRed { $0.baselineOffset = offset }
        }
        let png = try renderPNG(fs)
        return (Ink(png, where: redPixel).maxY, Ink(png, where: darkPixel).maxY)
    }

    // A positive baseline offset raises the run by that many points; a negative one lowers it.
    @Test(arguments: [4.0, -4.0]) func baselineOffset(offset: Double) throws {
        let (redBottom, darkBottom) = try bottoms(offset: offset)
        let moved = Double(darkBottom - redBottom) / 2
        #expect(abs(moved - offset) <= 0.75, "moved \(moved) pt")
    }

    /// The mean x of the red ink in its top and bottom rows, for an "l" slanted by `o`.
    private func slant(_ o: Double) throws -> (top: Double, bottom: Double, height: Int) {
        let fs = attributed("<font color=\"red\" size=\"40\">l</font>") {
            if $0.color == attrRed { $0.obliqueness = o }
        }
        let png = try renderPNG(fs)
        let ink = Ink(png, where: redPixel)
        let top = Ink(png, y: ink.minY..<(ink.minY + 3), where: redPixel).centroid.x
        let bottom = Ink(png, y: (ink.maxY - 2)..<(ink.maxY + 1), where: redPixel).centroid.x
        return (top, bottom, ink.height)
    }

    // Positive obliqueness leans right (the top of the "l" further right than its foot), by o × height.
    @Test func obliquenessLeansRight() throws {
        let upright = try slant(0)
        #expect(abs(upright.top - upright.bottom) < 1.5)
        let leaning = try slant(0.3)
        let shift = leaning.top - leaning.bottom
        #expect(shift > 0.2 * Double(leaning.height) && shift < 0.4 * Double(leaning.height), "shift \(shift) px")
        let back = try slant(-0.3)
        #expect(back.top < back.bottom - 0.2 * Double(back.height))
    }

    // Obliqueness slants the glyphs, not the advance: the next word starts where it did.
    @Test func obliquenessKeepsAdvance() throws {
        func blackStart(_ o: Double) throws -> Int {
            let fs = attributed("<font color=\"red\">lll</font>lll") { if $0.color == attrRed { $0.obliqueness = o } }
            return Ink(try renderPNG(fs), where: darkPixel).minX
        }
        #expect(try blackStart(0) == blackStart(0.3))
    }

    // Expansion widens the ink of a glyph by e^expansion (1.5 here).
    @Test func expansionWidensInk() throws {
        func inkWidth(_ e: Double) throws -> Int {
            let fs = attributed("<font color=\"red\" size=\"40\">m</font>") { if $0.color == attrRed { $0.expansion = e } }
            return Ink(try renderPNG(fs), where: redPixel).width
        }
        let plain = try inkWidth(0)
        let wide = try inkWidth(log(1.5))
        let ratio = Double(wide) / Double(plain)
        #expect(ratio > 1.38 && ratio < 1.62, "ratio \(ratio)")
    }

    // A stroked, slanted, expanded, raised run with a shadow still draws its outline (blue).
    @Test func everythingTogether() throws {
        let fs = attributed("<font color=\"red\" size=\"40\">Mix</font>") {
            guard $0.color == attrRed else { return }
            $0.strokeWidth = -3
            $0.strokeColor = attrBlue
            $0.obliqueness = 0.2
            $0.expansion = 0.2
            $0.baselineOffset = 3
            $0.shadow = Shadow(dx: 2, dy: 2, blur: 1, color: RGBA(0, 0.6, 0))
        }
        let png = try renderPNG(fs)
        #expect(png.count(where: bluePixel) > 100)
        #expect(png.count(where: redPixel) > 100)
        #expect(png.count(where: { $0.g > 100 && $0.r < 60 && $0.b < 60 }) > 20)
    }
}

// MARK: - Right to left

@Suite struct AttributeRightToLeftTests {
    // A right-to-left run gets its background and underline over its whole advance.
    @Test func hebrewBackgroundAndUnderline() throws {
        let fs = attributed("<font color=\"red\">שלום עולם</font>") {
            if $0.color == attrRed {
                $0.background = attrYellow
                $0.underline = Decoration(style: .single, color: attrBlue)
            }
        }
        let line = try #require(firstPageLines(fs).first)
        let runs = runExtents(line)
        let start = runs.map(\.start).min()!
        let end = runs.map(\.end).max()!
        let png = try renderPNG(fs)
        let bg = Ink(png, where: yellowPixel)
        let u = Ink(png, where: bluePixel)
        #expect(abs(Double(bg.minX) - start * 2) <= 1 && abs(Double(bg.maxX + 1) - end * 2) <= 1)
        #expect(abs(Double(u.minX) - start * 2) <= 1.5 && abs(Double(u.maxX + 1) - end * 2) <= 1.5)
        #expect(png.count(where: redPixel) > 50)
    }
}
