import Synchronization

/// Engines a process has made and is not using, lent out again. An engine's font map holds every
/// font it loaded, its fontsets sorted by fontconfig and their HarfBuzz faces: making them again
/// for each story costs more than setting a short one. An issue's twenty articles, the blocks of a
/// story, a build's shaping threads and a fuzzer's million documents each take an engine that
/// already knows the faces, and memory holds one font map per thread at work, not one per story.
package enum EnginePool {
    /// More engines than threads ever at work at once are not kept.
    private static let limit = 8
    private static let idle = Mutex<[Idle]>([])
    /// Raised when fonts are added to fontconfig: an engine of an earlier generation lists the
    /// fonts of then, and is let go instead of lent again.
    private static let generation = Atomic<Int>(0)

    /// An engine no thread uses: safe to hand to the next one (the mutex orders the two).
    private struct Idle: @unchecked Sendable { let engine: TextEngine }

    /// An engine for `plan`, used by one thread at a time until it is given back.
    package static func borrow(plan: FontPlan) -> TextEngine {
        guard let engine = idle.withLock({ $0.popLast() })?.engine else {
            let made = TextEngine(plan: plan)
            made.generation = generation.load(ordering: .relaxed)
            return made
        }
        engine.adopt(plan)
        return engine
    }

    /// How many times fonts have been added to fontconfig in this process.
    static var fontGeneration: Int { generation.load(ordering: .relaxed) }

    /// Forgets the idle engines and, as they come back, those lent out: fonts were added.
    package static func fontsChanged() {
        generation.add(1, ordering: .relaxed)
        idle.withLock { $0.removeAll() }
    }

    /// An engine keeps every font it loads, and Pango, HarfBuzz and Cairo keep more for each:
    /// one that has loaded this many is let go rather than grow without end in a process that
    /// sets stories of every kind (a fuzzer's, an editor's).
    private static let fontLimit = 96

    /// Takes back an engine the caller no longer uses (nor anything holding its fonts).
    package static func giveBack(_ engine: TextEngine) {
        engine.adopt(.empty)
        guard engine.fontCount <= fontLimit, engine.generation == generation.load(ordering: .relaxed) else { return }
        let handed = Idle(engine: engine)
        idle.withLock { if $0.count < limit { $0.append(handed) } }
    }
}

/// The engine of a framesetter and the copies made of it, borrowed when first needed and given
/// back when they are gone, or earlier when the caller is done with them for a while (an issue
/// lays out and draws its articles one after another: one engine serves them all).
final class EngineLease {
    private var held: TextEngine?

    init(_ engine: TextEngine) { held = engine }

    deinit { giveBack() }

    /// The engine, borrowed again for `plan` if it was given back (the plan is read only then:
    /// the renderer asks for the engine at every run it draws).
    func engine(for plan: @autoclosure () -> FontPlan) -> TextEngine {
        if let held { return held }
        let engine = EnginePool.borrow(plan: plan())
        held = engine
        return engine
    }

    func giveBack() {
        guard let engine = held else { return }
        held = nil
        EnginePool.giveBack(engine)
    }
}

/// fontconfig's best matches (`FontProbe.matchedFamily`), kept while the fonts stay as they
/// are: fonts added to fontconfig (`EnginePool.fontsChanged`) start the table again.
final class FontMatches: Sendable {
    private let table = Mutex<(generation: Int, answers: [FontProbe.MatchKey: (String, Bool)])>((0, [:]))

    /// The answer kept for `key`, else `ask()`'s, kept.
    func answer(_ key: FontProbe.MatchKey, _ ask: () -> (String, Bool)) -> (String, Bool) {
        let generation = EnginePool.fontGeneration
        if let known = table.withLock({ $0.generation == generation ? $0.answers[key] : nil }) { return known }
        let found = ask()
        table.withLock { kept in
            // An answer found under fonts since changed is not kept.
            if kept.generation < generation { kept = (generation, [:]) }
            if kept.generation == generation { kept.answers[key] = found }
        }
        return found
    }
}
