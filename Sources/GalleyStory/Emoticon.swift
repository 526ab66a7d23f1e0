import FoundationEssentials
import GalleyMarkup
import GalleySupport
import GalleyTemplate
import Glibc

/// What an emoticon code such as `[微笑]` stands for.
public enum Emoticon: Sendable, Equatable {
    /// Unicode emoji text, kept whole (ZWJ, skin-tone and flag sequences included).
    case emoji(String)
    /// An image file (PNG or SVG), as an absolute path, set inline in the line.
    case image(path: String)
}

/// Emoticon codes and what they stand for: the built-in Weibo pack, with pack folders loaded on
/// top of it (a later pack overrides the codes it shares with earlier ones).
///
/// A pack folder holds a `pack.json`:
///
/// ```json
/// {"name": "my pack", "emoticons": {"[微笑]": "smile.png", "[doge]": "doge.svg", "[赞]": {"emoji": "👍"}}}
/// ```
///
/// A string value is an image file relative to the pack folder (PNG or SVG, which must exist);
/// an object `{"emoji": "…"}` is Unicode emoji text. Codes are written in brackets, with no
/// spaces or brackets inside. `name` is optional (the folder's name stands in); `description`,
/// `author`, `license` and `version` may be given and are not used; any other key is an error.
public struct EmoticonPacks: Sendable {
    /// Code with brackets → emoticon.
    private var table: [String: Emoticon]
    /// The names of the packs in the order they were added.
    public private(set) var names: [String]
    /// The files read to load the packs: each folder's pack.json (its images are `imagePaths`).
    public private(set) var files: [String] = []
    /// The image files the packs name.
    public var imagePaths: [String] {
        table.values.compactMap { if case .image(let path) = $0 { path } else { nil } }
    }
    /// The longest code, in Unicode scalars (brackets included): longer bracketed text is never looked up.
    public private(set) var longestCode: Int

    init(name: String, table: [String: Emoticon]) {
        self.table = table
        names = [name]
        longestCode = table.keys.map(\.unicodeScalars.count).max() ?? 0
    }

    /// The default pack: common Weibo codes as Unicode emoji (`EmoticonBuiltin.table`).
    public static let builtin = EmoticonPacks(
        name: "builtin", table: Dictionary(EmoticonBuiltin.table.map { ($0.code, .emoji($0.emoji)) }) { _, last in last })

    /// No emoticons at all.
    public static let none = EmoticonPacks(name: "none", table: [:])

    /// What a code stands for; `code` includes its brackets (`"[微笑]"`).
    public func lookup(_ code: String) -> Emoticon? { table[code] }

    /// Every code, sorted (for listings and tests).
    public var codes: [String] { table.keys.sorted() }

    /// These packs with the pack in `folder` (its `pack.json`) loaded on top.
    public func adding(folder: String) -> Result<EmoticonPacks, Diagnostic> {
        switch EmoticonPackLoader.load(folder: folder) {
        case .failure(let d): return .failure(d)
        case .success(let pack):
            var packs = adding(name: pack.name, emoticons: pack.emoticons)
            packs.files.append(FilePath.join(folder, "pack.json"))
            return .success(packs)
        }
    }

    /// These packs with more codes on top (a code already known is replaced).
    public func adding(name: String, emoticons: [String: Emoticon]) -> EmoticonPacks {
        var copy = self
        copy.table.merge(emoticons) { _, new in new }
        copy.names.append(name)
        copy.longestCode = max(longestCode, emoticons.keys.map(\.unicodeScalars.count).max() ?? 0)
        return copy
    }
}

/// Reads one pack folder's `pack.json` into codes, checking every value.
enum EmoticonPackLoader {
    struct Pack {
        var name: String
        var emoticons: [String: Emoticon]
    }

    /// Top-level keys a pack may have; only `name` and `emoticons` are used.
    static let topLevelKeys = ["name", "emoticons", "description", "author", "license", "version"]

    static func load(folder: String) -> Result<Pack, Diagnostic> {
        let file = FilePath.join(folder, "pack.json")
        var standIn = FilePath.name(of: folder)
        if standIn.isEmpty || standIn == "/" { standIn = folder }
        let bytes: [UInt8]
        switch RawIO.readRegularFile(file, limit: RawIO.smallFileLimit) {
        case .success(let b): bytes = b
        case .failure(let e):
            var isFolder = false
            let exists = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
            let reason =
                !exists
                ? "the folder '\(folder)' does not exist"
                : !isFolder
                    ? "'\(folder)' is not a folder"
                    : FileManager.default.fileExists(atPath: file)
                        ? "pack.json cannot be read: \(e.message)"
                        : "there is no pack.json in '\(folder)'"
            return .failure(.error("pack '\(standIn)': \(reason)", file: file))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(.error("pack '\(standIn)': pack.json is not valid UTF-8 text", file: file))
        }
        let root: JSONValue
        switch JSONReader.parse(text) {
        case .success(let v): root = v
        case .failure(let e):
            return .failure(
                .error("pack '\(standIn)': malformed JSON: \(e.message)", file: file, at: e.location, length: e.length))
        }
        var reader = PackReader(file: file, folder: folder, name: standIn)
        do throws(Diagnostic) {
            return .success(try reader.read(root))
        } catch {
            return .failure(error)
        }
    }

    /// Checks a parsed pack; every error names the pack and points at the offending text.
    struct PackReader {
        let file: String
        let folder: String
        var name: String

        func fail(_ message: String, at location: SourceLocation? = nil, length: Int = 1) -> Diagnostic {
            .error("pack '\(name)': \(message)", file: file, at: location, length: length)
        }

        func fail(_ message: String, _ v: JSONValue) -> Diagnostic { fail(message, at: v.start, length: v.length) }

        mutating func read(_ root: JSONValue) throws(Diagnostic) -> Pack {
            guard case .object(let members) = root.kind else {
                throw fail("pack.json must be a JSON object, got \(root.described)", root)
            }
            // The name first, so that every later message can use it.
            if let m = members.last(where: { $0.key == "name" }) {
                guard case .string(let s) = m.value.kind else {
                    throw fail("\"name\" must be a string, got \(m.value.described)", m.value)
                }
                let trimmed = s.trimmed()
                guard !trimmed.isEmpty else { throw fail("\"name\" is empty", m.value) }
                name = trimmed
            }
            for m in members where !EmoticonPackLoader.topLevelKeys.contains(m.key) {
                var message = "unknown key \"\(m.key)\""
                if let guess = Suggestion.closest(to: m.key, in: EmoticonPackLoader.topLevelKeys) {
                    message += "; did you mean \"\(guess)\"?"
                }
                throw fail(message, at: m.keyStart, length: m.keyLength)
            }
            guard let list = members.last(where: { $0.key == "emoticons" }) else {
                throw fail(
                    "missing \"emoticons\", an object mapping codes such as \"[微笑]\" to image files or {\"emoji\": \"…\"}",
                    at: root.start)
            }
            guard case .object(let entries) = list.value.kind else {
                throw fail("\"emoticons\" must be an object, got \(list.value.described)", list.value)
            }
            var emoticons: [String: Emoticon] = [:]
            var seen: [String: SourceLocation] = [:]
            for entry in entries {
                try checkCode(entry)
                if let first = seen[entry.key] {
                    throw fail("\(entry.key) is defined twice (first at \(first))", at: entry.keyStart, length: entry.keyLength)
                }
                seen[entry.key] = entry.keyStart
                emoticons[entry.key] = try emoticon(entry)
            }
            return Pack(name: name, emoticons: emoticons)
        }

        /// A code is `[`, one or more characters that are not brackets or white space, `]`.
        func checkCode(_ m: JSONMember) throws(Diagnostic) {
            let code = m.key
            let scalars = Array(code.unicodeScalars)
            func isBreak(_ s: Unicode.Scalar) -> Bool { s == "[" || s == "]" || s.properties.isWhitespace }
            guard scalars.count >= 2, scalars.first == "[", scalars.last == "]" else {
                let inner = code.trimmed(of: ["[", "]", " "])
                let hint = inner.isEmpty ? "" : ", as in '[\(inner)]'"
                throw fail("code '\(code)' must be written in brackets\(hint)", at: m.keyStart, length: m.keyLength)
            }
            let inside = scalars.dropFirst().dropLast()
            if inside.isEmpty { throw fail("empty code '[]'", at: m.keyStart, length: m.keyLength) }
            if inside.contains(where: isBreak) {
                throw fail(
                    "code '\(code)' may not contain spaces or brackets inside its brackets", at: m.keyStart,
                    length: m.keyLength)
            }
        }

        /// A string is an image file in the pack folder; an object `{"emoji": "…"}` is emoji text.
        func emoticon(_ m: JSONMember) throws(Diagnostic) -> Emoticon {
            let code = m.key
            let v = m.value
            switch v.kind {
            case .string(let file):
                return .image(path: try imagePath(file, code: code, v))
            case .object(let fields):
                for f in fields where f.key != "emoji" {
                    var message = "unknown key \"\(f.key)\" in \(code)"
                    if Suggestion.closest(to: f.key, in: ["emoji"]) != nil { message += "; did you mean \"emoji\"?" }
                    throw fail(message, at: f.keyStart, length: f.keyLength)
                }
                guard let e = fields.last else { throw fail("\(code) has no \"emoji\"; write {\"emoji\": \"…\"}", v) }
                guard case .string(let emoji) = e.value.kind else {
                    throw fail("the emoji of \(code) must be a string, got \(e.value.described)", e.value)
                }
                if emoji.trimmed(newlines: true).isEmpty {
                    throw fail("\(code) has an empty emoji", e.value)
                }
                return .emoji(emoji)
            default:
                throw fail("\(code) must be an image file name or {\"emoji\": \"…\"}, got \(v.described)", v)
            }
        }

        /// The absolute path of an image named in the pack, checked to be an existing PNG or SVG.
        func imagePath(_ file: String, code: String, _ v: JSONValue) throws(Diagnostic) -> String {
            if file.trimmed().isEmpty { throw fail("\(code) has an empty file name", v) }
            var path = file.hasPrefix("/") ? file : FilePath.join(folder, file)
            if !path.hasPrefix("/") {
                path = FilePath.join(FileManager.default.currentDirectoryPath, path)
            }
            path = URL(fileURLWithPath: path).standardized.path
            // A pack may be anywhere; its images lie in its folder. Checked before the file is
            // looked at, so that a refusal says nothing of what exists outside.
            guard FileRoot(folder).admits(path) else {
                throw fail("\(code) points to '\(file)', outside the pack's folder '\(folder)'; a pack's images must lie in its folder", v)
            }
            var isFolder = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw fail("\(code) points to '\(file)', which does not exist", v)
            }
            if isFolder { throw fail("\(code) points to '\(file)', which is a folder", v) }
            switch ImageInfo.read(path: path) {
            case .failure(let e):
                throw fail("\(code) points to '\(file)', which cannot be used: \(e.message)", v)
            case .success(let info):
                if let problem = ImageLimits.problem(info, at: path, maxPixels: Template.default.maxImagePixels) {
                    throw fail("\(code) points to '\(file)', which cannot be used: \(problem)", v)
                }
                guard info.format == .png || info.format == .svg else {
                    throw fail("\(code) points to '\(file)', a \(info.format.rawValue.uppercased()) image; emoticons must be PNG or SVG", v)
                }
            }
            return path
        }
    }
}
