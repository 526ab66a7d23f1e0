import GalleyLayout
import GalleySupport
import Synchronization

/// The most ink a page of a CMYK build lays down at any spot, for the preflight: presses and
/// papers take at most about 300 % (the four inks' percentages added); more sets off onto the
/// next sheet and dries slowly.
public struct InkCoverage: Sendable, Equatable {
    /// The page, from 1.
    public var page: Int
    /// The most ink at any spot, percent (0–400).
    public var maximum: Double
    /// The share of the page over the limit, 0–1.
    public var overLimit: Double
    /// The box around the spots over the limit, in points from the sheet's top left corner;
    /// nil when there are none.
    public var hot: Rect? = nil
}

/// Where a CMYK build leaves its pages' ink for the preflight: filled by the export (in the
/// PDF/X step, from Ghostscript's CMYK file), read by the command once the PDF is written.
public final class InkLog: Sendable {
    private let measured = Mutex<Result<[InkCoverage], RenderError>?>(nil)
    public init() {}
    public var pages: Result<[InkCoverage], RenderError>? { measured.withLock { $0 } }
    func record(_ result: Result<[InkCoverage], RenderError>) { measured.withLock { $0 = result } }
}

/// Measures ink by having Ghostscript render the CMYK file in its separations (`pamcmyk32`, a
/// byte per ink and pixel) and adding the inks pixel by pixel. Ghostscript's `inkcov` device
/// gives only each page's average, in which a dark photo on a white page never reaches 300 %.
/// The marks are not there yet (the post-pass adds them), so their registration colour, 400 %
/// by design, is not counted.
enum InkMeter {
    /// The limit, percent: the usual one for coated stock on a sheet-fed press.
    static let limit = 300.0
    /// 36 dpi: a spot of 0.7 mm, finer than any area of ink that matters to the press, coarse
    /// enough to cost a fraction of the conversion.
    static let resolution = 36

    static func measure(_ pdf: String, ghostscript: String, temporaryFolder: String) -> Result<[InkCoverage], RenderError> {
        var parser = PAMInk(limit: limit)
        var error = ""
        let arguments = [
            "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-dUseTrimBox", "-sDEVICE=pamcmyk32", "-r\(resolution)", "-dTextAlphaBits=1",
            "-dGraphicsAlphaBits=1", "-sOutputFile=-", "-f", pdf,
        ]
        let status = Subprocess.stream(ghostscript, arguments, errors: false, temporaryFolder: temporaryFolder, error: &error) {
            parser.consume($0)
        }
        guard let status else { return .failure(RenderError(.warning("could not measure the ink: \(error)"))) }
        guard status == 0, parser.isComplete else {
            return .failure(RenderError(.warning("could not measure the ink: Ghostscript's separations ended with status \(status)")))
        }
        return .success(parser.pages)
    }
}

/// Reads a stream of PAM images (`P7`, four bytes a pixel) and keeps each one's most ink and
/// its share over the limit, without holding a page.
struct PAMInk {
    let limit: Int
    private(set) var pages: [InkCoverage] = []
    private var header: [UInt8] = []
    private var remaining = 0
    private var total = 0
    private var pixel: [UInt8] = []
    private var most = 0, over = 0
    /// The image's width, the pixel being read (row by row) and the box of those over the limit.
    private var width = 0, index = 0
    private var hot: (x0: Int, y0: Int, x1: Int, y1: Int)?
    /// Points per pixel of the images read.
    let pointsPerPixel: Double

    init(limit percent: Double, resolution: Int = InkMeter.resolution) {
        limit = Int(percent / 100 * 255)
        pointsPerPixel = 72 / Double(resolution)
    }

    /// True between images (a stream cut short inside one is not).
    var isComplete: Bool { remaining == 0 && header.isEmpty }

    mutating func consume(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            if remaining == 0 {
                i = readHeader(bytes, from: i)
                continue
            }
            if pixel.isEmpty, bytes.count - i >= 4, remaining >= 4 {
                add(Int(bytes[i]) + Int(bytes[i + 1]) + Int(bytes[i + 2]) + Int(bytes[i + 3]))
                i += 4
            } else {
                pixel.append(bytes[i])
                i += 1
                if pixel.count == 4 {
                    add(pixel.reduce(0) { $0 + Int($1) })
                    pixel.removeAll()
                }
            }
        }
    }

    /// Collects a header up to `ENDHDR` and a newline; returns where its pixels start.
    private mutating func readHeader(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            header.append(bytes[i])
            i += 1
            if bytes[i - 1] == 0x0A, header.count >= 7, header.suffix(7) == Array("ENDHDR\n".utf8) {
                begin(String(decoding: header, as: UTF8.self))
                header.removeAll()
                return i
            }
            // A header is a few lines; anything longer is not PAM.
            if header.count > 1024 { return bytes.count }
        }
        return i
    }

    private mutating func begin(_ text: String) {
        func field(_ name: String) -> Int {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.dropFirst(name.count + 1)) } ?? 0
        }
        width = field("WIDTH")
        total = width * field("HEIGHT") * 4
        remaining = total
        (most, over, index, hot) = (0, 0, 0, nil)
        if total == 0 { finishPage() }
    }

    private mutating func add(_ ink: Int) {
        most = max(most, ink)
        if ink > limit {
            over += 1
            let (x, y) = (index % width, index / width)
            hot = hot.map { (min($0.x0, x), min($0.y0, y), max($0.x1, x), max($0.y1, y)) } ?? (x, y, x, y)
        }
        index += 1
        remaining -= 4
        if remaining <= 0 { finishPage() }
    }

    private mutating func finishPage() {
        let pixels = max(1, total / 4)
        let s = pointsPerPixel
        let box = hot.map { h in
            Rect(x: Double(h.x0) * s, y: Double(h.y0) * s, width: Double(h.x1 - h.x0 + 1) * s, height: Double(h.y1 - h.y0 + 1) * s)
        }
        pages.append(
            InkCoverage(page: pages.count + 1, maximum: Double(most) / 255 * 100, overLimit: Double(over) / Double(pixels), hot: box))
        remaining = 0
    }
}
