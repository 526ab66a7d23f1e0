import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// Punctuation compression in vertical text: a column's marks take what a line's take, the
/// blank measured from the vertical forms (`vhal`), at 10 pt (an em is 10 pt).
@Suite struct VerticalCompressionTests {
    func shaped(_ text: String, vertical: Bool, language: String = "zh-Hans") -> ShapedText {
        var template = Template.default
        template.language = language
        let markup = vertical ? #"<vertical height="400"><p>"# + text + "</p></vertical>" : text
        let lines = pages(of: framesetter(markup, template: template))[0].frames[0].lines
        return lines.first { $0.vertical == vertical }!.paragraph.text
    }

    func width(_ t: ShapedText, of piece: String) -> Double {
        let r = t.bytes.firstRange(of: Array(piece.utf8))!
        return t.x[r.upperBound] - t.x[r.lowerBound]
    }

    // 说，「闭上眼睛」 is 7.5 ems down a column as across a line: ，「 share half an em.
    @Test func columnAdvanceIsTheLineWidth() {
        let down = shaped("说，「闭上眼睛」", vertical: true)
        let across = shaped("说，「闭上眼睛」", vertical: false)
        #expect(abs(width(down, of: "说，「闭上眼睛」") - 75) < 0.01, "\(width(down, of: "说，「闭上眼睛」"))")
        #expect(abs(width(down, of: "说，「闭上眼睛」") - width(across, of: "说，「闭上眼睛」")) < 0.01)
        #expect(abs(width(down, of: "，「") - 15) < 0.01)
    }

    // Two closing marks and two opening marks keep no blank between them.
    @Test func closingAndOpeningPairs() {
        let t = shaped("好。」他说「『对』」。", vertical: true)
        #expect(abs(width(t, of: "。」") - 15) < 0.01, "\(width(t, of: "。」"))")
        #expect(abs(width(t, of: "「『") - 15) < 0.01, "\(width(t, of: "「『"))")
        #expect(abs(width(t, of: "』」。") - 20) < 0.01, "\(width(t, of: "』」。"))")
    }

    // Repeated marks down a column keep their blank below the ink, as across a line: ，， and
    // 。。 are two ems each (the first lost its half).
    @Test func repeatedMarks() {
        let t = shaped("甲，，乙。。丙、、丁", vertical: true)
        #expect(abs(width(t, of: "，，") - 20) < 0.01, "\(width(t, of: "，，"))")
        #expect(abs(width(t, of: "。。") - 20) < 0.01 && abs(width(t, of: "、、") - 20) < 0.01)
        #expect(abs(width(t, of: "甲，，乙。。丙、、丁") - 100) < 0.01)
    }

    // A vertical ： is centred, a quarter em of blank each side, and the font gives it no
    // half-width form: a 「 after it gives its own blank (JLREQ's middle dot and opening
    // bracket), where across a line the colon gives its right half instead.
    @Test func centredColonTakesTheBracketsBlank() {
        let down = shaped("他说：「对」", vertical: true)
        let across = shaped("他说：「对」", vertical: false)
        #expect(abs(width(down, of: "：「") - 15) < 0.01 && abs(width(across, of: "：「") - 15) < 0.01)
        #expect(abs(width(down, of: "：") - 10) < 0.01 && abs(width(across, of: "：") - 5) < 0.01)
    }

    // Traditional marks are centred in their vertical em too: a quarter of blank above and
    // below, so beside 「 the comma gives its quarter below.
    @Test func traditionalVerticalMarks() {
        let t = shaped("他說，「好。」", vertical: true, language: "zh-Hant")
        let comma = t.bytes.firstRange(of: Array("，".utf8))!.lowerBound
        let b = t.blank(at: comma)
        #expect(abs((b?.left ?? 0) - 2.5) < 0.01 && (b?.right ?? 1) == 0, "\(String(describing: b))")
        #expect(abs(width(t, of: "，「") - 17.5) < 0.01, "\(width(t, of: "，「"))")
    }

    // `full` keeps every vertical mark an em.
    @Test func fullWidthVerticalMarks() {
        var template = Template.default
        template.cjk.punctuation = .full
        let fs = framesetter(#"<vertical height="400"><p>说，「闭」。」</p></vertical>"#, template: template)
        let t = pages(of: fs)[0].frames[0].lines.first(where: \.vertical)!.paragraph.text
        #expect(abs(t.x[t.length] - 70) < 0.01, "\(t.x[t.length])")
    }
}
