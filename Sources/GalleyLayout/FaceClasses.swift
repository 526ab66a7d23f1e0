import CPango

/// What kind of type a family is: what a substitute must be to keep the page as it was meant.
package enum FaceClass: String, CaseIterable, Sendable {
    case oldStyle, transitional, didone, slab
    case grotesque, humanist, geometric
    case monospace, script, display
    case cjkSerif, cjkSans, cjkKai

    /// How a warning names the class ("a didone serif").
    package var phrase: String {
        switch self {
        case .oldStyle: "an old-style serif"
        case .transitional: "a transitional serif"
        case .didone: "a didone serif"
        case .slab: "a slab serif"
        case .grotesque: "a grotesque sans"
        case .humanist: "a humanist sans"
        case .geometric: "a geometric sans"
        case .monospace: "a monospace"
        case .script: "a script"
        case .display: "a display face"
        case .cjkSerif: "a CJK serif (Song/Ming/Mincho)"
        case .cjkSans: "a CJK sans (Hei/Gothic)"
        case .cjkKai: "a CJK Kai"
        }
    }

    /// The installed face (a package `make setup` installs) that stands in for any family of the
    /// class with no clone of its own.
    package var standIn: String {
        switch self {
        case .oldStyle: "P052"  // URW's Palatino
        case .transitional: "Nimbus Roman"  // URW's Times
        case .didone: "C059"  // URW's Century Schoolbook: Debian packages no Latin didone
        case .slab: "Roboto Slab"
        case .grotesque: "Nimbus Sans"
        case .humanist: "Carlito"
        case .geometric: "URW Gothic"
        case .monospace: "DejaVu Sans Mono"
        case .script: "Z003"
        case .display: "Comic Neue"
        case .cjkSerif: "Noto Serif CJK SC"
        case .cjkSans: "Noto Sans CJK SC"
        case .cjkKai: "AR PL UKai CN"
        }
    }

    /// When the stand-in is not of the class itself, what it is (said in the warning).
    package var standInCaveat: String? {
        self == .didone ? "a Century, the nearest Debian packages" : nil
    }

    /// A family of the class with condensed faces, for a condensed request ("Futura Condensed"):
    /// fontconfig ranks family above width, so the width must be asked for by family.
    package var condensed: String? {
        switch self {
        case .grotesque: "Nimbus Sans Narrow"
        case .humanist, .geometric: "DejaVu Sans"  // its Condensed faces are of the same family
        case .oldStyle, .transitional, .didone, .slab: "DejaVu Serif"
        default: nil
        }
    }

    package var isCJK: Bool { self == .cjkSerif || self == .cjkSans || self == .cjkKai }
}

/// Common Apple, Windows and Adobe families, each with its class and, where Debian has one, its
/// clone: metric-compatible (Liberation, Croscore, Carlito, Caladea, URW base 35) or of the same
/// design (Menlo is DejaVu Sans Mono). The rest resolve to their class's stand-in.
package enum FaceClasses {
    package struct Entry: Sendable {
        package let family: String
        package let kind: FaceClass
        package let clone: String?
    }

    private static func e(_ family: String, _ kind: FaceClass, _ clone: String? = nil) -> Entry {
        Entry(family: family, kind: kind, clone: clone)
    }

    package static let table: [Entry] = serifs + sanses + others + cjk

    private static let serifs: [Entry] = [
        e("Garamond", .oldStyle), e("Adobe Garamond Pro", .oldStyle), e("Garamond Premier Pro", .oldStyle),
        e("Minion Pro", .oldStyle), e("Minion", .oldStyle), e("Hoefler Text", .oldStyle), e("Big Caslon", .oldStyle),
        e("Adobe Caslon Pro", .oldStyle), e("Caslon", .oldStyle), e("Goudy Old Style", .oldStyle), e("Bembo", .oldStyle),
        e("Sabon", .oldStyle), e("Cochin", .oldStyle), e("Iowan Old Style", .oldStyle), e("Calisto MT", .oldStyle),
        e("Palatino", .oldStyle, "P052"), e("Palatino Linotype", .oldStyle, "P052"), e("Book Antiqua", .oldStyle, "P052"),
        e("Bookman", .oldStyle, "URW Bookman"), e("ITC Bookman", .oldStyle, "URW Bookman"),
        e("Bookman Old Style", .oldStyle, "URW Bookman"),
        e("Times", .transitional, "Nimbus Roman"), e("Times Roman", .transitional, "Nimbus Roman"),
        e("Times New Roman", .transitional, "Liberation Serif"), e("Baskerville", .transitional),
        e("Baskerville Old Face", .transitional), e("Georgia", .transitional), e("Charter", .transitional),
        e("Cambria", .transitional, "Caladea"), e("Constantia", .transitional), e("Perpetua", .transitional),
        e("Mrs Eaves", .transitional), e("Lucida Bright", .transitional), e("Sylfaen", .transitional),
        e("Century Schoolbook", .transitional, "C059"), e("New Century Schoolbook", .transitional, "C059"),
        e("Century", .transitional, "C059"),
        e("Didot", .didone), e("Linotype Didot", .didone), e("Bodoni 72", .didone), e("Bodoni 72 Oldstyle", .didone),
        e("Bodoni MT", .didone), e("Bodoni", .didone), e("ITC Bodoni", .didone), e("Bauer Bodoni", .didone),
        e("Walbaum", .didone), e("Modern No. 20", .didone),
        e("American Typewriter", .slab), e("Rockwell", .slab), e("Clarendon", .slab), e("Superclarendon", .slab),
        e("Memphis", .slab), e("Museo Slab", .slab), e("Archer", .slab), e("Egyptienne", .slab),
    ]

    private static let sanses: [Entry] = [
        e("Helvetica", .grotesque, "Nimbus Sans"), e("Helvetica Neue", .grotesque), e("Arial", .grotesque, "Liberation Sans"),
        e("Arial Narrow", .grotesque, "Nimbus Sans Narrow"), e("Helvetica Narrow", .grotesque, "Nimbus Sans Narrow"),
        e("Arial Black", .grotesque), e("Impact", .grotesque), e("Franklin Gothic", .grotesque),
        e("Franklin Gothic Medium", .grotesque), e("ITC Franklin Gothic", .grotesque), e("Akzidenz-Grotesk", .grotesque),
        e("Univers", .grotesque), e("Neue Haas Grotesk", .grotesque), e("SF Pro", .grotesque),
        e("SF Pro Display", .grotesque), e("SF Pro Text", .grotesque), e("San Francisco", .grotesque),
        e("Roboto", .grotesque), e("Inter", .grotesque), e("Microsoft Sans Serif", .grotesque),
        e("Optima", .humanist), e("Gill Sans", .humanist), e("Gill Sans MT", .humanist), e("Myriad Pro", .humanist),
        e("Myriad", .humanist), e("Segoe UI", .humanist), e("Calibri", .humanist, "Carlito"),
        e("Verdana", .humanist, "DejaVu Sans"), e("Tahoma", .humanist, "DejaVu Sans"), e("Trebuchet MS", .humanist),
        e("Lucida Grande", .humanist), e("Lucida Sans", .humanist), e("Lucida Sans Unicode", .humanist),
        e("Frutiger", .humanist), e("Candara", .humanist), e("Corbel", .humanist), e("Skia", .humanist),
        e("Seravek", .humanist), e("Open Sans", .humanist),
        e("Futura", .geometric), e("Avenir", .geometric), e("Avenir Next", .geometric),
        e("Century Gothic", .geometric, "URW Gothic"), e("ITC Avant Garde Gothic", .geometric, "URW Gothic"),
        e("Avant Garde", .geometric, "URW Gothic"), e("Gotham", .geometric), e("Proxima Nova", .geometric),
        e("Montserrat", .geometric), e("Kabel", .geometric),
    ]

    private static let others: [Entry] = [
        e("Menlo", .monospace, "DejaVu Sans Mono"), e("Monaco", .monospace), e("Courier", .monospace, "Nimbus Mono PS"),
        e("Courier New", .monospace, "Liberation Mono"), e("Consolas", .monospace), e("Andale Mono", .monospace),
        e("Lucida Console", .monospace), e("Lucida Sans Typewriter", .monospace), e("SF Mono", .monospace),
        e("Source Code Pro", .monospace), e("Inconsolata", .monospace), e("PT Mono", .monospace),
        e("Cascadia Code", .monospace), e("Cascadia Mono", .monospace),
        e("Zapfino", .script), e("Zapf Chancery", .script, "Z003"), e("ITC Zapf Chancery", .script, "Z003"),
        e("Apple Chancery", .script), e("Snell Roundhand", .script), e("Brush Script MT", .script),
        e("Lucida Handwriting", .script), e("Edwardian Script ITC", .script), e("Savoye LET", .script),
        e("Bradley Hand", .script), e("Segoe Script", .script), e("Mistral", .script), e("Monotype Corsiva", .script),
        e("Marker Felt", .display), e("Chalkboard", .display), e("Chalkboard SE", .display), e("Chalkduster", .display),
        e("Copperplate", .display), e("Copperplate Gothic", .display), e("Papyrus", .display), e("Herculanum", .display),
        e("Comic Sans MS", .display, "Comic Neue"), e("Trattatello", .display), e("Luminari", .display),
        e("Phosphate", .display), e("Stencil", .display), e("Cooper Black", .display), e("Algerian", .display),
        e("Broadway", .display), e("Curlz MT", .display),
    ]

    private static let cjk: [Entry] = [
        e("PingFang SC", .cjkSans), e("PingFang TC", .cjkSans, "Noto Sans CJK TC"), e("PingFang HK", .cjkSans, "Noto Sans CJK HK"),
        e("Hiragino Sans", .cjkSans, "Noto Sans CJK JP"), e("Hiragino Kaku Gothic ProN", .cjkSans, "Noto Sans CJK JP"),
        e("STHeiti", .cjkSans), e("STHeiti SC", .cjkSans), e("STHeiti TC", .cjkSans, "Noto Sans CJK TC"), e("Heiti SC", .cjkSans),
        e("Heiti TC", .cjkSans, "Noto Sans CJK TC"),
        e("Microsoft YaHei", .cjkSans), e("Microsoft JhengHei", .cjkSans, "Noto Sans CJK TC"), e("SimHei", .cjkSans),
        e("Apple SD Gothic Neo", .cjkSans, "Noto Sans CJK KR"), e("Malgun Gothic", .cjkSans, "Noto Sans CJK KR"),
        e("Meiryo", .cjkSans, "Noto Sans CJK JP"), e("Yu Gothic", .cjkSans, "Noto Sans CJK JP"),
        e("MS Gothic", .cjkSans, "Noto Sans CJK JP"), e("Source Han Sans SC", .cjkSans, "Noto Sans CJK SC"),
        e("STSong", .cjkSerif), e("Songti SC", .cjkSerif), e("Songti TC", .cjkSerif, "Noto Serif CJK TC"),
        e("SimSun", .cjkSerif), e("NSimSun", .cjkSerif), e("STFangsong", .cjkSerif), e("FangSong", .cjkSerif),
        e("Hiragino Mincho ProN", .cjkSerif, "Noto Serif CJK JP"), e("MS Mincho", .cjkSerif, "Noto Serif CJK JP"),
        e("Yu Mincho", .cjkSerif, "Noto Serif CJK JP"), e("PMingLiU", .cjkSerif, "Noto Serif CJK TC"),
        e("MingLiU", .cjkSerif, "Noto Serif CJK TC"), e("AppleMyungjo", .cjkSerif, "Noto Serif CJK KR"),
        e("Batang", .cjkSerif, "Noto Serif CJK KR"), e("Source Han Serif SC", .cjkSerif, "Noto Serif CJK SC"),
        e("STKaiti", .cjkKai), e("Kaiti SC", .cjkKai), e("KaiTi", .cjkKai), e("Kaiti TC", .cjkKai, "AR PL UKai TW"),
        e("BiauKai", .cjkKai, "AR PL UKai TW"), e("DFKai-SB", .cjkKai, "AR PL UKai TW"),
    ]
}

extension FaceClasses {
    /// Table entries by normalized family name.
    private static let byName: [String: Entry] = Dictionary(
        table.map { (normalized($0.family), $0) }, uniquingKeysWith: { first, _ in first })

    /// The class of each family a substitution may end on: clones and stand-ins, and the faces
    /// fontconfig's own rules pick for Apple and Windows names.
    private static let classOfFamily: [String: FaceClass] = {
        var map: [String: FaceClass] = [
            "dejavusans": .humanist, "dejavuserif": .transitional, "liberationsans": .grotesque, "arimo": .grotesque,
            "liberationserif": .transitional, "tinos": .transitional, "cousine": .monospace, "liberationmono": .monospace,
            "nimbusmonops": .monospace, "nimbussansnarrow": .grotesque,
        ]
        for entry in table { if let clone = entry.clone { map[normalized(clone)] = entry.kind } }
        for kind in FaceClass.allCases where map[normalized(kind.standIn)] == nil { map[normalized(kind.standIn)] = kind }
        return map
    }()

    /// Clones with the metrics of the family they stand for (the same line breaks).
    private static let metricClones: Set<String> = [
        "nimbussans", "nimbussansnarrow", "liberationsans", "nimbusroman", "liberationserif", "caladea", "carlito",
        "p052", "urwbookman", "c059", "urwgothic", "nimbusmonops", "liberationmono", "z003",
    ]

    /// Lower case without spaces, hyphens or underscores: how fontconfig compares families.
    package static func normalized(_ s: String) -> String {
        String(s.lowercased().unicodeScalars.filter { $0 != " " && $0 != "-" && $0 != "_" })
    }

    /// The entry whose family begins the face name: "Helvetica Neue Light", "Helvetica-Bold".
    package static func entry(for name: String) -> Entry? {
        let words = name.split(whereSeparator: { $0 == " " || $0 == "-" })
        for count in stride(from: words.count, through: 1, by: -1) {
            if let (e, _) = entry(runningOn: words[..<count].joined()) { return e }
        }
        return nil
    }

    /// The entry of a family named without spaces, and the width word run on to it, as
    /// PostScript names write them ("HelveticaNeue"; "AvenirNextCondensed": Avenir Next,
    /// "condensed"), the longest width word tried first.
    package static func entry(runningOn name: String) -> (Entry, width: String?)? {
        let key = normalized(name)
        if let e = byName[key] { return (e, nil) }
        for word in widthSuffixes where key.hasSuffix(word) && key.count > word.count {
            if let e = byName[String(key.dropLast(word.count))] { return (e, word) }
        }
        return nil
    }

    private static let widthSuffixes = FontProbe.widthWords.keys.sorted { $0.count > $1.count }

    /// Whether the table has a family of this name.
    package static func isFamily(_ name: String) -> Bool { byName[normalized(name)] != nil }

    /// The class of an installed family, when the table knows it.
    package static func kind(ofFamily family: String) -> FaceClass? { classOfFamily[normalized(family)] }

    /// The generic families fontconfig's configuration names (as CSS does): a face asked by
    /// kind, which the system's default for the kind answers, never a family to install.
    static let generics: Set<String> = [
        "serif", "sans-serif", "sans", "monospace", "mono", "cursive", "fantasy", "system-ui", "emoji", "math",
    ]

    package static func isGeneric(_ name: String) -> Bool { generics.contains(name.lowercased()) }

    /// Why `used` stands in for the face `name`, said in the substitution warning; nil for a
    /// name the table does not know.
    package static func reason(for name: String, using used: String) -> String? {
        guard let entry = entry(for: name) else { return nil }
        let kind = entry.kind
        let u = normalized(used)
        if let clone = entry.clone, normalized(clone) == u {
            return metricClones.contains(u) ? "\(kind.phrase), metric-compatible" : "\(kind.phrase), the nearest design"
        }
        if u == normalized(kind.standIn) {
            return kind.standInCaveat.map { "for \(kind.phrase): \($0)" } ?? kind.phrase
        }
        guard let other = classOfFamily[u] else { return "no \(kind.phrase.split(separator: " ", maxSplits: 1)[1]) is installed" }
        return other == kind ? kind.phrase : "\(other.phrase), for \(kind.phrase)"
    }

    /// fontconfig rules that send each family of the table, when it is not installed, to its
    /// clone and then to its class's stand-in, and a condensed request to a family with condensed
    /// faces. Each is put right after the name (an installed face of that name still wins, and the
    /// generic families fontconfig appends come later), and only when the name is the first
    /// family asked for: the generic families' own lists ("serif": …, Times New Roman, …) must
    /// keep the fallback order fontconfig gives them.
    package static func fontconfigRules() -> String {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n<fontconfig>\n"
        for entry in table {
            let families = [entry.clone, entry.kind.standIn].compactMap { $0 }
            let accept = families.enumerated().filter { i, f in families.firstIndex(of: f) == i }.map(\.element)
            xml += "<match target=\"pattern\"><test qual=\"first\" name=\"family\"><string>\(entry.family)</string></test>"
            xml += "<edit name=\"family\" mode=\"append\" binding=\"same\">"
            xml += accept.map { "<string>\($0)</string>" }.joined() + "</edit></match>\n"
        }
        // After those: `append` puts the condensed family right after the name, ahead of them.
        for entry in table {
            guard let condensed = entry.kind.condensed, entry.clone?.contains("Narrow") != true else { continue }
            xml += "<match target=\"pattern\"><test qual=\"first\" name=\"family\"><string>\(entry.family)</string></test>"
            xml += "<test name=\"width\" compare=\"less\"><int>100</int></test>"
            xml += "<edit name=\"family\" mode=\"append\" binding=\"same\"><string>\(condensed)</string></edit></match>\n"
        }
        return xml + "</fontconfig>\n"
    }

    /// Loads the rules into fontconfig's current configuration, once per process, before the
    /// first font map is made (every `TextEngine` asks; Pango's font maps use that configuration).
    package static let rulesLoaded: Bool = {
        let xml = Array(fontconfigRules().utf8) + [0]
        return FcConfigParseAndLoadFromMemory(FcConfigGetCurrent(), xml, FcBool(FcTrue)) != 0
    }()
}
