import CQPDF
import CZlib
import FoundationEssentials
import GalleySupport
import GalleyTemplate

/// What a press build adds to Cairo's PDF, and with which profiles.
public struct PressOutput: Sendable {
    public var print: PrintSpec
    /// The printing condition: `--output-intent`, else Ghostscript's CMYK profile.
    public var intent: ColorProfile
    /// What Cairo's RGB is declared to be.
    public var sRGB: ColorProfile
    /// The name the slug line gives the document (the input's file name).
    public var label: String
    /// The date on the slug line: the build's (reproducible) date.
    public var date: Date
    /// `--cmyk`: the conversion to the output intent's CMYK, before the post-pass.
    public var cmyk: CMYKConversion?

    public init(print: PrintSpec, intent: ColorProfile, sRGB: ColorProfile, label: String, date: Date, cmyk: CMYKConversion? = nil) {
        self.print = print
        self.intent = intent
        self.sRGB = sRGB
        self.label = label
        self.date = date
        self.cmyk = cmyk
    }

    /// The profiles of a press build: `intentPath` (a CMYK profile) or the default, and sRGB.
    public static func profiles(intentPath: String?) -> Result<(intent: ColorProfile, sRGB: ColorProfile), RenderError> {
        let intent = ColorProfile.read(intentPath ?? ColorProfile.defaultOutputIntent, colorSpace: "CMYK")
        let rgb = ColorProfile.read(ColorProfile.sRGB, colorSpace: "RGB ")
        switch (intent, rgb) {
        case (.success(let i), _) where i.deviceClass != "prtr":
            // PDF/X's output intent is a printing condition: a display or link profile is not one.
            let shown = i.deviceClass.trimmed()
            return .failure(RenderError(.error("'\(i.path)' is a '\(shown)' profile, not a printer's ('prtr') profile")))
        case (.success(let i), .success(let s)):
            if let why = NeutralLink.damage(of: i, sRGB: s) {
                return .failure(RenderError(.error("'\(i.path)' is not a usable ICC profile: \(why)")))
            }
            return .success((i, s))
        case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
        }
    }
}

extension PressOutput {
    /// The slug line of a page: the document, the page's folio, the build's date. A left-to-
    /// right line (LRM) whatever the name's script, the name isolated in it (FSI … PDI) so an
    /// Arabic name keeps its `.txt` and stays first.
    func slugLine(folio: String) -> String {
        Self.slugLine(label: label, folio: folio, date: String(Export.iso8601(date).prefix(10)))
    }

    static func slugLine(label: String, folio: String, date: String) -> String {
        "\u{200E}\u{2068}\(label)\u{2069}  \u{B7}  page \(folio)  \u{B7}  \(date)"
    }
}

/// The PDF Cairo writes in a press build, beside the output and removed like its temporary
/// file (on failure and on a signal), before the post-pass writes the output from it.
struct PressDraft {
    let file: TemporaryFile
    /// The post-pass's work begun while the pages are drawn.
    let preparation: PressPreparation

    init(beside out: AtomicFile, press: PressOutput) throws(RenderError) {
        let folder = FilePath.directory(of: out.temporaryPath)
        file = try TemporaryFile(in: folder.isEmpty ? "." : folder, name: FilePath.name(of: out.target) + ".draft")
        preparation = PressPreparation(press)
    }

    /// Runs the post-pass from the draft into `out`'s temporary file (with `--cmyk`, from the
    /// draft converted to CMYK beside it), then removes the draft. `slugs` are the pages' slug
    /// lines, which the post-pass draws.
    func finish(
        into out: AtomicFile, sheets: [PressSheet], slugs: [String], press: PressOutput, metadata: PDFMetadata, target: String
    ) throws(RenderError) {
        defer { file.discard() }
        // Read whole, once: libqpdf reading the file itself seeks before every object, some
        // 14,000 system calls for en-large, a third of the post-pass.
        let draft = try Self.read(file.path, target: target)
        // The XMP's IDs hash Cairo's PDF, beside the conversion and the post-pass; the CMYK
        // file is another rendition of the same document, with an instance of its own.
        let identity = Background { PDFXWriter.documentID(draft, rendition: press.cmyk == nil ? 0 : 1) }
        var source = draft
        var converted: TemporaryFile?
        defer { converted?.discard() }
        if let cmyk = press.cmyk {
            let folder = FilePath.directory(of: out.temporaryPath)
            let cmykFile = try TemporaryFile(in: folder.isEmpty ? "." : folder, name: FilePath.name(of: out.target) + ".cmyk")
            converted = cmykFile
            try cmyk.convert(file.path, to: cmykFile.path, press: press, target: target)
            source = try Self.read(cmykFile.path, target: target)
        }
        let prepared = preparation.value
        // The slug lines' operators are set while libqpdf reads the PDF.
        let outlines = prepared.outlines
        let lines = Background { SlugContents(slugs: slugs, sheets: sheets, outlines: outlines) }
        try PDFXWriter.write(
            draft: source, identity: identity, prepared: prepared, to: out.temporaryPath, sheets: sheets, slugs: lines,
            press: press, metadata: metadata, target: target)
        press.cmyk?.measureInk(of: out.temporaryPath)
    }

    /// A PDF the post-pass reads (Cairo's, or Ghostscript's conversion of it).
    static func read(_ path: String, target: String) throws(RenderError) -> [UInt8] {
        switch RawIO.readFile(path) {
        case .success(let bytes): return bytes
        case .failure(let e): throw RenderError(.error("cannot make '\(target)': the PDF/X post-pass cannot read '\(path)': \(e)"))
        }
    }
}

/// The press post-pass: reads the PDF Cairo wrote and writes it again with libqpdf, adding what
/// PDF/X-4 asks and Cairo cannot write: each page's MediaBox (the sheet), BleedBox and TrimBox;
/// the crop and registration marks in the registration colour (`/Separation /All`, which
/// Cairo has no way to choose); an output intent with its ICC profile; XMP metadata declaring
/// PDF/X-4; `/Trapped /False`; a trailer `/ID`; and sRGB as what the device RGB of Cairo's
/// content means (`/DefaultRGB`, and ICC-based spaces on images and transparency groups).
/// Every other object is copied with its streams as they are (no stream is decoded), so the
/// pass costs a read and a write of the file, not a drawing of the pages.
struct PDFXWriter {
    let q: OpaquePointer
    let press: PressOutput
    let metadata: PDFMetadata
    /// What was made while the pages were drawn.
    let prepared: PressPreparation.Made
    /// The streams the pass compresses (slug lines, glyph forms) share one.
    let deflater = Deflater()

    /// Rewrites `draft` (Cairo's PDF, or Ghostscript's CMYK rendering of it) into `output`;
    /// `sheets` are the pages' sheets in order. The XMP IDs are a hash of `identity` (Cairo's
    /// PDF, the same for the same build where Ghostscript's output is not).
    static func write(
        draft: [UInt8], identity: Background<(document: String, instance: String)>, prepared: PressPreparation.Made,
        to output: String, sheets: [PressSheet], slugs: Background<SlugContents>, press: PressOutput, metadata: PDFMetadata,
        target: String
    ) throws(RenderError) {
        guard galley_qpdf_available() != 0 else {
            throw RenderError(.error("cannot make '\(target)': --press needs libqpdf, which is not installed (apt-get install libqpdf29)"))
        }
        var handle = galley_qpdf_init()
        guard let data = handle else { throw RenderError(.error("cannot make '\(target)': libqpdf could not start")) }
        // libqpdf reads from the buffer, never writing to it, until it is cleaned up.
        let done = draft.withUnsafeBytes { bytes -> Result<Void, RenderError> in
            defer { galley_qpdf_cleanup(&handle) }
            galley_qpdf_silence_errors(data)
            galley_qpdf_set_suppress_warnings(data, 1)
            let writer = PDFXWriter(q: data, press: press, metadata: metadata, prepared: prepared)
            let start = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
            return Result { () throws(RenderError) in
                try writer.check(galley_qpdf_read_memory(data, target, start, UInt64(bytes.count), nil), target)
                // What was worked out beside libqpdf's reading is waited for only where it is needed.
                try writer.addBoxesAndMarks(sheets, slugs: slugs)
                writer.declareRGB()
                writer.addOutputIntentAndMetadata(id: identity.value)
                try writer.check(galley_qpdf_has_error(data) != 0 ? QPDF_ERRORS : QPDF_SUCCESS, target)
                try writer.save(to: output, target)
            }
        }
        try done.get()
    }

    /// Throws libqpdf's last error, naming the output.
    func check(_ code: QPDF_ERROR_CODE, _ target: String) throws(RenderError) {
        guard code & QPDF_ERRORS != 0 else { return }
        let detail =
            galley_qpdf_has_error(q) != 0 ? String(cString: galley_qpdf_get_error_full_text(q, galley_qpdf_get_error(q))) : "unknown error"
        throw RenderError(.error("cannot make '\(target)': the PDF/X post-pass failed: \(detail)"))
    }

    /// Writes with every stream as Cairo compressed it (decoding none), PDF 1.6 at least (what
    /// PDF/X-4 is based on), and an `/ID` computed from the content, so a build is reproducible.
    func save(to output: String, _ target: String) throws(RenderError) {
        try check(galley_qpdf_init_write(q, output), target)
        galley_qpdf_set_decode_level(q, qpdf_dl_none)
        // Preserve: Cairo's streams are compressed already, and the profiles are compressed by
        // `stream(_:_:deflated:)` at zlib's fastest level (qpdf's default level took 12 ms of a
        // 280 ms build for a 187 KB profile).
        galley_qpdf_set_stream_data_mode(q, qpdf_s_preserve)
        galley_qpdf_set_object_stream_mode(q, qpdf_o_preserve)
        galley_qpdf_set_minimum_pdf_version(q, "1.6")
        // qpdf keeps the first half of an `/ID` the input has, and Ghostscript's (`--cmyk`)
        // comes from the clock: without it, both halves are a hash of the content.
        galley_qpdf_oh_remove_key(q, galley_qpdf_get_trailer(q), "/ID")
        galley_qpdf_set_deterministic_ID(q, 1)
        try check(galley_qpdf_write(q), target)
    }

    // MARK: object helpers

    func name(_ s: String) -> qpdf_oh { galley_qpdf_oh_new_name(q, s) }
    func real(_ v: Double) -> qpdf_oh { galley_qpdf_oh_new_real_from_double(q, v, 4) }
    func array(_ items: [qpdf_oh]) -> qpdf_oh {
        let a = galley_qpdf_oh_new_array(q)
        for item in items { galley_qpdf_oh_append_item(q, a, item) }
        return a
    }
    func dictionary(_ pairs: [(String, qpdf_oh)]) -> qpdf_oh {
        let d = galley_qpdf_oh_new_dictionary(q)
        for (k, v) in pairs { galley_qpdf_oh_replace_key(q, d, k, v) }
        return d
    }
    /// A new indirect stream holding `bytes`, its dictionary's other keys `pairs`; `deflated`,
    /// compressed at zlib's fastest level (else written as it is: the marks and the XMP packet,
    /// which PDF/X wants readable, are small).
    func stream(_ bytes: [UInt8], _ pairs: [(String, qpdf_oh)], deflated: Bool = false) -> qpdf_oh {
        stream(bytes, deflated: deflated ? deflater.deflate(bytes) : nil, pairs)
    }
    /// A new indirect stream of `raw`, written as `deflated` (a zlib stream of it) when there
    /// is one, its dictionary's other keys `pairs`.
    func stream(_ raw: [UInt8], deflated: [UInt8]?, _ pairs: [(String, qpdf_oh)]) -> qpdf_oh {
        let s = galley_qpdf_oh_new_stream(q)
        (deflated ?? raw).withUnsafeBufferPointer { b in
            let filter = deflated == nil ? galley_qpdf_oh_new_null(q) : name("/FlateDecode")
            galley_qpdf_oh_replace_stream_data(q, s, b.baseAddress, b.count, filter, galley_qpdf_oh_new_null(q))
        }
        let dict = galley_qpdf_oh_get_dict(q, s)
        for (k, v) in pairs { galley_qpdf_oh_replace_key(q, dict, k, v) }
        return s
    }
    func box(_ values: [Double]) -> qpdf_oh { array(values.map(real)) }

    /// A number in the operators the post-pass writes (see `ContentBytes.number`).
    static func number(_ v: Double) -> String {
        var ops = ContentBytes()
        ops.number(v)
        return String(decoding: ops.bytes, as: UTF8.self)
    }

    func isName(_ oh: qpdf_oh, _ s: String) -> Bool { galley_qpdf_oh_is_name_and_equals(q, oh, s) != 0 }
}

/// zlib at its fastest level, one stream reused for every object the post-pass compresses:
/// setting a stream up costs more than compressing a slug line.
final class Deflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let ready: Bool

    init() {
        stream.initialize(to: z_stream())
        ready = deflateInit_(stream, 1, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit {
        if ready { deflateEnd(stream) }
        stream.deallocate()
    }

    /// `bytes` as a zlib stream; nil if zlib fails (the caller then writes them plain).
    func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        guard ready, deflateReset(stream) == Z_OK else { return nil }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointee.avail_in = uInt(input.count)
                stream.pointee.next_out = output.baseAddress
                stream.pointee.avail_out = uInt(output.count)
                return CZlib.deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(out[0..<Int(stream.pointee.total_out)])
    }
}

/// PDF operators as bytes, written without going through strings: a slug line's glyphs are
/// thousands of numbers per document.
struct ContentBytes {
    var bytes: [UInt8] = []

    mutating func text(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// A number to a thousandth of a point, which no press resolves, with no trailing zeros
    /// ("12", "0.5", "-3.125").
    mutating func number(_ v: Double) {
        guard v.isFinite, abs(v) < 1e12 else { return bytes.append(UInt8(ascii: "0")) }
        let m = Int((v * 1000).rounded())
        if m < 0 { bytes.append(UInt8(ascii: "-")) }
        integer(abs(m) / 1000)
        var fraction = abs(m) % 1000
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var divisor = 100
        while fraction != 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// A whole number, not negative.
    mutating func integer(_ n: Int) {
        if n >= 10 { integer(n / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(n % 10))
    }
}
