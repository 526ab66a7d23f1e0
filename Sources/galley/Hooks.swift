import CGalleyHooks
import GalleyLayout
import GalleySupport

/// Turning the hooks on (see Sources/CGalleyHooks): only in this executable, once, before any
/// work, and only when `GALLEY_NO_HOOKS` is unset (or 0) and the running Cairo, FreeType and
/// zlib are the versions the hooks were verified with.
enum Hooks {
    /// Whether they are on, or why not.
    enum Status: Equatable {
        case on
        case off(String)
    }

    static func turnOn(environment: [String: String]) -> Status {
        if let v = environment["GALLEY_NO_HOOKS"], !v.isEmpty, v != "0" { return .off("GALLEY_NO_HOOKS is set") }
        var why = [CChar](repeating: 0, count: 256)
        guard galley_hooks_activate(&why, why.count) != 0 else {
            return .off(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        LibraryHooks.install(
            LibraryHooks(
                setCompressionLevel: { level in
                    let before = galley_get_deflate_level()
                    galley_set_deflate_level(Int32(level))
                    return Int(before)
                },
                makeGlyphLoader: { galley_glyph_loader_new() },
                prepareGlyphs: { loader, path, index, gids in
                    _ = galley_glyph_loader_prepare(loader, path, index, gids, gids.count)
                },
                freeGlyphLoader: { galley_glyph_loader_free($0) }))
        return .on
    }
}
