import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// Breaks one paragraph of `markup` with the chosen breaker and widths; returns the lines as
/// text, a hyphen appended where the breaker added one.
struct Broken {
    var lines: [LineBreak]
    var text: [String]
    /// The paragraph as shaped (before dictionary hyphenation).
    var shaped: ShapedText
}

func breakParagraph(
    _ markup: String, widths: LineWidths, alignment: Alignment = .justify, breaker: any LineBreaker = TotalFitBreaker(),
    language: String = "en", hyphenate: Bool = true, configure: (inout BreakRequest) -> Void = { _ in }
) -> Broken {
    TestFonts.pin()
    var template = Template.default
    template.alignment = alignment
    template.language = language
    let story = buildStory(markup, template: template).story
    let (plan, _) = FontPlan.resolve(story: story, fallbackFaces: template.fallbackFaces, language: language, file: "t")
    let engine = TextEngine(plan: plan)
    let p = story.paragraphs[0]
    let shaped = engine.shape(story, paragraph: 0, hyphens: hyphenate)
    var request = BreakRequest(
        text: shaped, style: p.style, plan: plan, emptyStyle: 0, widths: widths,
        hyphenation: HyphenationRules(enabled: hyphenate), hyphenator: hyphenate ? Hyphenator.forLanguage(language) : nil)
    configure(&request)
    let lines = breaker.lines(for: request)
    let bytes = Array(story.text.utf8)
    let text = lines.map { l -> String in
        let s = String(decoding: bytes[(p.range.lowerBound + Int(l.start))..<(p.range.lowerBound + Int(l.contentEnd))], as: UTF8.self)
        return s + (l.hyphen ? "-" : "")
    }
    return Broken(lines: lines, text: text, shaped: shaped)
}

let printerParagraph = """
    The compositor picks up letters one by one and lines them up against the edge of the stick, \
    with thin pieces of blank metal between the words. When the line is nearly full, a decision \
    has to be made: push the last word over to the next line and spread the remaining words apart, \
    squeeze the spaces a little, or break the word with a hyphen in the right place.
    """

@Suite struct TotalFitTests {
    // The breaks chosen for one paragraph at three widths, checked by eye: even spacing, no
    // short last word stranded, a hyphen only where it saves a loose line, never two in a row
    // more than twice.
    @Test func breaksAtThreeWidths() {
        #expect(
            breakParagraph(printerParagraph, widths: LineWidths(rest: 160)).text == [
                "The compositor picks up letters", "one by one and lines them up", "against the edge of the stick,",
                "with thin pieces of blank metal", "between the words. When the", "line is nearly full, a decision",
                "has to be made: push the last", "word over to the next line and", "spread the remaining words",
                "apart, squeeze the spaces a lit-", "tle, or break the word with a hy-", "phen in the right place.",
            ])
        #expect(
            breakParagraph(printerParagraph, widths: LineWidths(rest: 246.6)).text == [
                "The compositor picks up letters one by one and", "lines them up against the edge of the stick, with",
                "thin pieces of blank metal between the words.", "When the line is nearly full, a decision has to be",
                "made: push the last word over to the next line and", "spread the remaining words apart, squeeze the",
                "spaces a little, or break the word with a hyphen", "in the right place.",
            ])
        #expect(
            breakParagraph(printerParagraph, widths: LineWidths(rest: 400)).text == [
                "The compositor picks up letters one by one and lines them up against the edge",
                "of the stick, with thin pieces of blank metal between the words. When the line",
                "is nearly full, a decision has to be made: push the last word over to the next line",
                "and spread the remaining words apart, squeeze the spaces a little, or break the",
                "word with a hyphen in the right place.",
            ])
    }

    // Justified lines end exactly on the edge; the last line keeps its natural spacing.
    @Test func justifiedToTheEdge() {
        let b = breakParagraph(printerParagraph, widths: LineWidths(rest: 200))
        for line in b.lines.dropLast() {
            #expect(abs(line.setWidth - 200) < 0.01, "\(line)")
            #expect(line.ratio >= -1)
        }
        #expect(b.lines.last!.ratio == 0)
        #expect(b.lines.last!.setWidth < 200)
    }

    // A staircase of widths (as around an image) is honoured line by line, exactly.
    @Test func staircase() {
        let widths = LineWidths(first: [120, 150, 180, 210], rest: 240)
        let b = breakParagraph(printerParagraph, widths: widths)
        for (i, line) in b.lines.enumerated() {
            #expect(line.availableWidth == widths[i])
            if i < b.lines.count - 1 { #expect(abs(line.setWidth - widths[i]) < 0.01, "line \(i)") }
        }
        #expect(b.lines.count >= 6)
    }

    // Total fit beats first fit on the same text: its loosest line is less loose.
    @Test func betterThanGreedy() {
        let text = sample("long.txt").split(separator: "\n").first { $0.count > 1000 }.map(String.init)!
        func loosest(_ b: Broken) -> Double { b.lines.dropLast().map(\.ratio).max() ?? 0 }
        let kp = breakParagraph(text, widths: LineWidths(rest: 200))
        let greedy = breakParagraph(text, widths: LineWidths(rest: 200), breaker: GreedyBreaker(), hyphenate: false)
        #expect(loosest(kp) < loosest(greedy))
    }

    // Ragged-right paragraphs use the same search with a ragged cost: no hyphen-starved
    // short lines, nothing stretched, and every line fits.
    @Test func raggedRight() {
        let b = breakParagraph(printerParagraph, widths: LineWidths(rest: 200), alignment: .left)
        #expect(b.lines.allSatisfy { $0.ratio == 0 && $0.setWidth <= 200.01 })
        let lengths = b.lines.dropLast().map(\.setWidth)
        #expect(lengths.min()! > 200 * 0.8, "\(lengths)")
    }

    // No more than two hyphenated lines in a row (the template's limit), one when asked.
    @Test func consecutiveHyphens() {
        let text = String(repeating: "Extraordinarily incomprehensible typographical considerations. ", count: 8)
        for limit in [1, 2] {
            let b = breakParagraph(text, widths: LineWidths(rest: 120)) { $0.hyphenation.maxConsecutive = limit }
            var run = 0
            var longest = 0
            for l in b.lines {
                run = l.hyphen ? run + 1 : 0
                longest = max(longest, run)
            }
            #expect(longest <= limit, "limit \(limit): \(b.text)")
            #expect(b.lines.contains { $0.hyphen })
        }
    }

    // Soft hyphens are break points (with a visible hyphen) even with hyphenation off.
    @Test func softHyphens() {
        let b = breakParagraph(
            "Super\u{AD}cal\u{AD}i\u{AD}fra\u{AD}gil\u{AD}is\u{AD}tic words", widths: LineWidths(rest: 60), hyphenate: false)
        #expect(b.text.first!.hasSuffix("-"), "\(b.text)")
        #expect(
            b.text.joined().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "\u{AD}", with: "")
                == "Supercalifragilisticwords")
    }

    // The last word of a paragraph is never hyphenated, nor words in capitals or URLs.
    @Test func notHyphenated() {
        let b = breakParagraph(
            "Words come here: NEWSPAPERS www.example.com/typesetting, then the typesetting", widths: LineWidths(rest: 75))
        // (The URL is wider than the column, so it is broken between letters, without a hyphen.)
        #expect(!b.lines.contains { $0.hyphen }, "\(b.text)")
        #expect(b.text.contains("NEWSPAPERS") && b.text.last == "typesetting", "\(b.text)")
    }

    // A hyphenated compound breaks at its own hyphen only, at any width: "con-tour-wrapped"
    // reads as a misprint. A word beside it is hyphenated as ever.
    @Test(arguments: [50.0, 60.0, 70.0, 80.0, 90.0])
    func compoundsKeepTheirParts(width: Double) {
        let b = breakParagraph(
            "The contour-wrapped figures, hand\u{2011}composed, typesetting again and again.", widths: LineWidths(rest: width))
        let inside = ["con-", "com-", "wrap-"]
        #expect(!b.text.contains { line in inside.contains { line.hasSuffix($0) } }, "\(b.text)")
    }

    // A long part of a compound is still hyphenated in a narrow column, rather than broken
    // between letters: "counter-revolutionary‑minded" (U+2011 does not break).
    @Test(arguments: [60.0, 80.0, 100.0])
    func longCompoundPartsHyphenate(width: Double) {
        let b = breakParagraph(
            "Among the counterrevolutionary\u{2011}minded compositors, electroencephalograph-monitored apprentices worked.",
            widths: LineWidths(rest: width))
        #expect(!b.lines.contains { $0.brokenInWord }, "\(b.text)")
    }

    // The fallback chain always ends: a 40 pt column and a 5,000-character URL.
    @Test func fallbackChainTerminates() {
        let url = "https://example.com/" + String(repeating: "abcdefghij", count: 500)
        let b = breakParagraph("See \(url) now, extraordinarily.", widths: LineWidths(rest: 40))
        #expect(b.lines.count > 50)
        #expect(b.lines.contains { $0.brokenInWord })
        #expect(b.lines.allSatisfy { $0.end > $0.start })
        let fs = framesetter("See \(url) now.", template: narrow(40))
        _ = pages(of: fs)
        #expect(fs.diagnostics.warnings.contains { $0.message.contains("broken between letters") })
    }

    // Break opportunities come from UAX #14: CJK breaks between ideographs, but never before
    // closing punctuation or after opening punctuation (kinsoku), at any width.
    @Test(arguments: [60.0, 73.0, 100.0, 137.0, 180.0])
    func kinsoku(width: Double) {
        let text = "「活字」印刷，是把一个个字（铅字）排进字盘。他说：「还字最磨人。」中文排版讲究《方块》感！"
        let b = breakParagraph(text, widths: LineWidths(rest: width), language: "zh-Hans")
        let closing = Set("，。、；：？！」』）》〉】")
        let opening = Set("「『（《〈【")
        for line in b.text {
            #expect(!closing.contains(line.first!), "\(width): \(b.text)")
            #expect(!opening.contains(line.last!), "\(width): \(b.text)")
        }
        for line in b.lines.dropLast() { #expect(abs(line.setWidth - width) < 0.01) }
    }

    // Curly quotes in Chinese are brackets (clreq): a line breaks before “ and after ”, never
    // after “ or before ”. UAX #14 alone allows no break beside either (both are class QU), so
    // this run was broken between letters, and lines began with ” or 、.
    @Test(arguments: [60.0, 73.0, 100.0, 137.0, 180.0, 246.6])
    func kinsokuWithCurlyQuotes(width: Double) {
        let text = "标点密集出现在这一行里面吧，看看会怎样：“甲”、“乙”、“丙”、“丁”、“戊”、“己”、“庚”、“辛”、“壬”、‘子’、“丑”。"
        let b = breakParagraph(text, widths: LineWidths(rest: width), language: "zh-Hans")
        let closing = Set("，。、；：？！」』）》〉】”’")
        let opening = Set("「『（《〈【“‘")
        for (line, shown) in zip(b.lines, b.text) {
            #expect(!line.brokenInWord, "\(width): \(b.text)")
            #expect(!closing.contains(shown.first!), "\(width): \(b.text)")
            #expect(!opening.contains(shown.last!), "\(width): \(b.text)")
        }
    }

    // The break opportunities of curly quotes in Chinese are those of the corner brackets they
    // stand for; in Latin text they stay UAX #14's, but for quotes beside Chinese.
    @Test func curlyQuotesBreakAsCornerBrackets() {
        func shaped(_ text: String, _ language: String) -> ShapedText {
            breakParagraph(text, widths: LineWidths(rest: 1000), language: language).shaped
        }
        func breaks(_ t: ShapedText) -> [Int] { (0...t.length).filter { t.flags[$0].contains(.lineBreak) } }
        let curly = shaped("看看会怎样：“甲”、“乙”、‘丙’。他说“好”“不”。“OK”和‘it’s’", "zh-Hans")
        let corner = shaped("看看会怎样：「甲」、「乙」、『丙』。他说「好」「不」。「OK」和『it’s』", "zh-Hans")
        #expect(breaks(curly) == breaks(corner))
        let latin = shaped("He said “yes”and a‘b’c, it’s.", "en")
        #expect(breaks(latin).allSatisfy { $0 == latin.length || latin.bytes[$0 - 1] == 0x20 }, "\(breaks(latin))")
        let mixed = shaped("He wrote 中文“引号”ok.", "en")
        let open = mixed.bytes.firstRange(of: Array("“".utf8))!.lowerBound
        let close = mixed.bytes.firstRange(of: Array("”".utf8))!.lowerBound
        #expect(mixed.flags[open].contains(.lineBreak) && mixed.flags[close + 3].contains(.lineBreak))
        #expect(!mixed.flags[open + 3].contains(.lineBreak) && !mixed.flags[close].contains(.lineBreak))
    }

    // An apostrophe beside Chinese is no quotation mark: `’90s` stays whole, not broken after
    // its ’ as a closing quote would be, and is not set full-width.
    @Test func apostrophesBesideChinese() {
        let text = "我仍然记得’90s的铅字，那是’90s年代。Pim’s排版在’90s很流行，rock ’n’ roll也是。"
        let shaped = breakParagraph(text, widths: LineWidths(rest: 1000), language: "zh-Hans").shaped
        let marks = shaped.bytes.indices.filter { shaped.bytes[$0] == 0xE2 && shaped.bytes[$0 + 2] == 0x99 }
        #expect(marks.count == 6)
        for m in marks { #expect(!shaped.flags[m + 3].contains(.lineBreak), "a break after the ’ at \(m)") }
        let wide = text.withCString { CJKPunctuation.ranges($0, length: text.utf8.count, from: 0) }
        #expect(wide.isEmpty, "\(wide)")
    }

    // Latin words inside Chinese keep their own letter spacing: justification goes to the
    // gaps between ideographs and to the spaces.
    @Test func latinInsideChinese() {
        let b = breakParagraph("今天的中文文章里，常常夹着英文单词 Unicode 和 HarfBuzz，还有阿拉伯数字 2026 年。", widths: LineWidths(rest: 120), language: "zh-Hans")
        #expect(b.lines.dropLast().allSatisfy { $0.ratio <= 1.5 }, "\(b.lines.map(\.ratio))")
    }
}

/// The magazine template with one column of the given width.
func narrow(_ width: Double) -> Template {
    var t = Template.default
    t.columns = 1
    t.margins.left = (t.pageWidth - width) / 2
    t.margins.right = (t.pageWidth - width) / 2
    return t
}

/// Past TeX's badness cap, emptier lines cost more.
@Suite struct UnderfullLineTests {
    // A deck in three columns whose first word cannot share its line: the whole word (three
    // quarters of the line) beats "Auto-compos-" (not much over half), and no line but the
    // last is under half full.
    @Test func fullerUnderfullLineWins() throws {
        let text = #"<p><font face="Palatino" size="16"><i>Auto-compositors arrived at the harbour works in the spring of that year, and nothing was the same again.</i></font></p>"#
        var t = Template.default
        t.columns = 3
        let fs = framesetter(text, template: t)
        let lines = try #require(pages(of: fs).first?.frames.first?.lines)
        let first = try #require(lines.first)
        let bytes = Array(fs.story.text.utf8)[first.storyRange]
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("Auto-compositors"))
        for line in lines.dropLast() {
            #expect(line.contentWidth > line.box.width / 2, "\(line.storyRange): \(line.contentWidth) of \(line.box.width)")
        }
    }
}
