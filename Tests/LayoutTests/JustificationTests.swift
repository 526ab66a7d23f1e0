import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// The order in which a justified line takes up its slack (`GlueModel.fit`), on totals made up
/// for the purpose: 5 pt of space stretch, 3 of shrink, 4 of letter stretch, 2 of letter shrink,
/// 100 pt of ink (2 pt of expansion either way, in steps of 0.5 pt).
@Suite struct GlueFitTests {
    let totals = GlueModel.Totals(wordStretch: 5, wordShrink: 3, letterStretch: 4, letterShrink: 2, ink: 100)
    let model = GlueModel()

    func fit(_ slack: Double) -> GlueModel.Fit { model.fit(totals, slack: slack) }

    // Whatever the slack, the fit adds exactly that much width while the glue allows.
    @Test(arguments: stride(from: -6.0, through: 14.0, by: 0.25).map { $0 })
    func exact(slack: Double) {
        let f = fit(slack)
        #expect(abs(model.width(totals, at: f) - slack) < 1e-9, "\(slack): \(f)")
    }

    // Up to half their stretch the spaces alone take it: the glyphs keep their width.
    @Test func spacesFirst() {
        let f = fit(2)
        #expect(f.steps == 0 && f.letters == 0 && abs(f.words - 0.4) < 1e-9)
    }

    // Then spaces and expansion together, until the spaces reach 1.5× and the glyphs 2 %;
    // the letters are not spaced.
    @Test func thenExpansion() {
        let half = fit(4.75)
        #expect(half.steps == 2 && half.letters == 0 && half.words < 1, "\(half)")
        let full = fit(7)
        #expect(full.steps == 4 && full.letters == 0 && abs(full.words - 1) < 1e-9, "\(full)")
    }

    // Letter spacing is the last resort before the spaces go past 1.5×, and then they do.
    @Test func lettersLast() {
        let letters = fit(9)
        #expect(letters.steps == 4 && letters.words == 1 && abs(letters.letters - 0.5) < 1e-9 && abs(letters.cost - 1.5) < 1e-9)
        let loose = fit(13.5)
        #expect(loose.letters == 1 && abs(loose.words - 1.5) < 1e-9 && abs(loose.cost - 2.5) < 1e-9)
    }

    // Shrinking, the glyphs narrow first; the spaces and letters then shrink together.
    @Test func shrinkNarrowsFirst() {
        let narrowed = fit(-2)
        #expect(narrowed.steps == -4 && narrowed.words == 0, "\(narrowed)")
        let shrunk = fit(-4.5)
        #expect(shrunk.steps == -4 && abs(shrunk.words + 0.5) < 1e-9 && shrunk.words == shrunk.letters)
        #expect(fit(-8).cost < -1)
    }

    // No expansion asked, none given; a line with no ink (all spaces) gets none either.
    @Test func off() {
        var m = GlueModel()
        m.expansion = 0
        #expect(m.fit(totals, slack: 6).steps == 0)
        var empty = totals
        empty.ink = 0
        #expect(model.fit(empty, slack: 6).steps == 0)
    }
}

/// Expansion on real lines: what the breaker and the setter decide is what `drawRuns` draws.
@Suite struct ExpansionTests {
    // In a narrow column some lines are widened and some narrowed, within 2 %; every
    // justified line's runs, expansion and spacing included, end on the column's edge.
    @Test func drawnToTheEdge() {
        let paragraphs: [Substring] = sample("long.txt").split(separator: "\n").filter { $0.count > 400 }
        let b = breakParagraph(paragraphs.prefix(4).joined(separator: " "), widths: LineWidths(rest: 150))
        let layout = ParagraphLayout(text: b.shaped, lines: b.lines, glue: GlueModel(), widths: LineWidths(rest: 150))
        var steps = Set<Int>()
        for (i, line) in b.lines.enumerated().dropLast() {
            steps.insert(line.expansion)
            #expect(abs(line.expansion) <= 4)
            let runs = layout.drawRuns(line: i)
            let drawn = runs.map { $0.width }.reduce(0, +)
            #expect(abs(drawn - 150) < 0.01, "line \(i): \(drawn)")
            #expect(runs.allSatisfy { $0.expansion == line.expansion })
        }
        #expect(steps.contains { $0 > 0 } && steps.contains { $0 < 0 } && steps.contains(0), "\(steps)")
    }
}

/// Hyphenation that follows the measure (`hyphenation.narrowMeasure`).
@Suite struct NarrowMeasureTests {
    // Under the measure, the narrow word length and run of hyphens; at or over it, the usual.
    @Test func rules() {
        var r = HyphenationRules(minWord: 6, maxConsecutive: 2)
        r.narrowBelow = 200
        (r.narrowMinWord, r.narrowMaxConsecutive) = (4, 3)
        let narrow = r.forMeasure(150)
        #expect(narrow.minWord == 4 && narrow.maxConsecutive == 3)
        #expect(r.forMeasure(200) == r)
        r.narrowBelow = 0
        #expect(r.forMeasure(10) == r)
    }

    // A three-column page hyphenates five-letter words ("un-der", "wa-ter", "af-ter", "ev-ery"),
    // which the usual rules leave whole.
    @Test func threeColumnsHyphenateShorterWords() {
        let text = String(repeating: "Under the water after the flood, the birds found their nests again under every tree. ", count: 30)
        func hyphens(narrowMeasure: Int) -> Int {
            var t = Template.default
            t.columns = 3
            t.hyphenation.narrowMeasure = narrowMeasure
            let lines = pages(of: framesetter(text, template: t)).flatMap { $0.frames.flatMap(\.lines) }
            return lines.filter { $0.paragraph.lines[$0.lineIndex].hyphen }.count
        }
        #expect(hyphens(narrowMeasure: 20) > 0)
        #expect(hyphens(narrowMeasure: 0) == 0)
    }
}

/// Expansion over random documents (floats of every kind, headings, pull quotes, sidebars) and
/// every built-in template: whatever a line's fit, the runs drawn from it are exactly as wide as
/// the line was set, its glyphs move by at most 2 %, and vertical lines are never expanded.
@Suite struct ExpansionPropertyTests {
    @Test(arguments: templateNames) func drawnAsSet(template name: String) throws {
        let t = try #require(Template.builtin(named: name))
        var expanded = 0
        for seed in 0..<4 {
            var rng = SplitMix(seed: UInt64(500 + seed))
            let fs = framesetter(randomDocument(&rng), template: t)
            for page in pages(of: fs) {
                for line in page.frames.flatMap(\.lines) {
                    let layout = line.paragraph
                    let set = layout.lines[line.lineIndex]
                    let runs = layout.drawRuns(line: line.lineIndex)
                    let drawn = runs.map { $0.width }.reduce(0, +)
                    #expect(abs(drawn - set.setWidth) < 0.01, "\(name) seed \(seed): drawn \(drawn), set \(set.setWidth)")
                    #expect(abs(set.expansion) <= 4 && runs.allSatisfy { $0.expansion == set.expansion })
                    if layout.text.vertical { #expect(set.expansion == 0) }
                    if set.expansion != 0 { expanded += 1 }
                }
            }
        }
        #expect(expanded > 0, "\(name): no line expanded")
    }
}
