import GalleyStory
import GalleyTemplate
import GalleySupport

/// The font work a build can do before its story exists, done on a second thread while the
/// markup is read and the story built (the other core is idle then): make the engine that will
/// probe the story's faces and draw, resolve the template's faces (body, headings, caption,
/// footer, header, fallbacks), and load and measure the body face as spans most often ask for it:
/// regular, bold, italic, bold italic. `Framesetter` takes the engine, whose font map then holds
/// those fonts, so the font plan's probes of them are cache hits; faces and fonts the template
/// does not name are resolved then. It shortens the serial start of documents whose reading
/// takes longer than the warm-up (many spans); shorter ones wait for it as they would have.
public final class FontWarmup: @unchecked Sendable {
    package typealias Result = (engine: TextEngine, faces: [String: (FontPlan.Face, String?)])

    private let state = Condition()
    private var result: Result?
    private var running = true

    /// Starts warming up for `template`; without a thread, `take()` returns nil at once.
    public init(template: Template) {
        let started = startThread { [self] in
            let warmed = Self.warm(template)
            state.lock()
            result = warmed
            running = false
            state.broadcast()
            state.unlock()
        }
        if !started {
            state.lock()
            running = false
            state.unlock()
        }
    }

    /// Waits for the warm-up and hands over its engine and faces (once; nil without a thread).
    package func take() -> Result? {
        state.lock()
        defer { state.unlock() }
        while running { state.wait() }
        defer { result = nil }
        return result
    }

    private static func warm(_ t: Template) -> Result {
        let engine = EnginePool.borrow(plan: .empty)
        let probe = FontProbe(engine: engine)
        var faces: [String: (FontPlan.Face, String?)] = [:]
        guard probe.hasFonts else { return (engine, faces) }
        let names = [t.body.face] + (1...3).map { t.headings[$0].face } + [t.caption.face, t.footer.face, t.header.face] + t.fallbackFaces
        for name in names where faces[name] == nil { faces[name] = probe.resolve(name) }
        // The body face's fonts, described as the font plan measures a style's primary face.
        guard let (face, _) = faces[t.body.face] else { return (engine, faces) }
        for (weight, italic) in [(face.weight, face.italic), (700, face.italic), (face.weight, true), (700, true)] {
            var variant = face
            variant.weight = weight
            variant.italic = italic
            _ = probe.metrics(variant.makeDescription(size: t.body.size))
        }
        return (engine, faces)
    }
}
