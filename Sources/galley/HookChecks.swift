import CGalleyHooks
import FoundationEssentials
import GalleyCLI
import GalleyMarkup
import GalleySupport
import Glibc

/// `galley __hooks CHECK …`: the hooks checked against the libraries they stand in for, for the
/// tests. The hooks live in this executable only, so the tests run it to reach them. Not a
/// user's command: it is in no help text.
enum HookChecks {
    static let command = "__hooks"

    static func run(_ args: [String], status: Hooks.Status) -> Int32 {
        guard let check = args.first else { return fail("a check to run") }
        let rest = Array(args.dropFirst())
        switch check {
        case "status":
            switch status {
            case .on: say("on")
            case .off(let why): say("off: \(why)")
            }
        case "deflate": return deflate(rest)
        case "glyph-compare": return glyphCompare(rest)
        case "glyph-loader": return glyphLoader(rest)
        case "cff-compare": return cffCompare(rest)
        case "after-build": return afterBuild(rest)
        default: return fail("a known check, not '\(check)'")
        }
        return 0
    }

    static func say(_ s: String) {
        var line = s + "\n"
        _ = line.withUTF8 { RawIO.writeAll(1, UnsafeRawBufferPointer($0)) }
    }

    static func fail(_ wanted: String) -> Int32 {
        var line = "galley \(command): expected \(wanted)\n"
        _ = line.withUTF8 { RawIO.writeAll(2, UnsafeRawBufferPointer($0)) }
        return 2
    }

    /// `deflate LEVEL CHUNK SPACE FLUSH LIMIT`: standard input compressed as Cairo has it
    /// compressed (in chunks of CHUNK bytes, Z_NO_FLUSH or, with FLUSH 1, Z_SYNC_FLUSH, then
    /// Z_FINISH, draining SPACE bytes of output at a time), the zlib stream to standard output.
    static func deflate(_ a: [String]) -> Int32 {
        guard a.count == 5, let level = Int32(a[0]), let chunk = Int(a[1]), let space = Int(a[2]), chunk > 0, space > 0,
            let flushing = Int(a[3]), let limit = Int(a[4])
        else { return fail("LEVEL CHUNK SPACE FLUSH LIMIT") }
        guard case .success(let input) = RawIO.readAll(0) else { return fail("readable input") }
        galley_set_deflate_level(level)
        galley_set_deflate_limit(limit)
        var strm = z_stream()
        guard galley_deflate_init_whole(&strm) == Z_OK else { return 1 }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: space)
        var position = 0
        var ok = true
        input.withUnsafeBufferPointer { all in
            repeat {
                let n = min(chunk, all.count - position)
                let finish = position + n == all.count
                strm.next_in = UnsafeMutablePointer(mutating: all.baseAddress.map { $0 + position })
                strm.avail_in = UInt32(n)
                var result: Int32 = Z_OK
                repeat {
                    buffer.withUnsafeMutableBufferPointer { b in
                        strm.next_out = b.baseAddress
                        strm.avail_out = UInt32(space)
                        result = CGalleyHooks.deflate(&strm, finish ? Z_FINISH : flushing == 1 ? Z_SYNC_FLUSH : Z_NO_FLUSH)
                        out += b[0..<(space - Int(strm.avail_out))]
                    }
                } while strm.avail_in > 0 || (finish && result == Z_OK)
                if result != (finish ? Z_STREAM_END : Z_OK) { ok = false }
                position += n
            } while position < all.count && ok
        }
        if Int(strm.total_in) != input.count || Int(strm.total_out) != out.count { ok = false }
        if deflateEnd(&strm) != Z_OK { ok = false }
        out.withUnsafeBytes { _ = RawIO.writeAll(1, $0) }
        return ok ? 0 : 1
    }

    /// `glyph-compare FONT INDEX PPEM XX XY YX YY FIRST COUNT`: how many glyphs the hook serves
    /// otherwise than FreeType loads them (-1: no font, -2: not a font the hook serves).
    static func glyphCompare(_ a: [String]) -> Int32 {
        guard a.count == 9, let index = Int(a[1]), let ppem = Double(a[2]), let first = Int(a[7]), let count = Int(a[8]) else {
            return fail("FONT INDEX PPEM XX XY YX YY FIRST COUNT")
        }
        let matrix = a[3...6].compactMap(Double.init)
        guard matrix.count == 4 else { return fail("a matrix of four numbers") }
        say(String(galley_glyph_compare(a[0], index, ppem, matrix, first, count)))
        return 0
    }

    /// `glyph-loader FONT INDEX FIRST COUNT [FIRST COUNT …]`: one loader preparing each range in
    /// turn; the glyphs each made, then the font's state (0 checking, 1 trusted, -1 FreeType's, 2 unseen).
    static func glyphLoader(_ a: [String]) -> Int32 {
        guard a.count >= 4, a.count % 2 == 0, let index = Int(a[1]) else { return fail("FONT INDEX FIRST COUNT …") }
        let loader = galley_glyph_loader_new()
        defer { galley_glyph_loader_free(loader) }
        var made: [String] = []
        for k in stride(from: 2, to: a.count, by: 2) {
            guard let first = UInt32(a[k]), let count = UInt32(a[k + 1]) else { return fail("whole numbers") }
            let gids = Array(first..<(first + count))
            made.append(String(galley_glyph_loader_prepare(loader, a[0], index, gids, gids.count)))
        }
        say(made.joined(separator: " ") + " state " + String(galley_glyph_reuse_state(a[0], index)))
        return 0
    }

    /// `cff-compare FONT INDEX GIDS`: the compact table keeping GIDS (first-last ranges and
    /// single ids, comma-separated, or `-` for none) read back by FreeType: the glyphs that
    /// differ (-1: no compact table made), the compact length and the original's.
    static func cffCompare(_ a: [String]) -> Int32 {
        guard a.count == 3, let index = Int(a[1]) else { return fail("FONT INDEX GIDS") }
        var gids: [UInt32] = []
        for part in a[2].split(separator: ",") where part != "-" {
            let ends = part.split(separator: "-").compactMap { UInt32($0) }
            guard let lo = ends.first else { return fail("glyph ids") }
            gids += Array(lo...(ends.last ?? lo))
        }
        var compact: UInt = 0
        var original: UInt = 0
        let differ = galley_cff_compact_compare(a[0], index, gids, gids.count, &compact, &original)
        say("\(differ) \(compact) \(original)")
        return 0
    }

    /// `after-build FONT INDEX ARGS…`: runs `galley ARGS` in this process (the hooks serving
    /// Cairo), then says the length of the compact CFF table last made for the font and the
    /// glyph hook's state for it.
    static func afterBuild(_ a: [String]) -> Int32 {
        guard a.count > 2, let index = Int(a[1]) else { return fail("FONT INDEX ARGS…") }
        let status = Galley.main(arguments: Array(a.dropFirst(2)), io: .process())
        say("status \(status) cff \(galley_cff_compact_length(a[0], index)) glyphs \(galley_glyph_reuse_state(a[0], index))")
        return 0
    }
}
