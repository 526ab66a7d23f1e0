import CPango
import Foundation
import GalleyRender
import TestSupport
import Testing

@testable import GalleyLayout

// Cairo 1.16 keeps ten FreeType faces open and closes one to open another without that font's
// lock (FaceLock.swift). Documents of many faces laid out, measured and drawn on several threads
// at once made it close a face another thread was reading, and the process crashed inside
// FreeType. With every face-using call under the lock, each document built beside the others is
// byte for byte the document built by itself.

/// Sixteen families in two styles each: thirty-two font files, three times the faces Cairo
/// keeps open, so that drawing any page opens and closes faces.
private let families = [
    "DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "Liberation Sans", "Liberation Serif", "Liberation Mono",
    "Nimbus Roman", "Nimbus Sans", "Nimbus Mono PS", "C059", "P052", "URW Bookman", "URW Gothic", "Carlito",
    "Caladea", "Comic Neue",
]

/// Document `n`: the families in a rotated order, a drop cap and a figure caption (measured with
/// Cairo while laying out), each family in roman and bold italic, a glyph none of them has, and
/// an SVG with text.
private func manyFaces(_ n: Int) -> String {
    let cut = n % families.count
    let order = families[cut...] + families[..<cut]
    var text = "<p dropcap=\"2\">Galley sets every face it is given, one after another, in a column.</p>\n"
    for family in order {
        // U+E000, a private-use character no face has: Pango measures its box with Cairo.
        text += "<font face=\"\(family)\">\(family) sets this line \u{E000}, <b><i>and this in bold italic</i></b>.</font>\n"
    }
    // An SVG with text, which librsvg sets with Pango and Cairo of its own.
    return text + "<img src=\"images/harbour.jpg\" width=\"120\" height=\"80\" caption=\"A caption in the caption face\">\n"
        + "<img src=\"images/compass.svg\" width=\"60\" height=\"60\">\n"
}

@Suite struct FaceLockTests {
    @Test func threadsDrawingManyFacesAtOnceDrawAsOneThreadDoes() throws {
        let documents = 4
        let alone = try (0..<documents).map { try pdfBytes(manyFaces($0)) }
        let results = Results(count: documents * 8)
        DispatchQueue.concurrentPerform(iterations: results.count) { i in
            results.set(i, try? pdfBytes(manyFaces(i % documents)))
        }
        for i in 0..<results.count {
            #expect(results.get(i) == alone[i % documents], "document \(i % documents) on thread run \(i)")
        }
    }
}

/// A document's PDF, laid out on two threads (the shaping pipeline's) and drawn on a third.
private func pdfBytes(_ markup: String) throws -> [UInt8] {
    let dir = TemporaryDirectory("facelock")
    let fs = framesetter(markup, threads: 2)
    try Export.pdf(fs, to: dir.file("f.pdf"), metadata: PDFMetadata(title: "f", creator: "test", date: Date(timeIntervalSince1970: 0)))
    return Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("f.pdf"))))
}

/// Outputs written by concurrent iterations, each to its own slot.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[UInt8]?]
    var count: Int { slots.count }

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ value: [UInt8]?) {
        lock.lock()
        slots[i] = value
        lock.unlock()
    }

    func get(_ i: Int) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return slots[i]
    }
}

// Which items have Pango measure a missing glyph's box through Cairo (`mayLackGlyphs`), so that
// their font is prepared under the lock first: control characters and characters the font's
// cmap lacks; never text the font covers, which HarfBuzz shapes alone.
@Suite struct MissingGlyphForecastTests {
    @Test func itemsThatMayLackGlyphsAreTheOnesNamed() {
        TestFonts.pin()
        let engine = EnginePool.borrow(plan: .empty)
        defer { EnginePool.giveBack(engine) }
        let d = pango_font_description_from_string("DejaVu Serif 10")!
        defer { pango_font_description_free(d) }
        let font = pango_font_map_load_font(engine.fontMap, engine.context, d)!
        defer { g_object_unref(font) }
        func lacks(_ s: String) -> Bool { Array(s.utf8).withUnsafeBufferPointer { TextEngine.mayLackGlyphs(font, $0) } }
        #expect(!lacks("Plain text, with (punctuation) and digits 0-9."))
        #expect(!lacks("Café, naïve, “quoted” — and Ελληνικά"))
        #expect(lacks("a line\u{2028}separator"))
        #expect(lacks("a tab\there"))
        #expect(lacks("private \u{E000} use"))
        #expect(lacks("汉字"))
        #expect(!lacks(""))
    }
}
