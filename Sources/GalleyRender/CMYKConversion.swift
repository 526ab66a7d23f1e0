import CLCMS
import GalleySupport
import Glibc

/// `--cmyk`: Ghostscript's pdfwrite converts Cairo's PDF to the output intent's CMYK before
/// the PDF/X post-pass writes the boxes, marks, output intent and XMP (Ghostscript would drop
/// or rewrite them, so they are added after it).
///
/// RGB goes from sRGB to the output intent through device links made with Little CMS
/// (`NeutralLink`), named for Ghostscript by object type: text and vector graphics through the
/// link that makes black and grey text black ink alone, images through a plain one (the
/// intent's own separation). Ghostscript's own conversion is not used for images: pdfwrite
/// before 10.03 separates for its default CMYK profile whatever `-sOutputICCProfile` says
/// (Ghostscript bug 707350). Grey images stay DeviceGray, on black ink. Images are kept
/// lossless (Flate) and at their resolution, and pages are never turned.
public struct CMYKConversion: Sendable {
    /// Ghostscript's `gs`, found on `PATH` when the options were read.
    public let ghostscript: String
    /// Where the pages' ink goes for the preflight, measured from the CMYK file.
    public let ink = InkLog()

    /// Ghostscript on `searchPath` (the `PATH` variable's value) and Little CMS, or what is
    /// missing, said the way the user mends it.
    public static func locate(searchPath: String?) -> Result<CMYKConversion, RenderError> {
        guard let gs = Subprocess.locate("gs", searchPath: searchPath) else {
            return .failure(
                RenderError(.error("--cmyk needs Ghostscript ('gs' on PATH), which is not installed (apt-get install ghostscript)")))
        }
        guard galley_lcms_available() != 0 else {
            return .failure(
                RenderError(.error("--cmyk needs Little CMS (liblcms2-2), which is not installed (apt-get install liblcms2-2)")))
        }
        return .success(CMYKConversion(ghostscript: gs))
    }

    /// Converts `draft` into `output`. The link and Ghostscript's list of object profiles are
    /// temporary files, removed when done or on a signal.
    func convert(_ draft: String, to output: String, press: PressOutput, target: String) throws(RenderError) {
        let link = try scratch("link.icc")
        defer { link.discard() }
        try write(NeutralLink.make(sRGB: press.sRGB, intent: press.intent), to: link.path)
        let imageLink = try scratch("image-link.icc")
        defer { imageLink.discard() }
        try write(NeutralLink.make(sRGB: press.sRGB, intent: press.intent, greysToK: false), to: imageLink.path)
        let objects = try scratch("objects.txt")
        defer { objects.discard() }
        // Ghostscript splits this file at spaces and commas: hence `scratch`'s folder.
        let list = "Text_RGB \(link.path) 1 0 0\nGraphic_RGB \(link.path) 1 0 0\nImage_RGB \(imageLink.path) 1 0 0\n"
        try write(Array(list.utf8), to: objects.path)
        // Ghostscript's own scratch files, which it leaves behind when a signal ends it.
        let scratchFolder = try TemporaryFolder(in: folderForScratch, name: "galley-gs")
        defer { scratchFolder.discard() }
        var error = ""
        let arguments = self.arguments(draft, output, press: press, link: link.path, imageLink: imageLink.path, objects: objects.path)
        guard let outcome = Subprocess.run(ghostscript, arguments, temporaryFolder: scratchFolder.path, error: &error) else {
            throw RenderError(.error("cannot make '\(target)': could not run Ghostscript ('\(ghostscript)'): \(error)"))
        }
        guard outcome.status == 0 else {
            // Its last lines, on the message's one line (a diagnostic shows a newline as `\x0a`).
            let said = outcome.output.split(separator: "\n").map { $0.trimmed() }.filter { !$0.isEmpty }.suffix(4)
            throw RenderError(
                .error(
                    "cannot make '\(target)': Ghostscript's CMYK conversion failed (status \(outcome.status)): "
                        + said.joined(separator: "; ")))
        }
    }

    /// Measures the ink of `pdf`, the printer's file as delivered: Ghostscript's own output
    /// still blends its pages in RGB (their groups' `/CS`, made CMYK by the post-pass), and
    /// separated again for its default profile, a dark page read some 40 % lighter. Its trim
    /// alone: the marks around it are in every ink.
    func measureInk(of pdf: String) {
        guard let scratchFolder = try? TemporaryFolder(in: folderForScratch, name: "galley-gs") else {
            return ink.record(.failure(RenderError(.warning("could not measure the ink: no scratch folder"))))
        }
        defer { scratchFolder.discard() }
        ink.record(InkMeter.measure(pdf, ghostscript: ghostscript, temporaryFolder: scratchFolder.path))
    }

    private func arguments(
        _ draft: String, _ output: String, press: PressOutput, link: String, imageLink: String, objects: String
    ) -> [String] {
        [
            "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER",
            "--permit-file-read=\(link)", "--permit-file-read=\(imageLink)", "--permit-file-read=\(objects)",
            "--permit-file-read=\(press.intent.path)", "--permit-file-read=\(press.sRGB.path)",
            "-sDEVICE=pdfwrite", "-dCompatibilityLevel=1.6",
            "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK",
            "-sOutputICCProfile=\(press.intent.path)", "-sDefaultRGBProfile=\(press.sRGB.path)",
            "-sSourceObjectICC=\(objects)",
            // A page of vertical text must not be turned to make its lines run across.
            "-dAutoRotatePages=/None",
            "-dDownsampleColorImages=false", "-dDownsampleGrayImages=false", "-dDownsampleMonoImages=false",
            "-dAutoFilterColorImages=false", "-sColorImageFilter=FlateEncode",
            "-dAutoFilterGrayImages=false", "-sGrayImageFilter=FlateEncode",
            // A `%` in the output's name would otherwise be a page-number template.
            "-sOutputFile=\(output.replacing("%", with: "%%"))",
            "-f", draft,
        ]
    }

    /// A temporary file in `TMPDIR` (else /tmp), or /tmp when that folder's name holds a
    /// character Ghostscript's object list splits at.
    private func scratch(_ name: String) throws(RenderError) -> TemporaryFile {
        try TemporaryFile(in: folderForScratch, name: "galley-cmyk-" + name)
    }

    private var folderForScratch: String {
        let tmp = FilePath.temporaryDirectory
        return tmp.contains(where: { " ,\t\n\r".contains($0) }) ? "/tmp" : tmp
    }

    private func write(_ bytes: [UInt8], to path: String) throws(RenderError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
        let failure: SystemError? = fd < 0 ? SystemError() : bytes.withUnsafeBytes { RawIO.writeAll(fd, $0) }
        if fd >= 0 { close(fd) }
        if let failure { throw RenderError(.error("cannot write '\(path)': \(failure.message)")) }
    }
}
