import CCairo
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyRender

@Suite struct ShadowPreparationTests {
    // Shadow masks made ahead on a shaping thread, with its own engine, are the masks the
    // drawing thread makes: same size, place and pixels, for blurs of several sizes, outlined,
    // hollow, slanted and expanded runs, and none for an unblurred shadow (drawn as a path).
    @Test func preparedMasksAreTheMasksMadeWhenDrawn() {
        let markup = (0..<6).map { i in
            "Line \(i) with <span shadow=\"0.5 0.5 1 gray\">a soft shadow</span>, "
                + "<span shadow=\"1 1 \(i + 2) #333\" strokeColor=\"blue\">a wide one on outlined text</span>, "
                + "<span shadow=\"1 1 2 gray\" strokeColor=\"red\" strokeWidth=\"2\">hollow letters</span>, "
                + "<span shadow=\"1 1 1.5 gray\" obliqueness=\"0.2\" expansion=\"0.3\">slanted and wide</span> "
                + "and <span shadow=\"1 1 0 orange\">a hard one</span>."
        }.joined(separator: "\n")
        let fs = framesetter(markup, threads: 1)
        let story = fs.story
        // The shaping thread's engine: a font map of its own.
        let other = TextEngine(plan: fs.plan)
        var compared = 0
        var unblurred = 0
        for page in pages(of: fs) {
            for frame in page.frames {
                for line in frame.lines where line.lineIndex == 0 {
                    let prepared = line.paragraph.preparingDrawing()
                    PageRenderer.prepareShadows(prepared, engine: other, story: story)
                    for l in 0..<prepared.preparedLines {
                        for (k, run) in prepared.drawRuns(line: l).enumerated() {
                            // As the renderer places it: scaled by the line's expansion.
                            let style = story.styles[run.style].expanded(by: run.expansion)
                            guard let shadow = style.shadow else { continue }
                            let ahead = prepared.preparedForDrawing?[l, k] as? ShadowMask
                            if shadow.blur == 0 {
                                #expect(ahead == nil)
                                unblurred += 1
                                continue
                            }
                            let font = fs.engine.font(run.font)
                            let now = PageRenderer.withGlyphString(run, style: style, storyStart: prepared.storyStart) { gs in
                                PageRenderer.shadowMask(shadow, style: style, glyphs: &gs, font: font, isPDF: true, deviceScale: 1)
                            }
                            guard let ahead, let now else {
                                Issue.record("a mask missing for line \(l) run \(k)")
                                continue
                            }
                            #expect(geometry(ahead) == geometry(now))
                            #expect(pixels(ahead) == pixels(now))
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared >= 20)
        #expect(unblurred >= 5)
    }

    private func geometry(_ m: ShadowMask) -> [Double] {
        [Double(m.width), Double(m.height), m.x0, m.y0, m.pixelsPerPoint]
    }

    private func pixels(_ m: ShadowMask) -> [UInt8] {
        cairo_surface_flush(m.surface)
        let stride = Int(cairo_image_surface_get_stride(m.surface))
        guard let data = cairo_image_surface_get_data(m.surface) else { return [] }
        var out: [UInt8] = []
        for y in 0..<Int(m.height) {
            out += UnsafeBufferPointer(start: data + y * stride, count: Int(m.width))
        }
        return out
    }
}
