import CCairo
import CPixbuf
import GalleySupport
import Glibc
import Synchronization

/// An SVG drawn once in a process of its own before it is drawn into a page. librsvg is a
/// library we cannot make safe from outside: some SVGs make it abort the process (a Rust
/// assertion on text set at 1e30 pt), and some of a few kilobytes make it run for minutes and
/// take gigabytes (a tree of `<use>` under a filter, an `<image>` of 400 megapixels). Drawn
/// in a child, under a time and memory limit, such an SVG costs the child, and the build says
/// which file it was and why, as it does for any image it cannot use, instead of dying with
/// its output half written or never ending.
///
/// The child is this executable (`galley __svg-probe PATH WIDTH HEIGHT`, in no help text),
/// which installs itself at start-up; without it (tests in-process, embedders) SVGs are drawn
/// unprobed.
public enum SVGProbe {
    public static let command = "__svg-probe"
    /// The CPU time and the memory (beyond what the child holds when it starts) one SVG may
    /// take: far more than any picture a page shows needs.
    static let seconds = 10
    static let bytes = 2 << 30

    private static let executable = Mutex<String?>(nil)

    /// Probes SVGs with `path`, an executable that answers `command` (this one).
    public static func install(executable path: String) { executable.withLock { $0 = path } }

    /// Why the SVG at `path`, drawn `width` × `height` points, cannot be drawn; nil when it
    /// can, when no probe is installed, or when librsvg refuses it with a reason of its own
    /// (drawing it then says that reason).
    static func failure(of path: String, width: Double, height: Double) -> String? {
        guard let exe = executable.withLock({ $0 }) else { return nil }
        let size = [width, height].map { String(max(1, min($0, 14_400))) }
        var error = ""
        guard let status = Subprocess.stream(exe, [command, path] + size, errors: false, error: &error, consume: { _ in })
        else { return nil }
        switch status {
        case 0, refused: return nil
        case 128 + SIGXCPU, 128 + SIGALRM: return "librsvg takes more than \(seconds) s to draw it"
        default:
            return "librsvg fails on it (drawing it ended the process, status \(status)): it holds something librsvg cannot "
                + "draw, such as text at an absurd size, or needs more than \(bytes >> 30) GiB of memory"
        }
    }

    /// The exit status of a child whose SVG librsvg refused with an error of its own.
    static let refused: Int32 = 3

    /// The child: draws the SVG at `arguments[0]` into a page of `arguments[1]` × `arguments[2]`
    /// points of a PDF that goes nowhere, under the limits. Exits 0 when it is drawn,
    /// `refused` when librsvg gives an error, 2 on other arguments; a signal otherwise.
    public static func child(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3, let w = Double(arguments[1]), let h = Double(arguments[2]), w >= 1, h >= 1 else { return 2 }
        limit()
        guard let rsvg = Rsvg.shared else { return refused }
        var error: UnsafeMutablePointer<GError>?
        guard let handle = rsvg.newFromFile(arguments[0], &error) else { return refused }
        let surface = cairo_pdf_surface_create_for_stream({ _, _, _ in CAIRO_STATUS_SUCCESS }, nil, w, h)
        let cr = cairo_create(surface)
        let viewport = [0, 0, w, h]
        let ok = viewport.withUnsafeBytes { rsvg.renderDocument(handle, cr, $0.baseAddress, &error) }
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        return ok != 0 ? 0 : refused
    }

    /// The child's limits. Memory is counted from what the process has mapped already: a
    /// sanitizer's build maps terabytes of shadow before its first line runs.
    private static func limit() {
        var cpu = rlimit(rlim_cur: rlim_t(seconds), rlim_max: rlim_t(seconds + 5))
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
        if let mapped = mappedBytes() {
            var memory = rlimit(rlim_cur: rlim_t(mapped + bytes), rlim_max: rlim_t(mapped + bytes))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory)
        }
        // A wait that takes no CPU (none is known) ends too.
        alarm(UInt32(4 * seconds))
    }

    /// The process's mapped size (the first field of /proc/self/statm, in pages).
    private static func mappedBytes() -> Int? {
        guard case .success(let bytes) = RawIO.readFile("/proc/self/statm"),
            let pages = Int(String(decoding: bytes.prefix { $0 != 0x20 }, as: UTF8.self))
        else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
