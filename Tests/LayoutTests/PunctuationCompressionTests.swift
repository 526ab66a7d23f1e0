import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// Punctuation compression (标点挤压) per clreq's default, at 10 pt (an em is 10 pt).
@Suite struct PunctuationCompressionTests {
    let quote = "说，「闭上眼睛都知道哪个字放在哪里。」"

    func shaped(_ text: String, _ width: CJKPunctuationWidth = .compress, language: String = "zh-Hans") -> ShapedText {
        var template = Template.default
        template.cjk.punctuation = width
        template.language = language
        return pages(of: framesetter(text, template: template))[0].frames[0].lines[0].paragraph.text
    }

    func width(_ t: ShapedText, of mark: String) -> Double {
        let r = t.bytes.firstRange(of: Array(mark.utf8))!
        return t.x[r.upperBound] - t.x[r.lowerBound]
    }

    // 19 characters: 。」 and ，「 each share half an em, so 18 em, not 19.
    @Test func adjacentMarksShareHalfAnEm() {
        let t = shaped(quote)
        #expect(abs(t.x[t.length] - 180) < 0.01, "\(t.x[t.length])")
        #expect(abs(width(t, of: "，「") - 15) < 0.01)
        #expect(abs(width(t, of: "。」") - 15) < 0.01)
        // Opening then opening: the blank between them goes too.
        #expect(abs(width(shaped("他说：「『好』」。"), of: "「『") - 15) < 0.01)
    }

    // Repeated marks of one kind (ink on the left, blank on the right) meet ink against blank:
    // there is one blank between them, nothing to merge, and each keeps its em. 17 characters
    // are 17 ems (they were 13: every mark before another lost its half). Beside a bracket a
    // closing mark still gives its blank (`」，` `）。` `》，` as `。」`), and a Traditional
    // centred ，， keeps its two quarters.
    @Test func repeatedMarksKeepTheirBlank() {
        let t = shaped("甲，，，乙。。。丙、、、丁：：：戊")
        #expect(abs(t.x[t.length] - 170) < 0.01, "\(t.x[t.length])")
        #expect(abs(width(t, of: "，，") - 20) < 0.01 && abs(width(t, of: "。。") - 20) < 0.01)
        #expect(abs(width(t, of: "、、") - 20) < 0.01 && abs(width(t, of: "：：") - 20) < 0.01)
        let closing = shaped("甲」，乙）。丙》，丁。」戊")
        for pair in ["」，", "）。", "》，", "。」"] {
            #expect(abs(width(closing, of: pair) - 15) < 0.01, "\(pair): \(width(closing, of: pair))")
        }
        #expect(abs(width(shaped("他說，，好", language: "zh-Hant"), of: "，，") - 20) < 0.01)
    }

    // A line ending ，， drops the blank after its last mark only: 一二三，， is 4.5 ems to
    // the last ink, the measure exactly (it was 4, the first comma's blank gone too).
    @Test func repeatedMarksAtALinesEnd() {
        let broken = breakParagraph("一二三，，四五六", widths: LineWidths(rest: 45), language: "zh-Hans")
        #expect(broken.text.first == "一二三，，")
        #expect(abs(broken.lines[0].naturalWidth - 45) < 0.01, "\(broken.lines[0].naturalWidth)")
        #expect(broken.lines[0].squeeze == 0)
    }

    @Test func fullAndHalf() {
        #expect(abs(shaped(quote, .full).x[19 * 3] - 190) < 0.01)
        // Full-width marks keep their blank at a line's end too: nothing for a line to take.
        #expect(shaped(quote, .full).blanks.isEmpty)
        // Half: every one of the four marks half an em.
        #expect(abs(shaped(quote, .half).x[19 * 3] - 170) < 0.01)
    }

    // Traditional marks are centred in their em: a quarter of blank each side. Beside 「 the
    // comma gives only its quarter after (the pair keeps 「's half em between them), and keeps
    // its quarter before, so its ink stays centred where the font draws it.
    @Test func traditionalMarksTrimTheirBlankSides() {
        let t = shaped("他說，「好。」", language: "zh-Hant")
        let comma = t.bytes.firstRange(of: Array("，".utf8))!.lowerBound
        let b = t.blank(at: comma)
        #expect(abs((b?.left ?? 0) - 2.5) < 0.01 && (b?.right ?? 1) == 0, "\(String(describing: b))")
        #expect(abs(width(t, of: "，「") - 17.5) < 0.01, "\(width(t, of: "，「"))")
        // Simplified: the comma's ink is in its left half, so it gives all its right half.
        #expect(abs(width(shaped("他说，「好。」"), of: "，「") - 15) < 0.01)
    }

    // A line starting with an opening bracket and ending with a closing one, 5 ems of
    // characters in 4 ems: the 」 drops its blank at the end and the 「 gives its own, rather
    // than leaving 「一二 alone on a line twice too loose.
    @Test func lineStartBracketCompressesWhenNeeded() {
        let broken = breakParagraph("「一二三」四五", widths: LineWidths(rest: 40), language: "zh-Hans")
        #expect(broken.text.first == "「一二三」")
        let line = broken.lines[0]
        #expect(abs(line.squeeze - 5) < 0.01)
        #expect(abs(line.naturalWidth - 40) < 0.01)
        #expect(!line.overfull)
        // With room to spare, every mark keeps its em: seven ems.
        let wide = breakParagraph("「一二三」四五", widths: LineWidths(rest: 200), language: "zh-Hans")
        #expect(wide.lines[0].squeeze == 0)
        #expect(abs(wide.lines[0].naturalWidth - 70) < 0.01)
    }

    // A justified line ending 。」 ends on the ink of 」: no half em blank at the edge. The
    // drawn advances add up to the measure exactly.
    @Test func justifiedLineEndsOnInk() throws {
        let text = "活字印刷始于北宋，毕昇以胶泥刻字。」一字一印，用火烧硬。排版之时，先设铁板，再将字印依次排列。"
        var template = Template.default
        template.language = "zh-Hans"
        template.alignment = .justify
        let fs = framesetter(text, template: template)
        let lines = pages(of: fs)[0].frames[0].lines
        for placed in lines.dropLast() {
            let layout = placed.paragraph
            let line = layout.lines[placed.lineIndex]
            let drawn = layout.drawRuns(line: placed.lineIndex).reduce(0.0) { $0 + $1.width }
            #expect(abs(drawn - line.availableWidth) < 0.01, "\(drawn) \(line.availableWidth)")
        }
    }

    // An overfull line gives its punctuation's blank before its ideographs are squeezed:
    // 5 ems in 4.5, the two commas give a quarter em each and no ideograph moves.
    @Test func overfullLineCompressesMarksFirst() {
        let broken = breakParagraph("一，二，三四，五", widths: LineWidths(rest: 45), language: "zh-Hans")
        #expect(broken.text.first == "一，二，三")
        #expect(abs(broken.lines[0].squeeze - 5) < 0.01)
        #expect(broken.lines[0].ratio == 0)
    }

    // With `cjk.hanging`, a last 。 hangs past the edge rather than leaving 一二三 alone on a
    // line twice too loose; without it, that is what happens.
    @Test func hangingFullStop() {
        let text = "一二三四。五六"
        let plain = breakParagraph(text, widths: LineWidths(rest: 40), language: "zh-Hans")
        let hung = breakParagraph(text, widths: LineWidths(rest: 40), language: "zh-Hans") { request in
            request.text = hanging(request.text)
        }
        #expect(hung.text.first == "一二三四。")
        #expect(abs(hung.lines[0].naturalWidth - 40) < 0.01)
        #expect(plain.text.first == "一二三")
        // With full-width marks, the whole em of 。 hangs.
        let full = breakParagraph(text, widths: LineWidths(rest: 40), language: "zh-Hans") { request in
            request.text = hanging(request.text, .full)
        }
        #expect(full.text.first == "一二三四。")
        #expect(abs(full.lines[0].squeeze - 10) < 0.01)
    }

    /// The same text shaped with hanging on.
    func hanging(_ t: ShapedText, _ width: CJKPunctuationWidth = .compress) -> ShapedText {
        var template = Template.default
        template.language = "zh-Hans"
        template.cjk.hanging = true
        template.cjk.punctuation = width
        let story = buildStory(String(decoding: t.bytes, as: UTF8.self), template: template).story
        let (plan, _) = FontPlan.resolve(story: story, fallbackFaces: template.fallbackFaces, language: "zh-Hans", file: "t")
        return TextEngine(plan: plan).shape(story, paragraph: 0, cjk: template.cjk)
    }
}
