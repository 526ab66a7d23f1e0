import Foundation
import TestSupport
import Testing

/// The hooks into Cairo's libraries are the executable's alone, on only for the verified library
/// versions, and off with GALLEY_NO_HOOKS=1; either way a PDF says the same.
@Suite struct HookGateTests {
    // The executable says whether they are on; GALLEY_NO_HOOKS=1 (any value but 0) turns them off.
    @Test func statusAndSwitch() {
        #expect(runExecutable(["__hooks", "status"]).output == "on\n")
        #expect(runExecutable(["__hooks", "status"], hooks: false).output == "off: GALLEY_NO_HOOKS is set\n")
        #expect(tool("GALLEY_NO_HOOKS=0", [galleyExecutable, "__hooks", "status"]).output == "on\n")
    }

    // No libc function is replaced: the executable defines no __snprintf_chk (nor any printf).
    @Test func noLibcInterposed() {
        let symbols = tool("nm", ["--defined-only", galleyExecutable]).output.split(separator: "\n")
        #expect(!symbols.isEmpty)
        #expect(!symbols.contains { $0.hasSuffix(" __snprintf_chk") || $0.hasSuffix(" snprintf") })
    }

    // The test binary (and so every library linked into it) defines none of the hooked symbols.
    @Test func noHooksInTheTestBinary() {
        let symbols = tool("nm", ["--defined-only", "/proc/\(getpid())/exe"]).output.split(separator: "\n")
        #expect(!symbols.isEmpty)
        for name in ["deflate", "deflateInit_", "deflateEnd", "FT_Load_Glyph", "FT_Load_Sfnt_Table", "__snprintf_chk"] {
            #expect(!symbols.contains { $0.hasSuffix(" T \(name)") || $0.hasSuffix(" W \(name)") }, "\(name)")
        }
    }

    // Every sample's PDF, with the hooks on and off: the same pages and sizes, text and fonts.
    @Test(arguments: ["article", "attributes", "chinese", "feed", "figures"]) func samePDFEitherWay(name: String) throws {
        let dir = TemporaryDirectory("hooks")
        var reports: [[String]] = []
        for hooks in [true, false] {
            let pdf = dir.file("\(hooks).pdf")
            let r = runExecutable(["build", repoPath("samples/\(name).txt"), "--social", "-o", pdf, "-q"], hooks: hooks)
            #expect(r.status == 0, "\(r.stderr)")
            let info = tool("pdfinfo", ["-box", pdf]).output.split(separator: "\n").filter {
                $0.hasPrefix("Pages") || $0.hasPrefix("Page size") || $0.hasSuffix("Box:") || $0.contains("Box: ")
            }
            // Subset font names carry a random-looking tag: compare the rest of each row.
            let fonts = tool("pdffonts", [pdf]).output.split(separator: "\n").dropFirst(2).map {
                $0.split(separator: " ", omittingEmptySubsequences: true).map { String($0.split(separator: "+").last ?? $0) }
                    .dropLast(2).joined(separator: " ")
            }
            reports.append(info.map(String.init) + fonts + [tool("pdftotext", ["-layout", pdf, "-"]).output])
        }
        #expect(reports[0] == reports[1])
    }
}
