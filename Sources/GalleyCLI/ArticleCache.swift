import CDeflate
import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleySupport
import GalleyTemplate
import Glibc
import Synchronization

/// `--cache DIR`: each article's layout kept between issue builds, so that editing one article
/// of twenty lays out that one again and only draws the others. An entry is a file per article
/// (and per folio parity it was laid out from), overwritten when the article changes, so the
/// folder does not grow with edits.
///
/// An entry is used only when its key, a digest of everything the layout depends on, is the
/// key of the article now: the bytes of every file the article read (text, images, emoticon
/// packs), its template with the manifest's and the article's `set`, the options that change
/// a story, the fields the manifest gives it, the first folio's parity, the fonts installed,
/// and this executable. The font files the layout used are stamped in the entry and checked
/// too. A damaged entry, one made by another build of Galley or one whose fonts changed is
/// not used, with a warning; the layout is then made and the entry written again.
final class ArticleCache: Sendable {
    let folder: String
    private let manifestPath: String
    private let options: DocumentOptions
    /// The fonts installed when the build started (see `ProjectFonts.environment`).
    private let fontEnvironment: String
    private let warnings = Mutex<[Diagnostic]>([])
    private let hits = Mutex<Set<Int>>([])
    /// Each template a key was made for, encoded: the articles of an issue mostly share one,
    /// and encoding it costs more than comparing it.
    private let encodings = Mutex<[(Template, String)]>([])

    /// The first bytes of every entry.
    static let magic = Array("GALLEY LAYOUT CACHE\n".utf8)

    /// The cache in `folder`, made if missing; nil (with a warning in `diagnostics`) when it
    /// cannot be made or is not a folder.
    init?(folder: String, manifest: String, options: DocumentOptions, diagnostics: inout Diagnostics) {
        guard FilePath.makeFolders(folder), access(folder, W_OK) == 0 else {
            diagnostics.append(
                .warning("cannot use '\(folder)' as the layout cache: it is not a writable folder; laying out every article"))
            return nil
        }
        self.folder = folder
        self.manifestPath = manifest
        self.options = options
        // Once, on this thread: fontconfig's configuration is read, not changed, after this.
        let fonts = ContentDigest()
        ProjectFonts.environment(into: fonts)
        fontEnvironment = fonts.hex()
    }

    /// What went wrong with entries, said once the issue is laid out.
    var diagnostics: [Diagnostic] { warnings.withLock { $0 } }

    /// The articles whose layout came from the cache.
    var used: Set<Int> { hits.withLock { $0 } }

    /// This executable as a version: a cache outlives builds of Galley, and an entry written by
    /// another one may lay things out otherwise.
    static let maker: String = {
        let stamp = FileStamp.of("/proc/self/exe")
        return "galley \(Galley.version) \(stamp?.size ?? 0) \(stamp?.modified ?? 0)"
    }()
}

extension ArticleCache {
    /// Where article `document` laid out from folio `folio` is kept, and its key: its first
    /// page's text from `below` down when it starts under another article (`startOn: any`).
    /// `occurrence` tells apart the entries of a file listed more than once (`allowRepeat`).
    func slot(
        _ document: Document, article: IssueManifest.Article, folio: Int, below: Double? = nil, occurrence: Int = 0
    ) -> (path: String, key: String) {
        let name = ContentDigest()
        name.add(document.source.path)
        name.add(count: folio % 2)
        if occurrence > 0 { name.add("occurrence \(occurrence)") }
        let under = below.map { "below \($0.bitPattern)" }
        if let under { name.add(under) }
        let key = ContentDigest()
        key.add(Self.maker)
        key.add(document.source.path)
        key.add(document.source.text)
        // The article's own file is the text just added, as it was read: not read again.
        for file in Set(document.inputFiles).sorted() where file != document.source.path {
            key.add(file)
            key.add(ContentDigest.ofFile(file) ?? "unreadable")
        }
        key.add(encoded(document.template))
        key.add(count: folio)
        key.add(under ?? "top")
        let o = options
        for flag in [o.social, o.allowFileLinks] { key.add(count: flag ? 1 : 0) }
        for value in o.emoticons + ["|"] + o.fontPaths + ["|", o.root ?? ""] { key.add(value) }
        for field in [article.title, article.section] { key.add(field ?? "\u{0}") }
        key.add(fontEnvironment)
        return (FilePath.join(folder, String(name.hex().prefix(32)) + ".layout"), key.hex())
    }

    /// `template` as `TemplateLoader.encode` writes it, encoded once per template.
    private func encoded(_ template: Template) -> String {
        if let known = encodings.withLock({ $0.first { $0.0 == template }?.1 }) { return known }
        let text = TemplateLoader.encode(template)
        encodings.withLock { $0.append((template, text)) }
        return text
    }

    /// The pages kept for article `k` under `key`, with the warnings their layout gave; nil
    /// when there are none to use.
    func load(
        _ k: Int, from slot: (path: String, key: String), for framesetter: Framesetter, name: String
    ) -> (
        pages: [Page], warnings: [Diagnostic]
    )? {
        guard FileIdentity.status(slot.path) != nil else { return nil }
        switch Entry.read(slot.path, key: slot.key) {
        case .success(let entry):
            if let changed = entry.fonts.first(where: { FileStamp.of($0.path) != $0.stamp }) {
                warn("the cached layout of '\(name)' was set in '\(changed.path)', which has changed since; laying it out again")
                return nil
            }
            guard let laid = try? framesetter.unarchive(entry.held, from: entry.payloadStart) else {
                warn("the cached layout of '\(name)' is damaged; laying it out again")
                return nil
            }
            hits.withLock { _ = $0.insert(k) }
            return laid
        case .failure(.otherInput):
            return nil
        case .failure(.otherMaker):
            warn("the cached layout of '\(name)' was made by another build of Galley; laying it out again")
            return nil
        case .failure(.damaged):
            warn("the cached layout of '\(name)' is damaged; laying it out again")
            return nil
        }
    }

    /// Keeps `pages` of article `k` under `slot`; a cache that cannot be written is a warning.
    func store(_ pages: [Page], warnings laid: [Diagnostic], at slot: (path: String, key: String), framesetter: Framesetter) {
        let fonts = framesetter.fontFiles(of: pages).sorted().map { ($0, FileStamp.of($0)) }
        let entry = Entry(
            key: slot.key, fonts: fonts.compactMap { f in f.1.map { (f.0, $0) } }, held: framesetter.archive(pages, warnings: laid))
        do {
            // A symlink planted at the entry's name is replaced, never written through.
            try TextOutput.write(entry.bytes(), to: slot.path, followingLinks: false)
        } catch {
            warn("cannot write the layout cache '\(slot.path)': \(error.diagnostic.message)")
        }
    }

    private func warn(_ message: String) {
        warnings.withLock { $0.append(.warning(message, file: manifestPath)) }
    }
}

/// One cache file: the magic, the maker, the key, the stamped fonts, the payload's checksum and
/// the payload (`LayoutArchive`).
struct Entry {
    enum Problem: Error {
        /// Made for other input (the article or its settings changed): not a warning.
        case otherInput
        case otherMaker
        case damaged
    }

    var key: String
    var fonts: [(path: String, stamp: FileStamp)]
    /// The payload is `held[payloadStart...]`: an entry read keeps the file's bytes, and its
    /// payload (megabytes) is not copied out of them.
    var held: [UInt8]
    var payloadStart = 0
    var payload: ArraySlice<UInt8> { held[payloadStart...] }

    func bytes() -> [UInt8] {
        var w = ByteWriter()
        w.append(raw: ArticleCache.magic)
        w.string(ArticleCache.maker)
        w.string(key)
        w.int(fonts.count)
        for f in fonts {
            w.string(f.path)
            w.int(f.stamp.size)
            w.int(f.stamp.modified)
        }
        w.string(Self.digest(payload))
        w.plain(payloadStart == 0 ? held : Array(payload))
        return w.bytes
    }

    /// A CRC-32 of the payload: it finds damage (the key says what the entry is for). It is
    /// zlib's CRC-32, computed by libdeflate with the CPU's carry-less multiply: zlib's own took
    /// 10 to 20 ms over the 25 MB of entries a cached rebuild of the bench's issue reads before
    /// any page is drawn, libdeflate 2.6 ms.
    static func digest(_ payload: ArraySlice<UInt8>) -> String {
        let crc = payload.withUnsafeBufferPointer { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        return String(crc, radix: 16)
    }

    /// The largest entry read: far more than the layout of the largest input Galley reads takes.
    static let largest = 1 << 34

    static func read(_ path: String, key: String) -> Result<Entry, Problem> {
        // A FIFO or a device at the entry's name is not read (it would wait, or never end).
        guard case .success(let bytes) = RawIO.readRegularFile(path, limit: Self.largest), bytes.starts(with: ArticleCache.magic)
        else { return .failure(.damaged) }
        var r = ByteReader(bytes, from: ArticleCache.magic.count)
        do {
            guard try r.string() == ArticleCache.maker else { return .failure(.otherMaker) }
            guard try r.string() == key else { return .failure(.otherInput) }
            var fonts: [(String, FileStamp)] = []
            for _ in 0..<(try r.int(in: 0..<100_000)) {
                fonts.append((try r.string(), FileStamp(size: try r.int(), modified: try r.int())))
            }
            let digest = try r.string()
            // The payload runs to the end of the file, its length before it.
            guard try r.int() == bytes.count - r.offset else { return .failure(.damaged) }
            let entry = Entry(key: key, fonts: fonts, held: bytes, payloadStart: r.offset)
            guard digest == Self.digest(entry.payload) else { return .failure(.damaged) }
            return .success(entry)
        } catch {
            return .failure(.damaged)
        }
    }
}
