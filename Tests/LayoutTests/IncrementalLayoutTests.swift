import Foundation
import GalleyLayout
import GalleyRender
import GalleyTemplate
import TestSupport
import Testing

/// Layouts after an edit that take the unchanged paragraphs from the layouts before
/// (`ParagraphCache`, as `galley watch` keeps them) are a cold layout's: the same pages, and
/// the same PDF, byte for byte.
@Suite struct IncrementalLayoutTests {
    static let words = "the harbour at dawn is a study in grey and silver with boats that rock against quay gulls wheel above masts"
        .split(separator: " ").map(String.init)

    static func sentence(_ n: Int, _ rng: inout SplitMix) -> String {
        (0..<n).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ").capitalized + "."
    }

    /// One edit of the kinds a writer makes, on the document's lines (its paragraphs), or on
    /// the template: a paragraph inserted, deleted or repeated, a word changed or styled, an
    /// image or float added or removed, the body size or the columns changed.
    static func edit(_ text: String, _ template: Template, _ rng: inout SplitMix) -> (String, Template, String) {
        var lines = text.components(separatedBy: "\n")
        var t = template
        let at = Int.random(in: 0..<max(1, lines.count), using: &rng)
        let what: String
        switch Int.random(in: 0..<9, using: &rng) {
        case 0:
            lines.insert(sentence(Int.random(in: 3...90, using: &rng), &rng), at: at)
            what = "a paragraph inserted at line \(at + 1)"
        case 1 where lines.count > 1:
            lines.remove(at: at)
            what = "line \(at + 1) deleted"
        case 2:
            lines.insert(lines[at], at: at)
            what = "line \(at + 1) repeated"
        case 3, 4:
            let style = ["<b>", "<i>", "<font size=\"14\">", "<font color=\"red\">", "<u>", "<font face=\"Georgia\">"]
                .randomElement(using: &rng)!
            let close = style.hasPrefix("<font") ? "</font>" : "</" + style.dropFirst()
            guard let range = lines[at].range(of: words.randomElement(using: &rng)!, options: .caseInsensitive) else {
                lines[at] += " " + sentence(Int.random(in: 1...12, using: &rng), &rng)
                what = "words added to line \(at + 1)"
                break
            }
            let word = lines[at][range]
            let replaced = Bool.random(using: &rng) ? style + word + close : words.randomElement(using: &rng)! + "ish"
            lines[at].replaceSubrange(range, with: replaced)
            what = "a word of line \(at + 1) changed to \(replaced)"
        case 5:
            let image = [
                #"<img src="images/chart.png" float="left" width="40%">"#,
                #"<img src="images/tall.png" span="page" float="top" width="60%">"#,
                #"<img src="images/badge.png" width="16" height="16"> inline"#, #"<pullquote>A quote set apart.</pullquote>"#,
            ].randomElement(using: &rng)!
            lines.insert(image, at: at)
            what = "\(image) inserted at line \(at + 1)"
        case 6:
            if let k = lines.firstIndex(where: { $0.contains("<img") || $0.contains("<pullquote") || $0.contains("<aside") }) {
                lines.remove(at: k)
                what = "the float of line \(k + 1) removed"
            } else {
                what = "no float to remove"
            }
        case 7:
            t.body.size += 0.5
            what = "body.size \(t.body.size)"
        default:
            t.columns = t.columns == 2 ? 3 : 2
            what = "\(t.columns) columns"
        }
        return (lines.joined(separator: "\n"), t, what)
    }

    static func pdf(_ fs: Framesetter, _ dir: TemporaryDirectory, _ name: String) throws -> Data {
        let path = dir.file(name)
        try Export.pdf(fs, to: path, metadata: PDFMetadata(title: "t", creator: "test", date: Date(timeIntervalSince1970: 0)))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    // Over random documents and every template, five edits each: after each, the PDF made with
    // the paragraphs kept is the cold one, byte for byte (and where it is not, the pages say
    // where they part).
    @Test(arguments: 0..<12) func editsLayOutAsColdBuildsDo(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 31_000)
        var text = randomDocument(&rng)
        var template = try #require(Template.builtin(named: templateNames[seed % templateNames.count]))
        let cache = ParagraphCache()
        let dir = TemporaryDirectory("incremental")
        var history: [String] = []
        for step in 0..<6 {
            if step > 0 {
                let (edited, t, what) = Self.edit(text, template, &rng)
                (text, template) = (edited, t)
                history.append(what)
            }
            let warm = framesetter(text, template: template, cache: cache)
            let cold = framesetter(text, template: template)
            guard try Self.pdf(warm, dir, "warm.pdf") != Self.pdf(cold, dir, "cold.pdf") else { continue }
            let dumps = [warm, cold].map { fs in pages(of: fs).map { PageDump.dump($0, story: fs.story) } }
            let k = zip(dumps[0], dumps[1]).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            Issue.record(
                "seed \(seed), \(template.name), after \(history): the PDFs differ; first differing page: \(k.map { "\($0 + 1)" } ?? "none")"
            )
            return
        }
    }

    /// A long document of the kind whose pages an edit leaves standing: paragraphs, headings,
    /// images on lines of their own, and page and column breaks (images anchored in the text
    /// and text blocks are numbered across the story, so an edit keeps no page of those).
    static func longDocument(_ rng: inout SplitMix) -> String {
        let images = [
            #"<img src="images/chart.png" float="left" width="40%">"#,
            #"<img src="images/harbour.jpg" span="page" float="top" width="60%">"#,
            #"<img src="images/compass.svg" width="50%" caption="A compass.">"#,
        ]
        return (0..<Int.random(in: 60...140, using: &rng)).map { _ in
            switch Int.random(in: 0..<24, using: &rng) {
            case 0, 1: "<h2>\(sentence(Int.random(in: 2...8, using: &rng), &rng))</h2>"
            case 2: images.randomElement(using: &rng)!
            case 3: "<pagebreak>" + sentence(Int.random(in: 10...40, using: &rng), &rng)
            case 4: "<columnbreak>" + sentence(Int.random(in: 10...40, using: &rng), &rng)
            default: sentence(Int.random(in: 3...90, using: &rng), &rng)
            }
        }.joined(separator: "\n")
    }

    // Over long random documents and every template, edits of the text only: the pages kept
    // before the edit and taken again after it make the cold PDF, byte for byte; and the
    // edits do keep and take pages again (else this would test nothing).
    @Test(arguments: 0..<8) func editedTextKeepsPagesAsColdBuildsLayThemOut(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 47_000)
        var text = Self.longDocument(&rng)
        let template = try #require(Template.builtin(named: templateNames[seed % templateNames.count]))
        let cache = ParagraphCache()
        let dir = TemporaryDirectory("incremental-pages")
        var history: [String] = []
        var (kept, reused) = (0, 0)
        for step in 0..<6 {
            if step > 0 {
                var (edited, what) = ("", "")
                repeat {
                    (edited, _, what) = Self.edit(text, template, &rng)
                } while what.contains("float")
                    || what.contains("<")
                        && !what.contains("changed to")
                text = edited
                history.append(what)
            }
            let warm = framesetter(text, template: template, cache: cache)
            let cold = framesetter(text, template: template)
            let same = try Self.pdf(warm, dir, "warm.pdf") == Self.pdf(cold, dir, "cold.pdf")
            (kept, reused) = (kept + cache.keptPages, reused + cache.reusedPages)
            guard !same else { continue }
            let dumps = [warm, cold].map { fs in pages(of: fs).map { PageDump.dump($0, story: fs.story) } }
            let k = zip(dumps[0], dumps[1]).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            Issue.record(
                "seed \(seed), \(template.name), after \(history): the PDFs differ (\(cache.keptPages) kept, \(cache.reusedPages) taken again); first differing page: \(k.map { "\($0 + 1)" } ?? "none")"
            )
            return
        }
        // Most seeds' edits also meet a page that begins where one began before, and take the
        // pages from there again (seed 5's do not); `thePagesAfterAnEditAreTakenAgain` requires it.
        #expect(kept > 0, "seed \(seed): \(kept) pages kept and \(reused) taken again")
    }

    // Built as a PDF build lays out (a shaping thread ahead of the drawing one), the pages
    // taken from the layout before have their draw runs and shadow masks made beside the
    // drawing (`DrawAhead`): the PDF is still the cold one, byte for byte.
    @Test(arguments: 0..<4) func pdfBuildsAfterEditsDrawAsColdOnes(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 53_000)
        var paragraphs = Self.longDocument(&rng).components(separatedBy: "\n")
        for k in stride(from: 3, to: paragraphs.count, by: 7) where !paragraphs[k].hasPrefix("<") {
            paragraphs[k] = #"<span shadow="1 1 2 gray">Shadowed words</span> "# + paragraphs[k]
        }
        var text = paragraphs.joined(separator: "\n")
        let template = try #require(Template.builtin(named: templateNames[seed % templateNames.count]))
        let cache = ParagraphCache()
        let dir = TemporaryDirectory("incremental-pdf")
        var kept = 0
        for step in 0..<5 {
            if step > 0 {
                var (edited, what) = ("", "")
                repeat {
                    (edited, _, what) = Self.edit(text, template, &rng)
                } while what.contains("float") || what.contains("<") && !what.contains("changed to")
                text = edited
            }
            let warm = framesetter(text, template: template, threads: 2, drawsEveryPage: true, cache: cache)
            let cold = framesetter(text, template: template)
            #expect(try Self.pdf(warm, dir, "warm.pdf") == Self.pdf(cold, dir, "cold.pdf"), "seed \(seed), step \(step)")
            kept += cache.keptPages + cache.reusedPages
        }
        #expect(kept > 0)
    }

    // A paragraph the pipeline handed over on one page and needed again on the next (the
    // first taken during a page laid out again) is laid out again, not lost: this document,
    // drawn as a PDF build draws (a shaping thread, the drawing one), once made empty pages
    // without end. Its pages are those of one thread.
    @Test func aParagraphTakenTwiceIsLaidOutAgain() throws {
        var rng = SplitMix(seed: 1 &+ 47_000)
        let text = Self.longDocument(&rng)
        let template = try #require(Template.builtin(named: "letter"))
        let parallel = framesetter(text, template: template, threads: 2, drawsEveryPage: true)
        let one = framesetter(text, template: template, threads: 1)
        let dumps = [parallel, one].map { fs in pages(of: fs).map { PageDump.dump($0, story: fs.story) } }
        #expect(dumps[0] == dumps[1])
        #expect(!parallel.diagnostics.hasErrors)
    }

    // The pages before an edit are taken as they were, and the layout begins again from the
    // page the edit is on: the same pages as a cold layout. An edit on page 1 keeps none.
    @Test func anEditLaysOutAgainFromItsPage() throws {
        var rng = SplitMix(seed: 77)
        var paragraphs = (1...160).map { _ in Self.sentence(Int.random(in: 20...70, using: &rng), &rng) }
        // Warnings said on the pages kept are said again, as a cold layout says them.
        paragraphs[3] += " \u{12000}"
        paragraphs[90] += " \u{12001}"
        let cache = ParagraphCache()
        let before = pages(of: framesetter(paragraphs.joined(separator: "\n"), cache: cache))
        #expect(before.count >= 6 && cache.keptPages == 0)
        paragraphs[150] = "A paragraph near the end, changed."
        let warm = framesetter(paragraphs.joined(separator: "\n"), cache: cache)
        let cold = framesetter(paragraphs.joined(separator: "\n"))
        let dumps = [warm, cold].map { fs in pages(of: fs).map { PageDump.dump($0, story: fs.story) } }
        #expect(dumps[0] == dumps[1])
        #expect(cache.keptPages >= before.count - 2, "\(cache.keptPages) of \(before.count)")
        let said = [warm, cold].map { $0.diagnostics.all.map(\.message) }
        #expect(said[0] == said[1] && said[0].count == 2, "\(said)")
        paragraphs[0] = "The first paragraph, changed."
        _ = pages(of: framesetter(paragraphs.joined(separator: "\n"), cache: cache))
        #expect(cache.keptPages == 0)
    }

    // A page laid out again for a page-wide float it met holds less text than the attempt
    // that met the float: it depends on the text up to the float's anchor, past its own end.
    // An edit there (paragraphs that push the anchor to the next page) lays it out again.
    @Test func aPageLaidOutAgainForAFloatDependsOnTheTextUpToIt() throws {
        var rng = SplitMix(seed: 79)
        var paragraphs = (1...80).map { _ in Self.sentence(Int.random(in: 20...40, using: &rng), &rng) }
        let plain = pages(of: framesetter(paragraphs.joined(separator: "\n")))
        let last = try #require(plain.first?.frames.last?.lines.last?.paragraphIndex)
        // The anchor among the last lines of page 1: the float it brings pushes it to page 2.
        let anchor = last - 2
        paragraphs.insert("<img src=\"images/harbour.jpg\" span=\"page\" float=\"top\" width=\"60%\">", at: anchor)
        let cache = ParagraphCache()
        let before = pages(of: framesetter(paragraphs.joined(separator: "\n"), cache: cache))
        let end = try #require(before.first?.frames.last?.lines.last?.paragraphIndex)
        try #require(before.first?.floats.count == 1 && end < anchor, "the float on page 1, its anchor on page 2")
        for k in 0..<6 { paragraphs.insert(Self.sentence(60, &rng), at: end + 2 + k) }
        let warm = framesetter(paragraphs.joined(separator: "\n"), cache: cache)
        let cold = framesetter(paragraphs.joined(separator: "\n"))
        let dumps = [warm, cold].map { fs in pages(of: fs).map { PageDump.dump($0, story: fs.story) } }
        #expect(dumps[0] == dumps[1])
        #expect(pages(of: cold).first?.floats.isEmpty == true, "the float left page 1")
    }

    // Once a page begins where one began before the edit, in the same state, the pages from
    // there on are taken as they were, moved in the story: the same pages as a cold layout.
    // An edit that keeps the paragraph's line count finds such a page at once; one that adds
    // or removes a paragraph, at the page break that follows it.
    @Test(arguments: ["changed", "inserted", "deleted"]) func thePagesAfterAnEditAreTakenAgain(edit: String) throws {
        var rng = SplitMix(seed: 78)
        var paragraphs = (1...240).map { _ in Self.sentence(Int.random(in: 20...70, using: &rng), &rng) }
        paragraphs[40] = "<b>Bold</b> and <i>italic</i> words, and a drop of <font color=\"red\">red</font>."
        paragraphs[100] = "<pagebreak>" + paragraphs[100]
        paragraphs[60] = "Grey " + paragraphs[60]
        paragraphs[180] = "Grey " + paragraphs[180]
        let cache = ParagraphCache()
        let before = pages(of: framesetter(paragraphs.joined(separator: "\n"), cache: cache))
        switch edit {
        case "changed": paragraphs[60] = "Blue" + paragraphs[60].dropFirst(4)
        case "inserted": paragraphs.insert("A paragraph of its own.", at: 60)
        default: paragraphs.remove(at: 60)
        }
        let warm = framesetter(paragraphs.joined(separator: "\n"), cache: cache)
        let cold = framesetter(paragraphs.joined(separator: "\n"))
        let dumps = [warm, cold].map { fs in pages(of: fs).map { PageDump.dump($0, story: fs.story) } }
        #expect(dumps[0] == dumps[1])
        let opening = try #require(
            pages(of: cold).firstIndex {
                $0.frames.contains { $0.lines.first?.paragraphIndex == (edit == "changed" ? 100 : edit == "inserted" ? 101 : 99) }
            })
        let laidOut = before.count - cache.keptPages - cache.reusedPages
        #expect(cache.reusedPages >= before.count - opening && laidOut <= 4, "\(cache.keptPages) + \(cache.reusedPages) of \(before.count)")
        // The next edit, further on, takes its pages from this layout's, and its paragraphs
        // from the paragraph cache.
        let k = edit == "inserted" ? 181 : edit == "deleted" ? 179 : 180
        paragraphs[k] = "Dusk " + paragraphs[k].dropFirst(5)
        let again = framesetter(paragraphs.joined(separator: "\n"), cache: cache)
        let coldAgain = framesetter(paragraphs.joined(separator: "\n"))
        #expect(
            pages(of: again).map { PageDump.dump($0, story: again.story) }
                == pages(of: coldAgain).map { PageDump.dump($0, story: coldAgain.story) })
        #expect(cache.reusedPages > 0 && cache.statistics.made == 1, "\(cache.reusedPages), \(cache.statistics)")
    }

    // The pages kept between builds hold no draw runs (they would hold every glyph of the book
    // a second time), though those the drawing got were made ahead on a shaping thread.
    @Test func keptPagesHoldNoDrawRuns() throws {
        var rng = SplitMix(seed: 79)
        var paragraphs = (1...200).map { _ in Self.sentence(Int.random(in: 20...70, using: &rng), &rng) }
        paragraphs[100] = "Grey " + paragraphs[100]
        let cache = ParagraphCache()
        // Drawn slowly (the first page most), so that the shaping thread is well ahead and
        // makes draw runs, even with the other tests taking the cores.
        func drawn(_ fs: Framesetter) -> (pages: [Page], prepared: Int) {
            var pages: [Page] = []
            fs.layOut { page in
                usleep(pages.isEmpty ? 400_000 : 20_000)
                pages.append(page)
                return true
            }
            return (pages, pages.reduce(0) { $0 + $1.linesWithDrawRuns })
        }
        let first = drawn(framesetter(paragraphs.joined(separator: "\n"), threads: 2, drawsEveryPage: true, cache: cache))
        #expect(first.prepared > 0)
        #expect(cache.keptLinesWithDrawRuns == 0)
        paragraphs[100] = "Blue" + paragraphs[100].dropFirst(4)
        let warm = framesetter(paragraphs.joined(separator: "\n"), threads: 2, drawsEveryPage: true, cache: cache)
        let again = drawn(warm)
        #expect(cache.keptPages > 0 && cache.reusedPages > 0)
        #expect(cache.keptLinesWithDrawRuns == 0)
        let cold = framesetter(paragraphs.joined(separator: "\n"))
        #expect(again.pages.map { PageDump.dump($0, story: warm.story) } == pages(of: cold).map { PageDump.dump($0, story: cold.story) })
    }

    // The kept paragraphs are used: a layout after a one-word edit shapes only that paragraph.
    @Test func anEditReshapesOnlyItsParagraph() throws {
        let paragraphs = (1...40).map { "Paragraph \($0) of the harbour at dawn, grey and silver, with boats that rock." }
        let cache = ParagraphCache()
        _ = pages(of: framesetter(paragraphs.joined(separator: "\n"), cache: cache))
        var edited = paragraphs
        edited[20] = "Paragraph 21, changed."
        _ = pages(of: framesetter(edited.joined(separator: "\n"), cache: cache))
        #expect(cache.statistics == ParagraphCache.Statistics(kept: 39, made: 1))
    }
}
