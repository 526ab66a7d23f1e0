import FoundationEssentials
import GalleyMarkup
import GalleySupport
import GalleyTemplate
import Glibc

/// Reading attribute values into styles: the character attributes of `<font>` and `<span>`
/// and the paragraph attributes of `<p>` and `<h1>`–`<h3>`. A bad value is reported at the value
/// (or at the bad part of it) and leaves the field as it was; the tag's other attributes apply.
///
/// Lengths are points (`3`, `3pt`, `1mm`, any unit `LengthParser` reads) or, where noted, `em`:
/// a multiple of the font size in force (for character attributes, the size the same tag sets).
extension StoryBuilder.Run {
    // MARK: - Character attributes

    /// Applies a `<font>` or `<span>`'s attributes to `scope`. `size` is read first so that `em`
    /// values of the same tag are relative to it; `dir` also opens an isolate.
    ///
    /// The style in force is changed in place, one field at a time (a copy of it costs more than
    /// most attributes do).
    mutating func applyCharacterAttributes(_ tag: MarkupTag) {
        var strokeColorGiven = false
        var strokeWidthGiven = false
        // Decoration colours are applied last; they are looked up only when given.
        var decorationColorGiven = false
        // The size this tag sets, for its em values (checked and reported in order below).
        var em = scope.text.size
        if let a = tag.attribute("size"), case .success(let v) = LengthParser.points(a.value), v > 0, v <= 2000 { em = v }
        for a in Self.lastOfEach(tag.attributes) {
            switch a.key {
            case "size":
                if let v = number(a, what: "size", positive: true, maximum: 2000) { scope.text.size = v }
            case "color":
                if let c = color(a) { scope.text.color = c }
            case "face":
                let face = a.value.trimmed()
                if face.isEmpty {
                    warning("empty face name; the face around it is kept", a)
                } else {
                    scope.text.face = face
                    if faceRequests[face] == nil { faceRequests[face] = a.valueLocation }
                }
            case "strokecolor":
                if isNone(a) {
                    scope.text.strokeColor = nil
                    scope.text.strokeWidth = 0
                    strokeWidthGiven = true
                } else if let c = color(a) {
                    scope.text.strokeColor = c
                    strokeColorGiven = true
                }
            case "strokewidth":
                if let v = percent(a, what: "strokeWidth", maximum: 100) {
                    scope.text.strokeWidth = v
                    strokeWidthGiven = true
                }
            case "weight":
                if let w = weight(a) { scope.text.weight = w }
            case "style":
                if let s = choice(a, what: "style", Slant.allCases.map { ($0.rawValue, $0) }) { scope.text.slant = s }
            case "background":
                if isNone(a) {
                    scope.text.background = nil
                } else if let c = color(a) {
                    scope.text.background = c
                }
            case "ligatures":
                switch a.value.trimmed() {
                case "0": scope.text.ligatures = 0
                case "1": scope.text.ligatures = 1
                case "2": scope.text.ligatures = 2
                default: error("ligatures must be 0, 1 or 2, got '\(a.value)'", a)
                }
            case "kern":
                if let v = length(a, what: "kern", em: em, range: -100...100) {
                    scope.text.kern = v
                    // Past half an em back, letters stand on each other (and no further: the
                    // shaper stops an advance at 0, so a line never runs backwards).
                    if v < -0.5 * em {
                        warning(
                            "kern '\(a.value)' takes back more than half of the \(StoryDump.number(em)) pt type: its letters are drawn over each other",
                            a)
                    }
                }
            case "underline":
                if let d = decoration(a, what: "underline style") {
                    let color = scope.text.underline?.color
                    scope.text.underline = d.map { Decoration(style: $0, color: color) }
                }
            case "strikethrough":
                if let d = decoration(a, what: "strikethrough style") {
                    let color = scope.text.strikethrough?.color
                    scope.text.strikethrough = d.map { Decoration(style: $0, color: color) }
                }
            case "underlinecolor", "strikethroughcolor":
                decorationColorGiven = true  // below, once the styles are known
            case "shadow":
                if let s = shadow(a, em: em) { scope.text.shadow = s }
            case "baseline":
                if let v = length(a, what: "baseline", em: em, range: -1000...1000) { scope.text.baselineOffset = v }
            case "obliqueness":
                if let v = fraction(a, what: "obliqueness") { scope.text.obliqueness = v }
            case "expansion":
                if let v = fraction(a, what: "expansion") { scope.text.expansion = v }
            case "dir":
                if let d = choice(a, what: "direction", [("ltr", StoryBuilder.Isolate.ltr), ("rtl", .rtl), ("auto", .auto)]) {
                    scope.text.direction = d == .ltr ? .ltr : d == .rtl ? .rtl : nil
                    scope.isolates.append(d)
                }
            case "features":
                if let f = features(a) { scope.text.features = f }
            case "lang":
                if let l = language(a) { scope.text.language = l }
            case "hyphenate":
                if let b = flag(a, what: "hyphenate") { scope.text.hyphenate = b }
            default: break  // the parser only passes attributes of the vocabulary
            }
        }
        // A decoration colour alone implies a single line; `underline="none"` wins over it.
        if decorationColorGiven {
            if let a = tag.attribute("underlinecolor"), let c = color(a), tag.attribute("underline").map(isNone) != true {
                scope.text.underline = Decoration(style: scope.text.underline?.style ?? .single, color: c)
            }
            if let a = tag.attribute("strikethroughcolor"), let c = color(a), tag.attribute("strikethrough").map(isNone) != true {
                scope.text.strikethrough = Decoration(style: scope.text.strikethrough?.style ?? .single, color: c)
            }
        }
        // Core Text: a stroke colour alone gives fill and stroke at -3 % of the size.
        if strokeColorGiven && !strokeWidthGiven && scope.text.strokeWidth == 0 { scope.text.strokeWidth = -3 }
    }

    // MARK: - Paragraph attributes

    /// Applies a `<p>` or heading's attributes to `scope.paragraph`. `em` is the text size in force.
    mutating func applyParagraphAttributes(_ tag: MarkupTag) {
        var p = scope.paragraph
        let em = scope.text.size
        for a in Self.lastOfEach(tag.attributes) {
            switch a.key {
            case "align":
                let options: [(String, Alignment?)] = [
                    ("left", .left), ("right", .right), ("center", .center), ("justify", .justify), ("natural", nil),
                ]
                if let align = choice(a, what: "alignment", options) {
                    if let align { p.alignment = align }
                    scope.naturalAlignment = align == nil
                }
            case "indent":
                if let v = length(a, what: "indent", em: em, range: 0...2000) { p.indent = v }
            case "firstindent":
                if let v = length(a, what: "firstIndent", em: em, range: -2000...2000) {
                    p.firstLineIndent = v
                    scope.explicitIndent = true
                }
            case "before":
                if let v = length(a, what: "before", em: em, range: 0...2000) { p.spacingBefore = v }
            case "after":
                if let v = length(a, what: "after", em: em, range: 0...2000) { p.spacingAfter = v }
            case "leading":
                let natural = em * p.leadingRatio
                if let v = length(a, what: "leading", em: em, range: -2000...2000) {
                    if natural + v <= 0 {
                        error("leading '\(a.value)' leaves no line height (lines are \(StoryDump.number(natural)) pt apart)", a)
                    } else {
                        p.lineHeight = natural + v
                        warnOverprinting(natural + v, em: em, a)
                    }
                }
            case "lineheight":
                if let v = length(a, what: "lineHeight", em: em, range: -2000...2000) {
                    if v <= 0 {
                        error("lineHeight must be greater than 0, got '\(a.value)'", a)
                    } else {
                        p.lineHeight = v
                        warnOverprinting(v, em: em, a)
                    }
                }
            case "dir":
                if let d = choice(a, what: "direction", [("ltr", WritingDirection?.some(.ltr)), ("rtl", .rtl), ("auto", nil)]) {
                    p.direction = d
                }
            case "hyphenate":
                if let b = flag(a, what: "hyphenate") { p.hyphenate = b }
            case "lang":
                // The paragraph's text is in this language (punctuation forms, line breaking).
                if let l = language(a) { scope.text.language = l }
            case "span":
                if let all = choice(a, what: "span", [("all", true), ("none", false)]) { p.spansColumns = all }
            case "dropcap":
                if let lines = dropCapLines(a) {
                    let spec = builder.template.dropCap
                    p.dropCap = DropCapRequest(lines: lines, face: spec.face, color: spec.color)
                }
            default: break
            }
        }
        scope.paragraph = p
    }

    // MARK: - Values

    /// The attributes with only the last of each name (the parser has warned about repeats).
    static func lastOfEach(_ attributes: [MarkupAttribute]) -> [MarkupAttribute] {
        if attributes.count < 2 || attributes.count <= 8 && !attributes.repeatsAName { return attributes }
        var seen: Set<String> = []
        return attributes.reversed().filter { seen.insert($0.key).inserted }.reversed()
    }

    /// Lines closer than three quarters of their type's size print over each other (display
    /// type is set solid or a little less, never this tight): said at the value.
    mutating func warnOverprinting(_ lineHeight: Double, em: Double, _ a: MarkupAttribute) {
        guard lineHeight < 0.75 * em else { return }
        warning("lines \(StoryDump.number(lineHeight)) pt apart for \(StoryDump.number(em)) pt type print over each other", a)
    }

    mutating func error(_ message: String, _ a: MarkupAttribute) {
        diagnostics.append(.error(message, file: file, at: a.valueLocation, length: max(1, a.value.unicodeScalars.count)))
    }

    /// A warning at an attribute's value, as `error` says an error there.
    mutating func warning(_ message: String, _ a: MarkupAttribute) {
        diagnostics.append(.warning(message, file: file, at: a.valueLocation, length: max(1, a.value.unicodeScalars.count)))
    }

    /// An error about part of a value: `scalars` characters from character `from` of it. Falls
    /// back to the whole value when it spans lines.
    mutating func error(_ message: String, _ a: MarkupAttribute, from: Int, scalars: Int) {
        guard !a.value.contains(where: \.isNewline) else { return error(message, a) }
        var loc = a.valueLocation
        let prefix = a.value.unicodeScalars.prefix(from)
        loc.column += prefix.count
        loc.offset += String(String.UnicodeScalarView(prefix)).utf8.count
        diagnostics.append(.error(message, file: file, at: loc, length: max(1, scalars)))
    }

    func isNone(_ a: MarkupAttribute) -> Bool {
        // Only a value of four letters, with white space around, can be `none`.
        a.value.utf8.count >= 4 && a.value.trimmed().lowercased() == "none"
    }

    mutating func color(_ a: MarkupAttribute) -> RGBA? {
        switch ColorParser.parse(a.value) {
        case .success(let c): return c
        case .failure(let e):
            error(e.message, a)
            return nil
        }
    }

    /// A number of points (any unit), checked against `maximum` and, when `positive`, above 0.
    mutating func number(_ a: MarkupAttribute, what: String, positive: Bool, maximum: Double) -> Double? {
        let raw = a.value.trimmed()
        let v: Double?
        if case .success(let p) = LengthParser.points(raw) { v = p } else { v = nil }
        guard let v, v.isFinite else {
            error("\(what) must be a number of points, got '\(a.value)'" + Self.exponentHint(raw), a)
            return nil
        }
        if positive && v <= 0 {
            error("\(what) must be greater than 0, got '\(a.value)'", a)
            return nil
        }
        if abs(v) > maximum {
            error("\(what) '\(a.value)' is out of range (at most \(Int(maximum)))", a)
            return nil
        }
        return v
    }

    /// A plain number, a percent of the font size (`strokeWidth`, as NSAttributedString has
    /// it): a length with a unit ("3mm") is refused, not read as points.
    mutating func percent(_ a: MarkupAttribute, what: String, maximum: Double) -> Double? {
        let raw = a.value.trimmed()
        guard raw.allSatisfy({ "0123456789.+-".contains($0) }), let v = Double(raw), v.isFinite else {
            let hint = Self.exponentHint(raw)
            error("\(what) must be a number, a percent of the font size (negative: filled as well), got '\(a.value)'" + hint, a)
            return nil
        }
        if abs(v) > maximum {
            error("\(what) '\(a.value)' is out of range (at most \(Int(maximum)))", a)
            return nil
        }
        return v
    }

    /// For a number written with an exponent (`1e9`), which markup does not read: why not.
    static func exponentHint(_ raw: String) -> String {
        guard raw.contains(where: { $0 == "e" || $0 == "E" }), let v = Double(raw), v.isFinite else { return "" }
        return " (write it without an exponent, as digits and a point)"
    }

    /// The scheme of a `src` that is a URL (`http`, `https`, `ftp`, `file`, `data`), nil for a
    /// path.
    static func urlScheme(_ src: String) -> String? {
        guard let colon = src.firstIndex(of: ":") else { return nil }
        let scheme = src[..<colon].lowercased()
        return ["http", "https", "ftp", "file", "data"].contains(scheme) ? scheme : nil
    }

    /// Digits, signs and points only: what a number in markup may be written with (`Double(_:)`
    /// also reads "inf", "nan", exponents and hex, which markup does not take).
    static func isPlainDecimal(_ s: some StringProtocol) -> Bool {
        s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    /// Points of a length written in points (any unit) or `em` of `em` points; nil if it is not one.
    static func points(_ raw: String, em: Double) -> Double? {
        if let v = LengthParser.fastPoints(raw) { return v }
        let s = raw.trimmed()
        if s.lowercased().hasSuffix("em") {
            let number = s.dropLast(2).trimmed()
            guard !number.isEmpty, Self.isPlainDecimal(number),
                case .success(let v) = LengthParser.points(number)
            else { return nil }
            return v * em
        }
        guard case .success(let v) = LengthParser.points(s), v.isFinite else { return nil }
        return v
    }

    /// A length in points or em, within `range`.
    mutating func length(_ a: MarkupAttribute, what: String, em: Double, range: ClosedRange<Double>) -> Double? {
        guard let v = Self.points(a.value, em: em) else {
            error("\(what) must be a number of points or em, got '\(a.value)'" + Self.exponentHint(a.value.trimmed()), a)
            return nil
        }
        // A range about 0 is said whole: "at most 100" misleads for -500.
        if range.lowerBound < 0 && !range.contains(v) {
            let bounds = "from \(StoryDump.number(range.lowerBound)) to \(StoryDump.number(range.upperBound))"
            error("\(what) '\(a.value)' is out of range (\(bounds))", a)
            return nil
        }
        if v < range.lowerBound {
            let least = range.lowerBound == 0 ? "0 or more" : "at least \(StoryDump.number(range.lowerBound)) pt"
            error("\(what) must be \(least), got '\(a.value)'", a)
            return nil
        }
        if !range.contains(v) {
            error("\(what) '\(a.value)' is out of range (at most \(Int(range.upperBound)))", a)
            return nil
        }
        return v
    }

    /// A number from -1 to 1 (obliqueness, expansion).
    mutating func fraction(_ a: MarkupAttribute, what: String) -> Double? {
        let s = a.value.trimmed()
        guard Self.isPlainDecimal(s), let v = Double(s), v.isFinite, v >= -1, v <= 1 else {
            error("\(what) must be a number from -1 to 1, got '\(a.value)'", a)
            return nil
        }
        return v
    }

    /// One of `options` (ignoring case): `unknown WHAT 'x'; did you mean 'y'?` or `…; use a, b or c`.
    /// Returns nil after reporting; `.some(nil)` when the option's value is nil.
    mutating func choice<T>(_ a: MarkupAttribute, what: String, _ options: [(String, T)]) -> T? {
        let s = a.value.trimmed()
        let lower = s.lowercased()
        if let match = options.first(where: { $0.0 == lower }) { return match.1 }
        let names = options.map(\.0)
        var message = "unknown \(what) '\(s)'"
        if let near = Suggestion.closest(to: s, in: names) {
            message += "; did you mean '\(near)'?"
        } else {
            message += "; use " + names.dropLast().joined(separator: ", ") + " or " + names.last!
        }
        error(message, a)
        return nil
    }

    /// The lines a drop cap is tall: a whole number from 2 to 10.
    mutating func dropCapLines(_ a: MarkupAttribute) -> Int? {
        let s = a.value.trimmed()
        let range = DropCapSpec.lineRange
        guard s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(s), range.contains(n) else {
            error("dropcap must be a whole number of lines from \(range.lowerBound) to \(range.upperBound), got '\(a.value)'", a)
            return nil
        }
        return n
    }

    /// `true` or `false`.
    mutating func flag(_ a: MarkupAttribute, what: String) -> Bool? {
        switch a.value.trimmed().lowercased() {
        case "true": return true
        case "false": return false
        default:
            error("\(what) must be true or false, got '\(a.value)'", a)
            return nil
        }
    }

    /// 100–900, `bold` or `normal`.
    mutating func weight(_ a: MarkupAttribute) -> Int? {
        let s = a.value.trimmed()
        if let d = Double(s), s.first?.isNumber == true || s.first == "-" {
            guard d == d.rounded(), d >= 100, d <= 900 else {
                error("weight must be a whole number from 100 to 900, got '\(a.value)'", a)
                return nil
            }
            return Int(d)
        }
        switch s.lowercased() {
        case "bold": return 700
        case "normal": return 400
        default:
            var message = "unknown weight '\(s)'"
            if let near = Suggestion.closest(to: s, in: ["bold", "normal"]) {
                message += "; did you mean '\(near)'?"
            } else {
                message += "; use 100 to 900, bold or normal"
            }
            error(message, a)
            return nil
        }
    }

    /// A line style, or `.some(nil)` for `none`.
    mutating func decoration(_ a: MarkupAttribute, what: String) -> LineStyle?? {
        // NSUnderlineStyle's numbers, as Core Text files write them (0 none, 1 single, 2 thick,
        // 9 double), and true or false.
        switch a.value.trimmed().lowercased() {
        case "0", "false": return .some(nil)
        case "1", "true": return .some(.single)
        case "2": return .some(.thick)
        case "9": return .some(.double)
        default: return choice(a, what: what, Self.lineStyles)
        }
    }

    static let lineStyles: [(String, LineStyle?)] = LineStyle.allCases.map { ($0.rawValue, LineStyle?.some($0)) } + [("none", nil)]

    /// `dx dy blur color` (the colour may also come first, as CSS allows), or `none`.
    mutating func shadow(_ a: MarkupAttribute, em: Double) -> Shadow?? {
        if isNone(a) { return .some(nil) }
        let key = StoryBuilder.KnownShadow(value: a.value, em: em)
        if let known = knownShadows[key] { return known }
        guard let s = readShadow(a, em: em) else { return nil }
        if let s { knownShadows[key] = s }
        return s
    }

    /// `shadow(_:em:)` for a value not read before.
    private mutating func readShadow(_ a: MarkupAttribute, em: Double) -> Shadow?? {
        if let s = Self.plainShadow(a.value, em: em) { return s }
        // Whitespace-separated words with their first character's index in the value (and in
        // its scalars, to cut the colour from).
        typealias Word = (text: String, at: Int, index: String.Index)
        let scalars = a.value.unicodeScalars
        func isSpace(_ u: Unicode.Scalar) -> Bool {
            u.isASCII ? (u == " " || (u.value >= 0x09 && u.value <= 0x0D)) : u.properties.isWhitespace
        }
        var words: [Word] = []
        var index = scalars.startIndex
        var at = 0
        while index < scalars.endIndex {
            if isSpace(scalars[index]) {
                index = scalars.index(after: index)
                at += 1
                continue
            }
            let start = (index: index, at: at)
            while index < scalars.endIndex, !isSpace(scalars[index]) {
                index = scalars.index(after: index)
                at += 1
            }
            words.append((String(scalars[start.index..<index]), start.at, start.index))
        }
        func lengths(_ ws: ArraySlice<Word>) -> [Double]? {
            var v: [Double] = []
            for w in ws {
                guard let p = Self.points(w.text, em: em) else { return nil }
                v.append(p)
            }
            return v
        }
        let lengthWords: ArraySlice<Word>
        let colorRange: Range<String.Index>
        var from: Int
        let v: [Double]
        if words.count >= 4, let first = lengths(words.prefix(3)) {
            lengthWords = words.prefix(3)
            colorRange = words[3].index..<scalars.endIndex
            from = words[3].at
            v = first
        } else if words.count >= 4, let last = lengths(words.suffix(3)) {
            lengthWords = words.suffix(3)
            colorRange = scalars.startIndex..<words[words.count - 3].index
            from = 0
            v = last
        } else {
            error(#"shadow needs 'dx dy blur color', e.g. shadow="1 1 2 gray""#, a)
            return nil
        }
        let blur = lengthWords[lengthWords.startIndex + 2]
        if v[2] < 0 {
            error("shadow blur must be 0 or more, got '\(blur.text)'", a, from: blur.at, scalars: blur.text.unicodeScalars.count)
            return nil
        }
        if let big = zip(v, lengthWords).first(where: { abs($0.0) > 1000 })?.1 {
            error("shadow length '\(big.text)' is out of range (at most 1000)", a, from: big.at, scalars: big.text.unicodeScalars.count)
            return nil
        }
        if v[2] > Self.largestBlur {
            error(
                "shadow blur '\(blur.text)' is out of range (at most \(Int(Self.largestBlur)) pt: a blur's mask grows with its square)", a,
                from: blur.at, scalars: blur.text.unicodeScalars.count)
            return nil
        }
        var colorText = String(scalars[colorRange])
        while let f = colorText.unicodeScalars.first, f.properties.isWhitespace {
            colorText.unicodeScalars.removeFirst()
            from += 1
        }
        colorText = colorText.trimmed()
        switch ColorParser.parse(colorText) {
        case .success(let c): return Shadow(dx: v[0], dy: v[1], blur: v[2], color: c)
        case .failure(let e):
            error(e.message, a, from: from, scalars: colorText.unicodeScalars.count)
            return nil
        }
    }

    /// The widest shadow blur, points: its mask is the run's box grown by three blurs each way.
    static let largestBlur = 100.0

    /// A shadow written the usual way, `dx dy blur color` in four ASCII words one space apart,
    /// with nothing wrong in it: read without the general reader's bookkeeping of where each
    /// word is (which it needs only for messages). Nil for anything else; the general reader
    /// then reads the value again, and reports what is wrong.
    static func plainShadow(_ value: String, em: Double) -> Shadow? {
        let words = value.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard words.count == 4, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F || $0 == UInt8(ascii: " ") }) else {
            return nil
        }
        var v: [Double] = []
        for w in words.prefix(3) {
            guard !w.isEmpty, let p = points(String(decoding: w, as: UTF8.self), em: em), abs(p) <= 1000 else { return nil }
            v.append(p)
        }
        guard v[2] >= 0, v[2] <= largestBlur, !words[3].isEmpty,
            case .success(let c) = ColorParser.parse(String(decoding: words[3], as: UTF8.self))
        else { return nil }
        return Shadow(dx: v[0], dy: v[1], blur: v[2], color: c)
    }

    /// OpenType features: tags of 4 lower-case letters or digits, each optionally `=N`,
    /// separated by spaces or commas. `none` or an empty value clears them.
    mutating func features(_ a: MarkupAttribute) -> [String]? {
        if isNone(a) { return [] }
        if let plain = Self.plainFeatures(a.value) { return plain }
        var out: [String] = []
        var ok = true
        var word = ""
        var start = 0
        func valid(_ w: String) -> Bool {
            let parts = w.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let tag = parts[0]
            guard tag.unicodeScalars.count == 4,
                tag.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) })
            else { return false }
            if parts.count == 2 {
                return !parts[1].isEmpty && parts[1].count <= 6 && parts[1].allSatisfy { $0.isASCII && $0.isNumber }
            }
            return true
        }
        func finish(_ w: String, at: Int) {
            guard !w.isEmpty else { return }
            if valid(w) {
                out.append(w)
                return
            }
            ok = false
            var message = "bad OpenType feature '\(w)'"
            if valid(w.lowercased()) {
                message += "; did you mean '\(w.lowercased())'?"
            } else {
                message += "; a feature is 4 letters or digits, optionally =N, as in 'smcp' or 'ss01=1'"
            }
            error(message, a, from: at, scalars: w.unicodeScalars.count)
        }
        for (i, u) in a.value.unicodeScalars.enumerated() {
            if u.properties.isWhitespace || u == "," {
                finish(word, at: start)
                word = ""
                start = i + 1
            } else {
                word.unicodeScalars.append(u)
            }
        }
        finish(word, at: start)
        return ok ? out : nil
    }

    /// Features written the usual way: tags of exactly 4 lower-case ASCII letters or digits,
    /// without values, separated by spaces or commas; nil for anything else (the general reader
    /// then reads the value, and reports what is wrong).
    static func plainFeatures(_ value: String) -> [String]? {
        func isSeparator(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: ",") }
        func isTagByte(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) }
        guard value.utf8.allSatisfy({ isSeparator($0) || isTagByte($0) }) else { return nil }
        let tags = value.utf8.split(whereSeparator: isSeparator)
        guard tags.allSatisfy({ $0.count == 4 }) else { return nil }
        return tags.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A BCP 47 tag, checked for shape only: a 2–8 letter language, then 1–8 letter-or-digit subtags.
    mutating func language(_ a: MarkupAttribute) -> String? {
        let s = a.value.trimmed()
        if Self.isLanguageTag(s) { return s }
        var message = "'\(s)' is not a BCP 47 language tag"
        let fixed = s.replacing("_", with: "-")
        if fixed != s, Self.isLanguageTag(fixed) {
            message += "; did you mean '\(fixed)'?"
        } else {
            message += " such as 'en' or 'zh-Hans'"
        }
        error(message, a)
        return nil
    }

    static func isLanguageTag(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        return parts.enumerated().allSatisfy { i, part in
            (i == 0 ? (2...8) : (1...8)).contains(part.count)
                && part.allSatisfy { $0.isASCII && (i == 0 ? $0.isLetter : ($0.isLetter || $0.isNumber)) }
        }
    }
}
