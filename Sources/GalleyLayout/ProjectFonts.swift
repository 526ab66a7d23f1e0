import CPango
import GalleyMarkup
import GalleySupport
import Glibc
import Synchronization

/// A project's own font folders (`--font-path`, a template's `fonts`), given to fontconfig as
/// application fonts: a magazine keeps its licensed faces beside its articles, not installed.
package enum ProjectFonts {
    /// The folders given so far (canonical paths), each taken once in a process.
    private static let given = Mutex<Set<String>>([])
    /// Every font file in them, read or skipped: inputs of the build, which no output may
    /// name.
    private static let seen = Mutex<[String]>([])

    /// The font files of the project's font folders given so far.
    package static var files: [String] { seen.withLock { $0 } }

    /// The font files fontconfig reads; others in a folder (a README, a licence) are not fonts.
    static let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "pfb", "pfa", "woff", "woff2"]

    /// Adds the fonts of `folders` ahead of the next layout, with a warning for a folder that
    /// cannot be used and for each font file in one that fontconfig cannot read (it is skipped).
    package static func add(_ folders: [String]) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        var added = false
        for folder in folders {
            let path = FileRoot.canonicalPath(folder)
            guard given.withLock({ $0.insert(path).inserted }) else { continue }
            guard FileIdentity.isFolder(path) else {
                warnings.append(.warning("font folder '\(folder)' does not exist or is not a folder; its fonts are not used"))
                continue
            }
            _ = FaceClasses.rulesLoaded
            // File by file rather than the folder: each is scanned now, never taken from a
            // cache of the folder written before, so `preferred` holds for every one.
            let files = fontFiles(in: path)
            seen.withLock { $0 += files }
            for file in files {
                // Pango sets no text in a web font (it drops `.woff` and `.woff2` files from every
                // match), so fontconfig listing one would only make `fonts` promise it.
                if let dot = file.lastIndex(of: "."), ["woff", "woff2"].contains(file[file.index(after: dot)...].lowercased()) {
                    warnings.append(
                        .warning("'\(file)' is a web font (WOFF), which Pango sets no text in; skipped (convert it to TTF or OTF)"))
                    continue
                }
                // Only regular files are opened: a FIFO named like a font would wait for a writer.
                guard let status = FileIdentity.status(file), FileIdentity.kind(status) == .regular else {
                    warnings.append(.warning("'\(file)' is not a regular file; skipped"))
                    continue
                }
                if readable(file), FcConfigAppFontAddFile(FcConfigGetCurrent(), file) != 0 {
                    added = true
                } else {
                    warnings.append(.warning("'\(file)' is not a font fontconfig can read; skipped"))
                }
            }
        }
        if added {
            preferred()
            // Engines made before know the fonts of then (a font map lists them once).
            EnginePool.fontsChanged()
        }
        return warnings
    }

    /// Makes the project's fonts win over installed ones that match a request as well (the
    /// same family, weight and style): fontconfig's last tiebreak is the font version, the
    /// highest wanted (`FcDefaultSubstitute` asks for the largest there is), so each of them
    /// is given that one. Fontconfig's application set holds only these fonts.
    private static func preferred() {
        guard let set = FcConfigGetFonts(FcConfigGetCurrent(), FcSetApplication) else { return }
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            FcPatternDel(font, "fontversion")
            FcPatternAddInteger(font, "fontversion", Int32.max)
        }
    }

    /// The font files under `folder`, as fontconfig scans it (sub-folders included).
    static func fontFiles(in folder: String) -> [String] {
        var out: [String] = []
        var pending = [folder]
        while let dir = pending.popLast(), out.count < 10_000 {
            guard let d = opendir(dir) else { continue }
            defer { closedir(d) }
            while let entry = readdir(d) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasPrefix(".") { continue }
                let path = FilePath.join(dir, name)
                if entry.pointee.d_type == UInt8(DT_DIR) {
                    pending.append(path)
                } else if let dot = name.lastIndex(of: "."), extensions.contains(name[name.index(after: dot)...].lowercased()) {
                    out.append(path)
                }
            }
        }
        return out.sorted()
    }

    /// The installed font file (fontconfig's system set) that is `identity`, if any: a build
    /// reads the fonts it sets text in, so none may be written over.
    package static func installed(_ identity: FileIdentity) -> String? {
        guard let set = FcConfigGetFonts(FcConfigGetCurrent(), FcSetSystem) else { return nil }
        var seen = Set<String>()
        for i in 0..<Int(set.pointee.nfont) {
            var name: UnsafeMutablePointer<FcChar8>?
            guard let font = set.pointee.fonts[i], FcPatternGetString(font, "file", 0, &name) == FcResultMatch, let name else {
                continue
            }
            let file = String(cString: name)
            if seen.insert(file).inserted, FileIdentity.of(file) == identity { return file }
        }
        return nil
    }

    /// Whether fontconfig can read a face from `file`.
    static func readable(_ file: String) -> Bool {
        var count: Int32 = 0
        guard let pattern = FcFreeTypeQuery(file, 0, nil, &count) else { return false }
        FcPatternDestroy(pattern)
        return true
    }
}
