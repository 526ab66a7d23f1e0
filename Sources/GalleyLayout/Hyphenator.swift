import CHyphen
import FoundationEssentials
import GalleySupport
import Glibc
import Synchronization

/// Hyphenation settings (from the template).
package struct HyphenationRules: Sendable, Equatable {
    package var enabled: Bool
    /// Words shorter than this (in characters) are never hyphenated.
    package var minWord: Int
    /// Characters kept before / after a hyphen.
    package var leftMin: Int
    package var rightMin: Int
    /// Hyphenate words written in capitals.
    package var capitals: Bool
    /// Most consecutive lines ending in a hyphen.
    package var maxConsecutive: Int
    /// Measures narrower than this, points, take `narrowMinWord` and `narrowMaxConsecutive`.
    package var narrowBelow = 0.0
    package var narrowMinWord = 5
    package var narrowMaxConsecutive = 3

    /// The rules for lines `measure` points wide: a narrow measure has fewer places to break, so
    /// it hyphenates shorter words and lets more hyphens run on, as the template allows.
    package func forMeasure(_ measure: Double) -> HyphenationRules {
        guard measure < narrowBelow else { return self }
        var r = self
        (r.minWord, r.maxConsecutive) = (narrowMinWord, narrowMaxConsecutive)
        return r
    }

    package init(
        enabled: Bool = true, minWord: Int = 6, leftMin: Int = 2, rightMin: Int = 3, capitals: Bool = false, maxConsecutive: Int = 2
    ) {
        self.enabled = enabled
        self.minWord = minWord
        self.leftMin = leftMin
        self.rightMin = rightMin
        self.capitals = capitals
        self.maxConsecutive = maxConsecutive
    }
}

/// A libhyphen dictionary. Loading one costs 8–17 ms, so each language is loaded once per
/// process, on first use or by `preload()` on a thread of its own (off the start-up path);
/// hyphenating only reads the dictionary, so every thread shares it.
package final class Hyphenator: @unchecked Sendable {
    /// The dictionary file.
    package let path: String
    private let loading = Lock()
    private var loadedDict: UnsafeMutablePointer<HyphenDict>?
    private var failed = false

    private init(path: String) {
        self.path = path
    }

    deinit { if let d = loadedDict { hnj_hyphen_free(d) } }

    /// The dictionary, loaded on first use (callers racing the loader wait for it).
    private var dict: UnsafeMutablePointer<HyphenDict>? {
        loading.lock()
        defer { loading.unlock() }
        if loadedDict == nil && !failed {
            loadedDict = hnj_hyphen_load(path)
            failed = loadedDict == nil
        }
        return loadedDict
    }

    /// Starts loading the dictionary on a thread of its own.
    package func preload() {
        startThread { [self] in _ = dict }
    }

    /// Where dictionaries are looked for: `GALLEY_HYPHEN_DIR`, then Debian's folder.
    static var directories: [String] {
        var dirs = ["/usr/share/hyphen"]
        if let d = ProcessInfo.processInfo.environment["GALLEY_HYPHEN_DIR"] { dirs.insert(d, at: 0) }
        return dirs
    }

    private static let loaded = Mutex<[String: Hyphenator?]>([:])

    /// The dictionary for a BCP 47 language ("en", "en-GB", "de-CH", "pt-BR"), or nil when none is installed.
    package static func forLanguage(_ language: String) -> Hyphenator? {
        let key = language.lowercased()
        return loaded.withLock { loaded in
            if let h = loaded[key] { return h }
            let h = dictionaryFile(for: language).map { Hyphenator(path: $0) }
            loaded[key] = h
            return h
        }
    }

    /// The file for a language: exact region first, then the language's usual region, then any.
    static func dictionaryFile(for language: String) -> String? {
        let parts = language.replacing("_", with: "-").split(separator: "-").map(String.init)
        guard let lang = parts.first?.lowercased(), !lang.isEmpty else { return nil }
        let region = parts.dropFirst().first { $0.count == 2 }?.uppercased()
        let usual = ["en": "US", "de": "DE", "fr": "FR", "es": "ES", "it": "IT", "nl": "NL", "pt": "PT"][lang]
        var names: [String] = []
        if let region { names.append("hyph_\(lang)_\(region).dic") }
        if let usual { names.append("hyph_\(lang)_\(usual).dic") }
        names.append("hyph_\(lang).dic")
        let fm = FileManager.default
        for dir in directories {
            for n in names where fm.fileExists(atPath: dir + "/" + n) { return dir + "/" + n }
            if let any = (try? fm.contentsOfDirectory(atPath: dir))?.sorted().first(where: {
                $0.hasPrefix("hyph_\(lang)_") && $0.hasSuffix(".dic")
            }) {
                return dir + "/" + any
            }
        }
        return nil
    }

    /// Character offsets inside `word` after which it may be hyphenated (1..<count).
    package func points(_ word: String, leftMin: Int, rightMin: Int) -> [Int] {
        let lower = word.lowercased()
        let chars = lower.unicodeScalars.count
        guard chars == word.unicodeScalars.count, chars >= leftMin + rightMin else { return [] }
        guard let dict else { return [] }
        // UTF-8 dictionaries take UTF-8; the others (de, nl, pt-PT) ISO 8859-1, one byte a character.
        let bytes: [UInt8]
        if dict.pointee.utf8 != 0 {
            bytes = Array(lower.utf8)
        } else {
            guard lower.unicodeScalars.allSatisfy({ $0.value <= 0xFF }) else { return [] }
            bytes = lower.unicodeScalars.map { UInt8($0.value) }
        }
        var hyphens = [CChar](repeating: 0, count: bytes.count + 5)
        // libhyphen also reads the word as a C string (strstr for its NOHYPHEN patterns): it
        // gets a terminating NUL, which the length passed leaves out.
        let terminated = bytes + [0]
        let status = terminated.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { c in
                galley_hyphenate(dict, c.baseAddress, Int32(bytes.count), &hyphens, Int32(leftMin), Int32(rightMin))
            }
        }
        guard status == 0 else { return [] }
        // Either way the result is indexed by character.
        var out: [Int] = []
        for i in 0..<(chars - 1) where hyphens[i] & 1 == 1 {
            let after = i + 1
            if after >= leftMin && chars - after >= rightMin { out.append(after) }
        }
        return out
    }
}
