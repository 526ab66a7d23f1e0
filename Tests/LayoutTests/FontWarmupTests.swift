import GalleyLayout
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@Suite struct FontWarmupTests {
    // Font work begun before the story exists (the engine, the template's faces, the body face's
    // fonts) changes nothing: the same faces, substitutions and warnings, metrics and pages as a
    // framesetter that does it all itself, for a story that asks for faces the template does not
    // name (one of them not installed) and for the variants the warm-up loads ahead.
    @Test func warmedPlanIsThePlan() throws {
        TestFonts.pin()
        let markup = """
            Plain <b>bold</b> <i>italic</i> <b><i>both</i></b> <font face="DejaVu Sans Mono">mono</font>
            <font face="Palatino" size="14">a face that is not installed</font>
            <h1>A heading</h1>
            中文 and emoji 😀
            """
        let template = Template.default
        let built = buildStory(markup, template: template)
        let plain = Framesetter(story: built.story, template: template, file: "t.txt")
        let warmed = Framesetter(story: built.story, template: template, file: "t.txt", warmup: FontWarmup(template: template))
        func faces(_ f: Framesetter) -> String {
            f.plan.faces.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }.joined(separator: "\n")
        }
        #expect(faces(warmed) == faces(plain))
        #expect(warmed.plan.metrics.map { "\($0)" } == plain.plan.metrics.map { "\($0)" })
        #expect(warmed.diagnostics.all.map(\.message) == plain.diagnostics.all.map(\.message))
        #expect(plain.diagnostics.all.contains { $0.message.contains("Palatino") })
        let dumps = [plain, warmed].map { f in pages(of: f).map { PageDump.dump($0, story: built.story) }.joined() }
        #expect(dumps[0] == dumps[1])
        #expect(!dumps[0].isEmpty)
    }
}
