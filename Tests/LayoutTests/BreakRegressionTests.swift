import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// The magazine template in six columns (70.9 pt on A4), as `--set columns=6` gives it; with
/// `lines`, a page only that many body lines tall.
private func sixColumns(balance: Bool = true, lines: Int? = nil) -> Template {
    var t = Template.default
    t.columns = 6
    t.balance = balance
    if let lines { t.pageHeight = t.margins.top + t.margins.bottom + (Double(lines) + 0.5) * t.body.leading }
    return t
}

/// Lines whose content runs past their column's right edge, into the gutter, as messages.
/// (`violations` checks line boxes, and lets an overfull line's content out of its box.)
private func linesPastTheirColumn(_ pages: [Page], story: Story) -> [String] {
    var out: [String] = []
    for page in pages {
        for frame in page.frames where !frame.spansColumns {
            for line in frame.lines where line.overfull || line.origin.x + line.contentWidth > frame.rect.maxX + 0.01 {
                let text = story.text.utf8Slice(line.storyRange.lowerBound, line.storyRange.upperBound)
                out.append("page \(page.number) column \(frame.column + 1): '\(text)' ends at \(line.origin.x + line.contentWidth)")
            }
        }
    }
    return out
}

private let longWord = "Short brown Supercalifragilisticexpialidociousnessandmore words here."
private let dropCapParagraph = """
    <p dropcap="3">Dropcap paragraph jumps brown printer fox gutter column gutter typesetting lazy fox \
    gutter the typesetting words run on and on.</p>
    """

@Suite struct BreakRegressionTests {
    // A line barred from a hyphen (a column's last) inside a word longer than the line: the
    // final pass refused the hyphen and fell back on an overfull line. It takes the hyphen
    // instead, and only there: a bar that looser lines can keep is kept.
    @Test func barredHyphenRatherThanOverfull() {
        let width = sixColumns().columnWidth
        func broken(barring lines: Set<Int>) -> Broken {
            breakParagraph(longWord, widths: LineWidths(rest: width)) {
                $0.hyphenation = HyphenationRules(minWord: 5, maxConsecutive: 3)  // the narrow measure's
                $0.unhyphenatedLines = lines
            }
        }
        let barred = broken(barring: [2])
        #expect(!barred.lines.contains { $0.overfull }, "\(barred.text)")
        #expect(barred.lines.count > 2 && barred.lines[2].hyphen, "\(barred.text)")
        let kept = broken(barring: [1])
        #expect(!kept.lines.contains { $0.overfull } && kept.lines.count > 1 && !kept.lines[1].hyphen, "\(kept.text)")
    }

    // A URL breaks where the Chicago Manual lets it (before a slash, a dot, a hyphen, a
    // question mark, an underscore; before or after `=` and `&`): a long query string was
    // broken between letters, without a hyphen, across a column. No line ends on a slash or a
    // hyphen of it, which would read as the line's own.
    // Linked (a social text's) or not.
    @Test(arguments: [true, false]) func urlsBreakAtTheirPunctuation(linked: Bool) {
        let url = "https://example.com/reports/search?query=typesetting_and_composition&language=english&utm_source=newsletter"
        let sentence = "The full report is at \(url) for anyone who wants it."
        let fs = framesetter(linked ? "<social>\(sentence)</social>\n" : sentence + "\n", template: sixColumns(balance: false))
        let text = Array(fs.story.text.utf8)
        let ends = expectInvariants(fs, "a URL").flatMap(\.frames).flatMap(\.lines).map(\.storyRange.upperBound).dropLast()
        let letter = { (b: UInt8) in (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        let betweenLetters = ends.filter { $0 > 0 && $0 < text.count && letter(text[$0 - 1]) && letter(text[$0]) }
        #expect(ends.count > 3)
        // After the scheme's `//` is a break of its own.
        let slashOrHyphen = ends.filter { e in
            text[e - 1] == UInt8(ascii: "-") || (text[e - 1] == UInt8(ascii: "/") && text[e - 2] != UInt8(ascii: "/"))
        }
        #expect(slashOrHyphen.isEmpty, "\(slashOrHyphen)")
        #expect(betweenLetters.isEmpty, "\(betweenLetters.map { String(decoding: text[($0 - 8)..<($0 + 4)], as: UTF8.self) })")
        #expect(!fs.diagnostics.warnings.contains { $0.message.contains("wider than its column") }, "\(fs.diagnostics.warnings)")
    }

    // The quarter em CJK/Latin auto-spacing puts between an ideograph and a Latin word is
    // dropped at a line's end, as a space is: counted there, it made an address that fills its
    // line exactly too wide, and it was broken between letters, with a warning.
    @Test func autoSpacingDroppedAtALineEnd() throws {
        var t = try #require(Template.builtin(named: "magazine-zh"))
        t.cjkAutoSpacing = true
        t.columns = 4  // 114.8 pt, which the address fills but for the auto-spacing after it
        let fs = framesetter("请把报名表发到邮箱someone@example.org也可以直接打电话给我们，电话号码写在下面。\n", template: t)
        let lines = expectInvariants(fs, "auto-spacing").flatMap(\.frames).flatMap(\.lines)
        let texts = lines.map { fs.story.text.utf8Slice($0.storyRange.lowerBound, $0.storyRange.upperBound) }
        #expect(texts.prefix(2) == ["请把报名表发到邮箱", "someone@example.org"], "\(texts)")
        #expect(!fs.diagnostics.warnings.contains { $0.message.contains("wider than") }, "\(fs.diagnostics.warnings)")
        // Justified lines reach the measure's edge with their ink, not with the auto-spacing.
        #expect(lines.allSatisfy { $0.contentWidth <= $0.box.width + 0.01 })
    }

    // A topic's `#` marks stay with its name: a line ended `…寅卯辰#` and the next began
    // `话题标签#`. Wherever the column's edge falls, no line ends on the opening mark nor
    // starts with the closing one.
    @Test(arguments: [3, 4, 5]) func topicMarksStayWithTheName(columns: Int) throws {
        var t = try #require(Template.builtin(named: "magazine-zh"))
        t.columns = columns
        t.firstLineIndent = 0
        t.social.enabled = true
        let fs = framesetter("<social>甲乙丙丁戊己庚辛壬癸子丑寅卯辰#话题标签# 结束。</social>\n", template: t)
        let lines = expectInvariants(fs, "topic").flatMap(\.frames).flatMap(\.lines)
        let texts = lines.map { fs.story.text.utf8Slice($0.storyRange.lowerBound, $0.storyRange.upperBound) }
        #expect(!texts.contains { $0.hasSuffix("辰#") || $0.hasPrefix("# ") }, "\(texts)")
    }

    // A percent sign ends a Western figure: `100%的` takes the quarter em after the sign, as
    // `100的` does after the digit (it was set close).
    @Test func autoSpacingAfterAPercentSign() throws {
        var t = try #require(Template.builtin(named: "magazine-zh"))
        t.alignment = .left
        func width(_ text: String, spaced: Bool) throws -> Double {
            t.cjkAutoSpacing = spaced
            return try #require(pages(of: framesetter(text + "\n", template: t)).first?.frames.first?.lines.first).contentWidth
        }
        for text in ["以及100%的数字", "以及100的数字"] {
            let added = try width(text, spaced: true) - width(text, spaced: false)
            #expect(abs(added - 5) < 0.01, "\(text): \(added)")  // two quarter ems of 10 pt
        }
    }

    // A word that is a scheme and nothing after it, or barely more, breaks as words do.
    @Test func schemesAlone() {
        for text in ["see abcdefgh:// now", "see abcdefgh://x now", "<social>see https://abc now</social>"] {
            _ = expectInvariants(framesetter(text + "\n", template: sixColumns(balance: false)), text)
        }
    }

    // `--set columns=6`: balanced, the word met two column feet, and its lines ran 3.1 and
    // 19.5 pt into the gutter.
    @Test func longWordInBalancedColumns() {
        let fs = framesetter(longWord, template: sixColumns())
        let past = linesPastTheirColumn(expectInvariants(fs, "six columns"), story: fs.story)
        #expect(past.isEmpty, "\(past)")
        #expect(!fs.diagnostics.warnings.contains { $0.message.contains("wider than its column") })
    }

    // Not balancing's doing: unbalanced columns two lines tall meet the word at their feet too.
    @Test func longWordAtUnbalancedFeet() {
        let fs = framesetter(longWord, template: sixColumns(balance: false, lines: 2))
        let past = linesPastTheirColumn(expectInvariants(fs, "two-line columns"), story: fs.story)
        #expect(past.isEmpty, "\(past)")
    }

    // Balanced, the first column held the three lines beside a drop cap, and its last could
    // not be hyphenated: "paragraph" was set 17.6 pt into the gutter, against the next column.
    @Test func dropCapLinesInBalancedColumns() {
        let fs = framesetter(dropCapParagraph, template: sixColumns())
        let past = linesPastTheirColumn(expectInvariants(fs, "drop cap, six columns"), story: fs.story)
        #expect(past.isEmpty, "\(past)")
    }

    // "printer" fits a 70.9 pt line, but not the 33.5 pt lines beside the initial: the final
    // pass (which those narrow lines call for) broke it between letters on a full line.
    @Test func wordTooWideOnlyBesideADropCap() {
        let fs = framesetter(dropCapParagraph, template: sixColumns(balance: false))
        let lines = pages(of: fs).flatMap(\.frames).flatMap(\.lines)
        let texts = lines.map { fs.story.text.utf8Slice($0.storyRange.lowerBound, $0.storyRange.upperBound) }
        #expect(!lines.contains { $0.paragraph.lines[$0.lineIndex].brokenInWord }, "\(texts)")
        #expect(texts.contains { $0.contains("printer") }, "\(texts)")
        #expect(!fs.diagnostics.warnings.contains { $0.message.contains("broken between letters") })
    }

    // A word wider than its line is still broken between letters, and the warning quotes that
    // word, at its start, not the line's words before it ("The fox ABCD").
    @Test func brokenWordWarningQuotesTheWord() throws {
        let fs = framesetter("The fox ABCDEFGHIJKLMNOPQRSTUVWXYZ jumps.", template: sixColumns(balance: false))
        _ = pages(of: fs)
        let warning = try #require(fs.diagnostics.warnings.first { $0.message.contains("broken between letters") })
        let quoted = warning.message.split(separator: "'").dropFirst().first.map(String.init) ?? ""
        #expect(!quoted.isEmpty && "ABCDEFGHIJKLMNOPQRSTUVWXYZ".hasPrefix(quoted), "\(warning.message)")
        #expect(warning.location?.column == 9, "\(String(describing: warning.location))")
    }
}
