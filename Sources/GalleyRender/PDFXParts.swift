import CQPDF
import FoundationEssentials
import GalleySupport

// The parts of PDF/X-4 the post-pass adds (see `PDFXWriter`).
extension PDFXWriter {
    /// Each page's boxes, and its marks: a content stream of the sheet's crop and registration
    /// marks and one of its slug line (`slugs`), in the registration colour, after the page's
    /// own content, which is put inside a `q … Q` pair so that whatever graphics state it ends
    /// in does not reach the marks. Pages of one size share their boxes and one marks stream,
    /// and the slug lines' glyphs are forms every page shares.
    func addBoxesAndMarks(_ sheets: [PressSheet], slugs: Background<SlugContents>) throws(RenderError) {
        let count = Int(galley_qpdf_get_num_pages(q))
        guard count == sheets.count else {
            throw RenderError(.error("the PDF/X post-pass found \(count) pages where \(sheets.count) were drawn"))
        }
        let registration = galley_qpdf_make_indirect_object(
            q,
            galley_qpdf_oh_parse(q, "[/Separation /All /DeviceCMYK << /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [1 1 1 1] /N 1 >>]"))
        let open = stream(Array("q\n".utf8), []), close = stream(Array("Q\n".utf8), [])
        var shared: SheetObjects?
        let slugLines = SlugLines(writer: self, contents: slugs.value)
        for (i, sheet) in sheets.enumerated() {
            let page = galley_qpdf_get_page_n(q, i)
            // Pages of one sheet share its boxes (direct arrays, written out in each page) and
            // its marks: making them page by page cost 4 ms of en-large's 30 ms post-pass.
            if shared?.sheet != sheet { shared = SheetObjects(sheet, writer: self) }
            let objects = shared!
            for (key, box) in objects.boxes { galley_qpdf_oh_replace_key(q, page, key, box) }
            var marks: [qpdf_oh] = []
            if let sheetMarks = objects.marks { marks.append(sheetMarks) }
            if let slug = slugLines.add(page: i, on: page, box: objects.sheetBox) { marks.append(slug) }
            guard !marks.isEmpty else { continue }
            colorSpaces(of: page, create: true).map { galley_qpdf_oh_replace_key(q, $0, "/GalleyRegistration", registration) }
            let contents = galley_qpdf_oh_get_key(q, page, "/Contents")
            let all = array([open])
            if galley_qpdf_oh_is_array(q, contents) != 0 {
                for k in 0..<galley_qpdf_oh_get_array_n_items(q, contents) {
                    galley_qpdf_oh_append_item(q, all, galley_qpdf_oh_get_array_item(q, contents, k))
                }
            } else {
                galley_qpdf_oh_append_item(q, all, contents)
            }
            for item in [close] + marks { galley_qpdf_oh_append_item(q, all, item) }
            galley_qpdf_oh_replace_key(q, page, "/Contents", all)
        }
    }

    /// What every page of one sheet shares: its boxes, the whole sheet as a form's box, and its
    /// marks' stream (nil without marks).
    struct SheetObjects {
        let sheet: PressSheet
        let boxes: [(String, qpdf_oh)]
        let sheetBox: qpdf_oh
        let marks: qpdf_oh?

        init(_ sheet: PressSheet, writer w: PDFXWriter) {
            self.sheet = sheet
            boxes = [
                ("/MediaBox", w.box(sheet.pdfBox(sheet.media))), ("/BleedBox", w.box(sheet.pdfBox(sheet.bleed))),
                ("/TrimBox", w.box(sheet.pdfBox(sheet.trim))),
            ]
            sheetBox = w.box([0, 0, sheet.width, sheet.height])
            let hasMarks = !sheet.cropMarks.isEmpty || !sheet.registrationMarks.isEmpty
            marks = hasMarks ? w.stream(Array(PDFXWriter.marksContent(sheet).utf8), []) : nil
        }
    }

    /// The marks as PDF operators, in PDF's space (y up): lines, and each target's circle as
    /// four Bézier quarters.
    static func marksContent(_ sheet: PressSheet) -> String {
        let n = number
        func point(_ x: Double, _ y: Double) -> String { "\(n(x)) \(n(sheet.height - y))" }
        var s = "q /GalleyRegistration CS 1 SCN \(n(PressSheet.markWeight)) w 0 J\n"
        let targets = sheet.registrationMarks
        for seg in sheet.cropMarks + targets.flatMap(\.cross) {
            s += "\(point(seg.from.x, seg.from.y)) m \(point(seg.to.x, seg.to.y)) l S\n"
        }
        let k = 0.5523
        for t in targets {
            let (x, y, r) = (t.x, t.y, t.radius)
            s += "\(point(x + r, y)) m "
            s += "\(point(x + r, y - k * r)) \(point(x + k * r, y - r)) \(point(x, y - r)) c "
            s += "\(point(x - k * r, y - r)) \(point(x - r, y - k * r)) \(point(x - r, y)) c "
            s += "\(point(x - r, y + k * r)) \(point(x - k * r, y + r)) \(point(x, y + r)) c "
            s += "\(point(x + k * r, y + r)) \(point(x + r, y + k * r)) \(point(x + r, y)) c S\n"
        }
        return s + "Q\n"
    }

    /// The `/ColorSpace` dictionary of `holder`'s resources (a page, a form, a pattern), made
    /// when `create` and missing; nil when the holder has no resources and none are made.
    func colorSpaces(of holder: qpdf_oh, create: Bool) -> qpdf_oh? {
        resources(of: holder, "/ColorSpace", create: create)
    }

    /// The dictionary `key` (`/ColorSpace`, `/XObject`) of `holder`'s resources, made when it
    /// is missing; nil when the holder has no resources and `create` is false.
    func resources(of holder: qpdf_oh, _ key: String, create: Bool) -> qpdf_oh? {
        var resources = galley_qpdf_oh_get_key(q, holder, "/Resources")
        if galley_qpdf_oh_is_dictionary(q, resources) == 0 {
            guard create else { return nil }
            resources = galley_qpdf_oh_new_dictionary(q)
            galley_qpdf_oh_replace_key(q, holder, "/Resources", resources)
        }
        var named = galley_qpdf_oh_get_key(q, resources, key)
        if galley_qpdf_oh_is_dictionary(q, named) == 0 {
            named = galley_qpdf_oh_new_dictionary(q)
            galley_qpdf_oh_replace_key(q, resources, key, named)
        }
        return named
    }

    /// Declares Cairo's device RGB to be sRGB, as PDF/X-4 asks of device colour that differs from
    /// the output intent's: `/DefaultRGB` in the resources of every page, form and pattern (the
    /// `rg` and `RG` colours of their content), and the ICC space in place of `/DeviceRGB` on
    /// images, shadings and transparency groups; and takes the transfer functions PDF/X forbids
    /// out of graphics states. Walks the draft's objects once, by number.
    func declareRGB() {
        let profile = stream(
            press.sRGB.bytes, deflated: prepared.sRGB, [("/N", galley_qpdf_oh_new_integer(q, 3)), ("/Alternate", name("/DeviceRGB"))])
        let icc = galley_qpdf_make_indirect_object(q, array([name("/ICCBased"), profile]))
        let size = Int32(galley_qpdf_oh_get_int_value_as_int(q, galley_qpdf_oh_get_key(q, galley_qpdf_get_trailer(q), "/Size")))
        // Each call into libqpdf's C API costs about a microsecond and keeps a handle until it
        // is released: most of Cairo's objects (content streams, their lengths, fonts) are
        // passed over on their type and the keys they lack.
        for id in 1..<max(1, size) {
            let object = galley_qpdf_get_object_by_id(q, id, 0)
            switch galley_qpdf_oh_get_type_code(q, object) {
            case ot_dictionary: declareRGB(in: object, icc: icc)
            case ot_stream:
                let dict = galley_qpdf_oh_get_dict(q, object)
                declareRGB(in: dict, icc: icc)
                galley_qpdf_oh_release(q, dict)
            default: break
            }
            galley_qpdf_oh_release(q, object)
        }
    }

    /// One dictionary and the direct dictionaries it holds where colour spaces are named.
    private func declareRGB(in dict: qpdf_oh, icc: qpdf_oh) {
        // Ghostscript's pdfwrite (`--cmyk`) gives its graphics states `/TR /Identity`: PDF/X-4
        // (ISO 15930-7, as X-1a and X-3 before it) allows no `TR`, and `TR2` only as `/Default`,
        // which identity is.
        if has(dict, "/TR") { galley_qpdf_oh_remove_key(q, dict, "/TR") }
        if has(dict, "/TR2") && !isName(galley_qpdf_oh_get_key(q, dict, "/TR2"), "/Default") {
            galley_qpdf_oh_replace_key(q, dict, "/TR2", name("/Default"))
        }
        for key in ["/ColorSpace", "/CS"] where has(dict, key) && isName(galley_qpdf_oh_get_key(q, dict, key), "/DeviceRGB") {
            // `/CS` names a colour space only in a transparency group's dictionary: the space
            // its objects are blended in. In a CMYK file (`--cmyk`) that is CMYK: blended in RGB,
            // a page with any transparency would turn its black-only text into four inks.
            if key == "/CS" && !isName(galley_qpdf_oh_get_key(q, dict, "/S"), "/Transparency") { continue }
            galley_qpdf_oh_replace_key(q, dict, key, key == "/CS" && press.cmyk != nil ? name("/DeviceCMYK") : icc)
        }
        if has(dict, "/Resources"), galley_qpdf_oh_is_dictionary(q, galley_qpdf_oh_get_key(q, dict, "/Resources")) != 0,
            !isName(galley_qpdf_oh_get_key(q, dict, "/Type"), "/Font")
        {
            colorSpaces(of: dict, create: false).map { galley_qpdf_oh_replace_key(q, $0, "/DefaultRGB", icc) }
        }
        for key in ["/Group", "/Shading"] where has(dict, key) {
            let inner = galley_qpdf_oh_get_key(q, dict, key)
            if galley_qpdf_oh_is_dictionary(q, inner) != 0, galley_qpdf_oh_is_indirect(q, inner) == 0 { declareRGB(in: inner, icc: icc) }
        }
    }

    private func has(_ dict: qpdf_oh, _ key: String) -> Bool { galley_qpdf_oh_has_key(q, dict, key) != 0 }
}
