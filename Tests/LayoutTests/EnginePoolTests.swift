import CPango
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

// Engines go back to the pool and come out again serving the new plan; one that has loaded too
// many fonts is let go. (The pool is process-wide: engines other tests hold are not counted on.)
@Suite(.serialized) struct EnginePoolTests {
    @Test func borrowedEngineServesTheNewPlan() {
        let fs = framesetter("<font face=\"DejaVu Serif\">Serif.</font> Plain text, then <b>bold</b>.")
        let engine = EnginePool.borrow(plan: fs.plan)
        #expect(engine.plan.styles.count == fs.story.styles.count)
        let first = engine.description(style: 0)
        #expect(descriptionText(first).contains("DejaVu Serif"))
        EnginePool.giveBack(engine)
        #expect(engine.plan.styles.isEmpty)
        #expect(engine.plan.language == FontPlan.empty.language)
    }

    @Test func engineWithTooManyFontsIsNotKept() {
        let engine = EnginePool.borrow(plan: .empty)
        for size in 1...100 {
            let d = pango_font_description_from_string("DejaVu Sans \(size)")!
            _ = engine.key(of: pango_font_map_load_font(engine.fontMap, engine.context, d)!)
            pango_font_description_free(d)
        }
        #expect(engine.fontCount > 96)
        EnginePool.giveBack(engine)
        var seen: [TextEngine] = []
        for _ in 0..<8 { seen.append(EnginePool.borrow(plan: .empty)) }
        #expect(!seen.contains { $0 === engine })
        for e in seen { EnginePool.giveBack(e) }
    }

    // A framesetter's engine goes back when it is given up, and comes again when it is used.
    @Test func leaseGivesBackAndBorrowsAgain() {
        let fs = framesetter("Some text.")
        let engine = fs.engine
        fs.relinquishEngine()
        #expect(engine.plan.styles.isEmpty)
        #expect(fs.engine.plan.styles.count == fs.story.styles.count)
    }

    // fontconfig's matches are asked once and kept, until fonts are added to fontconfig.
    @Test func fontMatchesAreKeptUntilFontsChange() {
        let matches = FontMatches()
        let key = FontProbe.MatchKey(family: "Nowhere Sans", weight: 400, italic: false, stretch: 4, language: "en")
        var asked = 0
        func answer() -> String {
            matches.answer(key) {
                asked += 1
                return ("DejaVu Sans", false)
            }.0
        }
        #expect(answer() == "DejaVu Sans" && answer() == "DejaVu Sans")
        #expect(asked == 1)
        EnginePool.fontsChanged()
        #expect(answer() == "DejaVu Sans")
        #expect(asked == 2)
    }

    // What a kept match says is what fontconfig says.
    @Test func keptMatchIsFontconfigs() {
        let engine = EnginePool.borrow(plan: .empty)
        defer { EnginePool.giveBack(engine) }
        let probe = FontProbe(engine: engine)
        let faces = [
            FontPlan.Face(family: "DejaVu Serif", weight: 700, italic: true), FontPlan.Face(family: "Didot", weight: 400, italic: false),
        ]
        for face in faces {
            let first = probe.matchedFamily(face)
            EnginePool.fontsChanged()
            let fresh = probe.matchedFamily(face)
            #expect(first == fresh && probe.matchedFamily(face) == fresh, "\(face.family)")
        }
    }
}
