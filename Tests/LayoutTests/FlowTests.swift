import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// A small page: two columns, `lines` body lines tall, no footer.
func tinyPage(lines: Int, columns: Int = 2) -> Template {
    var t = Template.default
    t.pageWidth = 300
    t.columns = columns
    t.margins = EdgeInsets(all: 20)
    t.gutter = 10
    t.pageHeight = 40 + Double(lines) * t.body.leading
    t.footer.enabled = false
    return t
}

/// Paragraphs of varied length, generated.
func paragraphs(_ n: Int, seed: Int = 1) -> String {
    let words = [
        "press", "ink", "galley", "quoin", "chase", "forme", "platen", "tympan", "frisket", "composing", "stick", "leading", "furniture",
        "sort",
    ]
    var out: [String] = []
    var k = seed
    for p in 0..<n {
        var ws: [String] = []
        for _ in 0..<(8 + (p * 13 + seed) % 40) {
            ws.append(words[k % words.count])
            k = (k * 7 + 3) % 1009
        }
        out.append(ws.joined(separator: " ").capitalized + ".")
    }
    return out.joined(separator: "\n")
}

func statistics(_ fs: Framesetter) -> LayoutStatistics {
    var s = LayoutStatistics()
    fs.layOut { page in
        s.add(page, story: fs.story)
        return true
    }
    return s
}

@Suite struct FlowTests {
    // On pages a dozen lines tall, many paragraphs split across columns, yet none leaves a
    // single line behind at a column foot or alone at a column head.
    @Test(arguments: [9, 10, 11, 12, 13])
    func noWidowsOrOrphans(lines: Int) {
        let fs = framesetter(paragraphs(30), template: tinyPage(lines: lines))
        let s = statistics(fs)
        #expect(s.widows == 0 && s.orphans == 0, "\(lines) lines: \(s.widows) widows, \(s.orphans) orphans")
        expectPartition(fs)
    }

    // With the rules relaxed to 1, the same text does leave lone lines: the rule is what moves them.
    @Test func rulesAreWhatMovesLines() {
        var t = tinyPage(lines: 11)
        t.widows = 1
        t.orphans = 1
        var total = 0
        for seed in 1...6 {
            let s = statistics(framesetter(paragraphs(30, seed: seed), template: t))
            total += s.widows + s.orphans
        }
        #expect(total > 0)
    }

    // A heading keeps with the first two lines of its paragraph: it is never the last line of a column.
    @Test func headingsKeepWithNext() {
        var text = ""
        for i in 0..<25 {
            text += "<font size=\"14\">Section \(i)</font>\n" + paragraphs(2, seed: i) + "\n"
        }
        let s = statistics(framesetter(text, template: tinyPage(lines: 14)))
        #expect(s.headingsAtFoot == 0)
    }

    // A heading across the columns heads the bands under it: `--stats` counted each one as a
    // heading at a column's foot.
    @Test func spanningHeadingsAreNotAtAFoot() {
        let text = (0..<3).map { "<h1 span=\"all\">Part \($0)</h1>\n" + paragraphs(3, seed: $0) }.joined()
        #expect(statistics(framesetter(text)).headingsAtFoot == 0)
    }

    // Body lines of both columns sit on one baseline grid, also after headings and images.
    @Test func baselineGrid() {
        var text = ""
        for i in 0..<6 {
            text += "<font size=\"15\">Heading \(i)</font>\n" + paragraphs(3, seed: i) + "\n"
            if i == 2 { text += "<img src=\"images/chart.png\">\n" }
        }
        let t = tinyPage(lines: 30)
        let fs = framesetter(text, template: t)
        var baselines: Set<Double> = []
        var count = 0
        for page in pages(of: fs) {
            for frame in page.frames {
                for l in frame.lines where abs(l.box.height - t.body.leading) < 0.01 {
                    let k = (l.box.y - frame.rect.y) / t.body.leading
                    #expect(abs(k - k.rounded()) < 1e-6, "line top \(l.box.y) is off the grid")
                    baselines.insert((l.origin.y * 1000).rounded())
                    count += 1
                }
            }
        }
        #expect(count > 40)
        #expect(baselines.count <= 30, "\(baselines.count) distinct baselines")
    }

    // Body lines in another face sit on the same baselines: each face put its baseline elsewhere
    // in a line of the same leading, so a column in Palatino stood 1.2 pt above one in the body
    // face. Every baseline on the grid is now the body face's, a whole number of lines down.
    @Test func baselineGridAcrossFaces() throws {
        let text = paragraphs(6, seed: 1) + "\n<font face=\"Palatino\">" + paragraphs(14, seed: 2) + "\n"
        let t = tinyPage(lines: 30)
        let fs = framesetter(text, template: t)
        let page = try #require(pages(of: fs).first)
        let first = try #require(page.frames.first?.lines.first?.origin.y)
        var faces = 0
        for frame in page.frames {
            for l in frame.lines where abs(l.box.height - t.body.leading) < 0.01 {
                let k = (l.origin.y - first) / t.body.leading
                #expect(abs(k - k.rounded()) < 1e-6, "baseline \(l.origin.y) is off the grid of \(first)")
            }
            faces += frame.lines.isEmpty ? 0 : 1
        }
        #expect(faces == 2)
    }

    // With the grid off, spacing is exactly what the template says.
    @Test func gridOff() {
        var t = tinyPage(lines: 30)
        t.baselineGrid = false
        t.balance = false  // both lines in the first column
        let fs = framesetter("One.\nTwo.", template: t)
        let lines = pages(of: fs)[0].frames[0].lines
        #expect(abs(lines[1].box.y - lines[0].box.maxY - t.paragraphSpacing) < 1e-9)
    }

    // No word is hyphenated across a column break (the default), but may be when allowed.
    @Test func noHyphenAtColumnFoot() {
        let text = paragraphs(40, seed: 3).replacingOccurrences(of: "Stick", with: "Extraordinarily")
        for allowed in [false, true] {
            var t = tinyPage(lines: 12, columns: 3)
            t.hyphenation.acrossColumns = allowed
            let fs = framesetter(text, template: t)
            var atFoot = 0
            for page in pages(of: fs) {
                for frame in page.frames {
                    if let last = frame.lines.last, last.paragraph.lines[last.lineIndex].hyphen { atFoot += 1 }
                }
            }
            if allowed { #expect(atFoot > 0) } else { #expect(atFoot == 0) }
            expectPartition(fs)
        }
    }
}

/// Visible ranges partition the story.
func expectPartition(_ fs: Framesetter) {
    var next = 0
    for page in pages(of: fs) {
        for frame in page.frames {
            #expect(frame.visibleRange.lowerBound == next)
            next = frame.visibleRange.upperBound
        }
    }
    #expect(next == fs.story.text.utf8.count)
}
