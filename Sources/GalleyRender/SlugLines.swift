import CQPDF
import GalleySupport

/// The slug lines' content, made apart from the post-pass's PDF objects (on a thread of its
/// own while libqpdf reads Cairo's PDF): each page's operators placing its line's glyphs, and
/// the glyphs they place.
struct SlugContents {
    struct Line {
        var operators: [UInt8]
        /// `operators` as a zlib stream; nil if zlib failed.
        var deflated: [UInt8]?
    }

    /// Each page's line; nil for a page whose sheet has none.
    let lines: [Line?]
    /// Every glyph the lines place, in order.
    let glyphs: [UInt]
    let outlines: SlugOutlines

    /// The lines `slugs` (a page's each) on `sheets`, set in `outlines`' face.
    init(slugs: [String], sheets: [PressSheet], outlines: SlugOutlines) {
        let deflater = Deflater()
        var used: Set<UInt> = []
        lines = sheets.indices.map { i in
            guard i < slugs.count, let line = Self.operators(slugs[i], sheet: sheets[i], outlines: outlines) else { return nil }
            used.formUnion(line.glyphs)
            return Line(operators: line.bytes, deflated: deflater.deflate(line.bytes))
        }
        glyphs = used.sorted()
        self.outlines = outlines
    }

    /// `text` as `sheet`'s slug line: each glyph's form placed on the baseline where previews
    /// draw it (PDF's y up), the line clipped to its box as there. Nil when the sheet has no
    /// slug line.
    private static func operators(_ text: String, sheet: PressSheet, outlines: SlugOutlines) -> (bytes: [UInt8], glyphs: [UInt])? {
        guard let box = sheet.slugLineBox, box.width > 0, !text.isEmpty else { return nil }
        let placed = outlines.glyphs(text, width: box.width)
        guard !placed.isEmpty else { return nil }
        let n = PDFXWriter.number
        let origin = PressSheet.slugBaseline(in: box)
        var ops = ContentBytes()
        ops.text("q \(n(box.x)) \(n(sheet.height - box.maxY)) \(n(box.width)) \(n(box.height)) re W n\n")
        let baseline = " \(n(sheet.height - origin.y)) cm /G"
        for p in placed {
            ops.text("q 1 0 0 1 ")
            ops.number(origin.x + p.x)
            ops.text(baseline)
            ops.integer(Int(p.glyph))
            ops.text(" Do Q\n")
        }
        ops.text("Q\n")
        return (ops.bytes, placed.map(\.glyph))
    }
}

/// The slug lines as PDF objects. Each page's line is a form of its own, placing the line's
/// glyphs; each glyph is a form too, in one dictionary that every line's form takes as its
/// resources. A page then gains one resource and one shared call, however long its line.
struct SlugLines {
    let writer: PDFXWriter
    let contents: SlugContents
    /// The resources of every line's form: `/G<glyph>` → the glyph's form, as its XObjects.
    private let lineResources: qpdf_oh
    /// The content that draws a page's line (`/GalleySlug`, in the registration colour).
    private let call: qpdf_oh

    init(writer: PDFXWriter, contents: SlugContents) {
        self.writer = writer
        self.contents = contents
        let q = writer.q
        let forms = galley_qpdf_oh_new_dictionary(q)
        for glyph in contents.glyphs {
            // The outline, in a box wide enough for any glyph at 6 pt.
            let form = writer.stream(
                Array((contents.outlines.outlines[glyph] ?? "").utf8),
                [
                    ("/Type", writer.name("/XObject")), ("/Subtype", writer.name("/Form")), ("/BBox", writer.box([-6, -6, 12, 12])),
                    ("/Resources", galley_qpdf_oh_new_dictionary(q)),
                ], deflated: true)
            galley_qpdf_oh_replace_key(q, forms, "/G\(glyph)", form)
        }
        lineResources = galley_qpdf_make_indirect_object(q, writer.dictionary([("/XObject", forms)]))
        call = writer.stream(Array("q /GalleyRegistration cs 1 scn /GalleySlug Do Q\n".utf8), [])
    }

    /// The content stream that draws page `index`'s slug line on `page`, whose resources gain
    /// the line's form (its box `box`, the sheet's); nil when the page has no slug line.
    func add(page index: Int, on page: qpdf_oh, box: qpdf_oh) -> qpdf_oh? {
        guard index < contents.lines.count, let line = contents.lines[index],
            let named = writer.resources(of: page, "/XObject", create: true)
        else { return nil }
        let form = writer.stream(
            line.operators, deflated: line.deflated,
            [
                ("/Type", writer.name("/XObject")), ("/Subtype", writer.name("/Form")),
                ("/BBox", box), ("/Resources", lineResources),
            ])
        galley_qpdf_oh_replace_key(writer.q, named, "/GalleySlug", form)
        return call
    }
}
