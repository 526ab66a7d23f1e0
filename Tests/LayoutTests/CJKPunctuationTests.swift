import TestSupport
import Testing

@testable import GalleyLayout

/// …, —, “ ” ‘ ’ beside CJK text come from the CJK face: full-width quotes, a centred
/// ellipsis, dashes that join. Beside Latin text they stay in the Latin face.
@Suite struct CJKPunctuationTests {
    func shaped(_ text: String) -> ShapedText {
        pages(of: framesetter(text))[0].frames[0].lines[0].paragraph.text
    }

    /// The family of the run setting the character at paragraph byte `b`.
    func family(at b: Int, in t: ShapedText) -> String {
        let run = t.run(containing: b)!
        return FontRegistry.shared.description(of: run.font)
    }

    @Test func quotesBetweenIdeographsAreFullWidth() {
        // 20 characters, each an em of 10 pt, less the half em that each of ”， and ’。 gives
        // up (punctuation compression): full-width quotes compress like any CJK mark.
        let t = shaped("他说“这是中文弯引号”，还有‘单引号’。")
        #expect(abs(t.x[t.length] - 190) < 0.01, "\(t.x[t.length])")
        for quote in ["“", "”", "‘", "’"] {
            let b = t.bytes.firstRange(of: Array(quote.utf8))!.lowerBound
            #expect(family(at: b, in: t).hasPrefix("Noto Serif CJK"), "\(quote)")
        }
    }

    @Test func ellipsisAndDashJoinInTheCJKFace() {
        let t = shaped("省略号……和破折号——在中文里。")
        for mark in ["……", "——"] {
            let r = t.bytes.firstRange(of: Array(mark.utf8))!
            #expect(family(at: r.lowerBound, in: t).hasPrefix("Noto Serif CJK"), "\(mark)")
            // Two full-width marks, two ems: they meet with no gap.
            #expect(
                abs(t.x[r.upperBound] - t.x[r.lowerBound] - 20) < 0.01,
                "\(mark): \(t.x[r.upperBound] - t.x[r.lowerBound]) \(t.x[r.lowerBound])")
        }
    }

    @Test func latinContextKeepsTheLatinFace() {
        let t = shaped("English “quotes” and it’s… fine — here.")
        for mark in ["“", "’", "…", "—"] {
            let b = t.bytes.firstRange(of: Array(mark.utf8))!.lowerBound
            #expect(family(at: b, in: t).hasPrefix("DejaVu Serif"), "\(mark)")
        }
    }

    // An English sentence quoted in Chinese: the closing mark, between a full stop and a
    // space, goes with its opening one, after a Chinese colon.
    @Test func quoteMarksGoInPairs() {
        let t = shaped("他说过：“Every letter has to earn its place.” 这句话。")
        for quote in ["“", "”"] {
            let b = t.bytes.firstRange(of: Array(quote.utf8))!.lowerBound
            #expect(family(at: b, in: t).hasPrefix("Noto Serif CJK"), "\(quote)")
        }
        // An apostrophe is no closing quote: it’s stays Latin, even after a Chinese ‘.
        let u = shaped("‘中文’ and it’s")
        let apostrophe = u.bytes.lastRange(of: Array("’".utf8))!.lowerBound
        #expect(family(at: apostrophe, in: u).hasPrefix("DejaVu Serif"))
    }

    @Test func aCJKFaceKeepsItsOwnPunctuation() {
        let t = shaped("<font face=\"Noto Sans CJK SC\">他说“这是”……</font>")
        let b = t.bytes.firstRange(of: Array("“".utf8))!.lowerBound
        #expect(family(at: b, in: t).hasPrefix("Noto Sans CJK SC"))
    }
}

/// A sans sets its Chinese in a CJK sans, a serif in a CJK serif.
@Suite struct CJKSansFallbackTests {
    @Test func sansHeadingTakesNotoSansCJK() {
        let fs = framesetter("<h2>二、转起来的字盘</h2>\n正文用宋体。")
        let lines = pages(of: fs)[0].frames.flatMap(\.lines)
        func families(_ line: PlacedLine) -> [String] {
            line.paragraph.text.runs.map { FontRegistry.shared.description(of: $0.font) }
        }
        #expect(families(lines[0]).contains { $0.hasPrefix("Noto Sans CJK SC") })
        #expect(!families(lines[0]).contains { $0.hasPrefix("Noto Serif CJK") })
        #expect(families(lines[1]).contains { $0.hasPrefix("Noto Serif CJK SC") })
    }
}
