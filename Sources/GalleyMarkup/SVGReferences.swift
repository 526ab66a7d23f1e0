import GalleySupport

/// The files an SVG draws from besides itself: the targets of its `href` and `xlink:href`
/// attributes (an `<image>`, a `<use>` of another file's symbol) that name files librsvg will
/// read, that is, files in the SVG's folder or below it (its loading policy). `watch` watches
/// them and a depfile lists them, like the images a text names directly.
///
/// A light scan of the attributes rather than an XML parse: it may name a file librsvg would
/// not read (an `href` in a comment), which costs a watch or a rule and never a wrong page.
package enum SVGReferences {
    /// The files the SVGs among `files` (by their `.svg` extension) draw from, and those drawn
    /// from by the SVGs among them, in the order first met; none that `files` lists already,
    /// and none that does not exist.
    package static func files(of files: [String]) -> [String] {
        var known = Set(files)
        var found: [String] = []
        var pending = files.filter(isSVG)
        while let svg = pending.popLast() {
            for file in references(of: svg) where known.insert(file).inserted {
                found.append(file)
                if isSVG(file) { pending.append(file) }
            }
        }
        return found
    }

    package static func isSVG(_ path: String) -> Bool { path.lowercased().hasSuffix(".svg") }

    /// The files `svg`'s attributes name, each as written and as a path, and whether librsvg
    /// reads it: in the SVG's folder or below (its loading policy) and there.
    private static func targets(of svg: String) -> [(written: String, path: String, admitted: Bool, exists: Bool)] {
        guard case .success(let bytes) = RawIO.readFile(svg) else { return [] }
        let folder = FileRoot(FilePath.directory(of: svg))
        return hrefs(in: bytes).compactMap { value in
            guard let relative = localPath(value) else { return nil }
            let path = relative.hasPrefix("/") ? relative : FilePath.join(FilePath.directory(of: svg), relative)
            let admitted = folder.admits(path)
            return (value, path, admitted, admitted && FileIdentity.status(path) != nil)
        }
    }

    /// The existing files under `svg`'s folder that its attributes name.
    static func references(of svg: String) -> [String] {
        targets(of: svg).filter(\.exists).map(\.path)
    }

    /// The files `svg`'s attributes name that librsvg will not draw, each as written and why:
    /// missing, or outside the SVG's folder (its loading policy). The picture is drawn
    /// without them.
    package static func unusable(of svg: String) -> [(written: String, why: String)] {
        var seen = Set<String>()
        return targets(of: svg).compactMap { t in
            guard !t.exists, seen.insert(t.written).inserted else { return nil }
            return (t.written, t.admitted ? "it does not exist" : "it is outside the SVG's folder, which librsvg does not read from")
        }
    }

    /// The families an SVG's text asks for, first of each `font-family` list (an attribute or
    /// a style's property), as librsvg gives them to fontconfig: a depfile lists their fonts.
    package static func fontFamilies(of svg: String) -> [String] {
        guard case .success(let bytes) = RawIO.readFile(svg) else { return [] }
        let name = Array("font-family".utf8)
        var families: [String] = []
        var i = 0
        while i + name.count < bytes.count {
            defer { i += 1 }
            guard var j = separator(after: name, at: i, in: bytes, ["=", ":"]) else { continue }
            let attribute = bytes[j] == UInt8(ascii: "=")
            j += 1
            func skipSpaces() { while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 } }
            skipSpaces()
            let quotes: Set<UInt8> = [UInt8(ascii: "\""), UInt8(ascii: "'")]
            // An attribute's own quote, then the first family: quoted, or up to what ends it.
            if attribute, j < bytes.count, quotes.contains(bytes[j]) {
                j += 1
                skipSpaces()
            }
            var end = j
            if j < bytes.count, quotes.contains(bytes[j]) {
                let quote = bytes[j]
                j += 1
                end = j
                while end < bytes.count, bytes[end] != quote, end - j < 256 { end += 1 }
            } else {
                let stops: Set<UInt8> = quotes.union([UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "}"), UInt8(ascii: "<"), 0x0A])
                while end < bytes.count, !stops.contains(bytes[end]), end - j < 256 { end += 1 }
            }
            let first = decodeEntities(String(decoding: bytes[j..<end], as: UTF8.self)).trimmed()
            if !first.isEmpty, !families.contains(first) { families.append(first) }
            i = end
        }
        return families
    }

    /// Where the separator (one of `separators`) after `name` at byte `i` is, white space
    /// between them passed over; nil when `name` is not at `i` or no separator follows it.
    private static func separator(after name: [UInt8], at i: Int, in bytes: [UInt8], _ separators: [Unicode.Scalar]) -> Int? {
        guard bytes[i] == name[0], i + name.count <= bytes.count, Array(bytes[i..<i + name.count]) == name else { return nil }
        var j = i + name.count
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
        guard j < bytes.count, separators.contains(where: { bytes[j] == UInt8(ascii: $0) }) else { return nil }
        return j
    }

    /// The values of every `href` attribute (`xlink:href` included), entities decoded.
    static func hrefs(in bytes: [UInt8]) -> [String] {
        let name = Array("href".utf8)
        var values: [String] = []
        var i = 0
        while i + name.count < bytes.count {
            defer { i += 1 }
            // A whole attribute name: after a space or the `xlink:` prefix.
            guard i > 0, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":")].contains(bytes[i - 1]),
                var j = separator(after: name, at: i, in: bytes, ["="])
            else { continue }
            j += 1
            while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
            guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") else { continue }
            let quote = bytes[j]
            guard let end = bytes[(j + 1)...].firstIndex(of: quote) else { break }
            values.append(decodeEntities(String(decoding: bytes[(j + 1)..<end], as: UTF8.self)))
            i = end
        }
        return values
    }

    /// A reference's file as a path: nil for one within the document (`#id`), inline data, or
    /// another scheme than `file:`. The fragment is dropped and `%XX` escapes decoded.
    static func localPath(_ value: String) -> String? {
        var v = value.trimmed()
        if let hash = v.firstIndex(of: "#") { v = String(v[..<hash]) }
        if v.hasPrefix("file://") { v = String(v.dropFirst(7)) }
        guard !v.isEmpty else { return nil }
        // A scheme: letters, digits, `+`, `-` or `.` before a colon that comes before any slash.
        if let colon = v.firstIndex(of: ":"), !v[..<colon].contains("/") { return nil }
        return percentDecoded(v)
    }

    static func percentDecoded(_ s: String) -> String {
        var out: [UInt8] = []
        let b = Array(s.utf8)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "%"), i + 2 < b.count,
                let byte = UInt8(String(decoding: b[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
            {
                out.append(byte)
                i += 3
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `s` with its character references (`&amp;`, `&#65;`) as the markup reads them
    /// (`Entities`); one that is not a known reference stays as written.
    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        let b = Array(s.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "&"), case .scalar(let scalar, let length) = Entities.scan(b, at: i) {
                out += Array(String(Character(scalar)).utf8)
                i += length
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
