import GalleySupport
import Synchronization

/// What the galley executable's hooks into Cairo's libraries offer the pipeline (see
/// `Sources/CGalleyHooks`). The hooks are linked into the executable only, so that no library
/// or test binary interposes another library's symbols; the executable installs this table at
/// start-up when it has turned them on (the running libraries are the versions they were
/// verified with, and `GALLEY_NO_HOOKS` is not set). Without it, as in tests and in programs
/// embedding these libraries, the pipeline runs on the libraries alone.
public struct LibraryHooks: Sendable {
    /// Sets the calling thread's PDF stream compression level, 1 to 9; returns the one before.
    public var setCompressionLevel: @Sendable (Int) -> Int
    /// A loader of glyph outlines made ahead of Cairo on a shaping thread: `make` one per
    /// thread, `prepare(loader, fontFile, faceIndex, glyphIDs)`, `free` it when done.
    public var makeGlyphLoader: @Sendable () -> OpaquePointer?
    public var prepareGlyphs: @Sendable (OpaquePointer, String, Int, [UInt32]) -> Void
    public var freeGlyphLoader: @Sendable (OpaquePointer) -> Void

    public init(
        setCompressionLevel: @escaping @Sendable (Int) -> Int, makeGlyphLoader: @escaping @Sendable () -> OpaquePointer?,
        prepareGlyphs: @escaping @Sendable (OpaquePointer, String, Int, [UInt32]) -> Void,
        freeGlyphLoader: @escaping @Sendable (OpaquePointer) -> Void
    ) {
        self.setCompressionLevel = setCompressionLevel
        self.makeGlyphLoader = makeGlyphLoader
        self.prepareGlyphs = prepareGlyphs
        self.freeGlyphLoader = freeGlyphLoader
    }

    private static let table = Mutex<LibraryHooks?>(nil)

    /// Installs the hooks (the executable, once, before any work).
    public static func install(_ hooks: LibraryHooks) { table.withLock { $0 = hooks } }

    /// The installed hooks; nil when they are off.
    public static var installed: LibraryHooks? { table.withLock { $0 } }
}
