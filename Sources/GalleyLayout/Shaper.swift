import CPango
import GalleyStory
import GalleyTemplate
import GalleySupport

extension TextEngine {
    /// Shapes one text paragraph of the story: itemize with the paragraph's style runs, take the
    /// break opportunities from Pango's log attributes, shape each item once. The whole paragraph
    /// is the shaping context. Linear in the paragraph's length.
    /// `hyphens`: also shape the hyphen glyph of every font, for dictionary hyphenation.
    package func shape(
        _ story: Story, paragraph index: Int, hyphens: Bool = false, attachments: [Attachment] = [], autoSpacing: Bool = false,
        cjk: CJKSpec = CJKSpec()
    ) -> ShapedText {
        let p = story.paragraphs[index]
        let start = p.range.lowerBound
        let length = p.range.count
        var shaped = ShapedText(
            index: index, storyStart: start, length: length, bytes: Array(story.text.utf8[p.range.asUTF8Indices(in: story.text)]),
            glyphs: [], clusters: [], runs: [],
            x: [Double](repeating: 0, count: length + 1), flags: [ByteFlags](repeating: [], count: length + 1),
            hyphens: [:])
        shaped.attachments = attachments.sorted { $0.byte < $1.byte }
        guard length > 0 else { return shaped }
        var utf8 = story.text.utf8
        if utf8.withContiguousStorageIfAvailable({ _ in true }) == nil {
            var copy = story.text
            copy.makeContiguousUTF8()
            utf8 = copy.utf8
        }
        utf8.withContiguousStorageIfAvailable { all in
            let base = UnsafeRawPointer(all.baseAddress! + start).assumingMemoryBound(to: CChar.self)
            let merged =
                !p.style.vertical && Self.isLatinText(shaped.bytes)
                && shapeText(
                    base, length: length, story: story, paragraph: p, hyphens: hyphens, autoSpacing: autoSpacing,
                    cjk: cjk, mergingAlike: true, into: &shaped)
            if !merged {
                _ = shapeText(
                    base, length: length, story: story, paragraph: p, hyphens: hyphens, autoSpacing: autoSpacing,
                    cjk: cjk, mergingAlike: false, into: &shaped)
            }
        }
        return shaped
    }

    /// Break opportunities and character classes of a paragraph (`pango_get_log_attrs`), one
    /// entry per character and one for the end; `charBytes` holds each character's byte offset
    /// and the length last.
    ///
    /// Pango 1.50's break analysis is quadratic on some text (a paragraph of URLs or domain
    /// names: 32,000 `x.org/1 ` took 2 s), so a long paragraph is analysed in pieces of at least
    /// `chunk` bytes, cut only where the result cannot depend on the cut: after spaces between
    /// two ASCII letters or digits or CJK ideographs. There, UAX #14 allows a break (LB18; no
    /// earlier rule applies to those classes around spaces) and words and graphemes end and
    /// start, so the pieces' attributes are the whole paragraph's, which a test checks.
    static func logAttributes(
        _ text: UnsafePointer<CChar>, length: Int, charBytes: [Int32], language: String, chunk: Int = 4096
    ) -> [PangoLogAttr] {
        let nChars = charBytes.count - 1
        var attrs = [PangoLogAttr](repeating: PangoLogAttr(), count: nChars + 1)
        let lang = pango_language_from_string(language)
        func isAlnum(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) }
        text.withMemoryRebound(to: UInt8.self, capacity: max(length, 1)) { bytes in
            // An ideograph of the CJK Unified Ideographs block (U+4E00–U+9FFF: UTF-8 E4 B8 80 to
            // E9 BF BF) starting at byte i.
            func isIdeograph(_ i: Int) -> Bool {
                guard i >= 0, i + 2 < length else { return false }
                let b0 = bytes[i]
                return (b0 >= 0xE5 && b0 <= 0xE9) || (b0 == 0xE4 && bytes[i + 1] >= 0xB8)
            }
            // An ASCII letter or digit, or an ideograph (UAX #14 classes AL, NU, ID).
            func isPlain(at i: Int) -> Bool { isAlnum(bytes[i]) || isIdeograph(i) }
            func isPlain(before i: Int) -> Bool { isAlnum(bytes[i - 1]) || isIdeograph(i - 3) }
            attrs.withUnsafeMutableBufferPointer { out in
                var firstChar = 0
                while true {
                    // The next cut, at least `chunk` bytes on: the first letter, digit or
                    // ideograph after spaces that follow one (as a character index).
                    var cut = nChars
                    var c = firstChar
                    let from = Int(charBytes[firstChar])
                    while c < nChars && Int(charBytes[c]) - from < chunk { c += 1 }
                    while c < nChars {
                        let b = Int(charBytes[c])
                        if bytes[b] == 0x20, b > 0, isPlain(before: b) {
                            var e = b
                            while e < length && bytes[e] == 0x20 { e += 1 }
                            if e < length && isPlain(at: e) {
                                cut = c + (e - b)  // spaces are one byte a character
                                break
                            }
                            c += e - b
                        } else {
                            c += 1
                        }
                    }
                    let start = Int(charBytes[firstChar])
                    let end = Int(charBytes[cut])
                    pango_get_log_attrs(
                        text + start, Int32(end - start), -1, lang, out.baseAddress! + firstChar, Int32(cut - firstChar + 1))
                    if firstChar > 0 {
                        // A piece's first entry is its text's start, where nothing breaks; in
                        // the paragraph it is a break after spaces.
                        out[firstChar].is_line_break = 1
                        out[firstChar].is_mandatory_break = 0
                    }
                    if cut == nChars { break }
                    firstChar = cut
                }
            }
        }
        return attrs
    }

    /// `logAttributes` of `text` with its curly quotes in Chinese or Japanese text analysed as
    /// the corner brackets they stand for (`CJKPunctuation.bracketQuotes`), so that a line
    /// breaks before “ and after ”, never after “ or before ”. The copy is made only when the
    /// paragraph has such quotes; a Latin paragraph is analysed as it is.
    static func cjkLogAttributes(
        _ text: UnsafePointer<CChar>, length: Int, charBytes: [Int32], language: String, paragraphLanguage: String
    ) -> [PangoLogAttr] {
        let quotes = CJKPunctuation.bracketQuotes(text, length: length, language: paragraphLanguage)
        guard !quotes.isEmpty else { return logAttributes(text, length: length, charBytes: charBytes, language: language) }
        let copy = CJKPunctuation.bracketed(text, length: length, quotes: quotes)
        return copy.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                logAttributes($0.baseAddress!, length: length, charBytes: charBytes, language: language)
            }
        }
    }

    /// The language of a paragraph's text: its first run's, which `<p lang>` sets ("" for
    /// a paragraph with no runs).
    static func language(of p: Paragraph, in story: Story) -> String {
        story.runs[p.runs].first.map { story.styles[$0.style].language } ?? ""
    }

    /// Shapes a paragraph's text into `shaped`. With `mergingAlike`, consecutive style runs
    /// that shape alike (`shapeAlike`: same font, features and language; colours, decorations,
    /// shadows, offsets and the like differ) are one Pango item, shaped together: Pango loads
    /// a fontset and HarfBuzz starts a buffer at every item, which a paragraph with a few spans
    /// paid for at each span's ends; kerning now applies across such a boundary as it does
    /// inside a run. The glyph runs are still cut at every style run (each keeps one style).
    /// A cluster that crosses a style boundary (a ligature or a mark whose characters have two
    /// styles) would leave part of a style without glyphs of its own: then nothing is written,
    /// the result is false, and the caller shapes the paragraph again with one item per style
    /// run. The caller merges only Latin text (`isLatinText`): it is left to right, so an item's
    /// clusters run forwards, and set in its primary font; where a fallback font sets part of a
    /// paragraph (CJK, emoji), Pango gives the spaces, punctuation and symbols after it that
    /// font within an item but the primary font at an item's start, so merging there would
    /// change which font sets them.
    private func shapeText(
        _ text: UnsafePointer<CChar>, length: Int, story: Story, paragraph p: Paragraph, hyphens: Bool,
        autoSpacing: Bool, cjk: CJKSpec, mergingAlike: Bool, into shaped: inout ShapedText
    ) -> Bool {
        let start = p.range.lowerBound
        let charBytes = Self.characterStarts(text, length: length)
        let attrs = attributes(story: story, paragraph: p, mergingAlike: mergingAlike, text: text, length: length)
        defer { pango_attr_list_unref(attrs) }

        var flags = shaped.flags
        shaped.autoSpaces = []  // a shaping given up (`crossed`) leaves none behind
        var logAttrs = breakOpportunities(
            text, length: length, charBytes: charBytes, language: Self.language(of: p, in: story), flags: &flags)
        Self.adjustBreaks(story: story, paragraph: p, bytes: shaped.bytes, flags: &flags)

        // Shape item by item; the whole paragraph is the context.
        var advance = [Double](repeating: 0, count: length + 1)
        var (glyphs, clusters, runs) = ([PangoGlyphInfo](), [Int32](), [GlyphRun]())
        glyphs.reserveCapacity(length)
        clusters.reserveCapacity(length)
        let gs = pango_glyph_string_new()!
        defer { pango_glyph_string_free(gs) }
        let styleRuns = story.runs[p.runs]
        var styleCursor = styleRuns.startIndex
        let needHyphens = hyphens || flags.contains { $0.contains(.hyphenBreak) }
        let direction = Self.baseDirection(p, bytes: shaped.bytes)
        shaped.rightToLeft = direction == PANGO_DIRECTION_RTL
        // CJK punctuation to compress.
        var marks = PunctuationMarks()
        marks.vertical = p.style.vertical
        let marking = cjk.punctuation != .full || cjk.hanging
        let items = Self.boundingClusters(
            pango_itemize_with_base_dir(context, direction, text, 0, Int32(length), attrs, nil), logAttrs: logAttrs,
            charBytes: charBytes)
        defer { g_list_free_full(items) { pango_item_free($0?.assumingMemoryBound(to: PangoItem.self)) } }
        var node = items
        var firstChar = 0
        var crossed = false
        logAttrs.withUnsafeMutableBufferPointer { la in
            while let n = node {
                let item = n.pointee.data.assumingMemoryBound(to: PangoItem.self)
                let offset = Int(item.pointee.offset)
                let itemEnd = offset + Int(item.pointee.length)
                let font = key(of: item.pointee.analysis.font)
                shapeItem(item, text, length: length, logAttrs: la.baseAddress! + firstChar, into: gs)
                firstChar += Int(item.pointee.num_chars)
                let count = Int(gs.pointee.num_glyphs)
                var g0 = Int32(glyphs.count)
                styleCursor = Self.run(in: styleRuns, from: styleCursor, holding: start + offset)
                let level = item.pointee.analysis.level
                // The item's glyphs, one segment per style run (one segment unless merging):
                // each segment's end glyph is the first whose cluster is past the run's end.
                var first = 0
                var segmentStart = offset
                while true {
                    let style = styleCursor < styleRuns.endIndex ? styleRuns[styleCursor].style : styleRuns.last!.style
                    let styleEnd = styleCursor < styleRuns.endIndex ? styleRuns[styleCursor].range.upperBound - start : itemEnd
                    let end =
                        mergingAlike && styleEnd < itemEnd ? Self.firstGlyph(of: gs, from: first, atOrPast: styleEnd - offset) : count
                    let textStyle = story.styles[style]
                    // Kern (NSKernAttributeName) after each character; expansion scales advances
                    // and offsets (the renderer scales the glyphs to match).
                    let kern = Int32((textStyle.kern * pangoScale).rounded())
                    let scale = textStyle.horizontalScale
                    for g in first..<end {
                        var info = gs.pointee.glyphs[g]
                        let cluster = Int(gs.pointee.log_clusters[g]) + offset
                        let lastOfCluster = g + 1 == count || gs.pointee.log_clusters[g + 1] != gs.pointee.log_clusters[g]
                        var autoSpace: Int32 = 0
                        if autoSpacing && lastOfCluster && level % 2 == 0,
                            let s = Self.autoSpace(
                                after: g, of: gs, at: offset, itemEnd: itemEnd, flags, shaped.bytes, size: textStyle.size)
                        {
                            autoSpace = s.width
                            shaped.autoSpaces.append((Int32(s.before), Double(s.width) / pangoScale))
                        }
                        Self.adjust(
                            &info, scale: scale, kern: lastOfCluster ? kern : 0, autoSpace: autoSpace,
                            attachment: shaped.attachments.isEmpty ? nil : shaped.attachment(at: cluster))
                        if marking && level % 2 == 0 && lastOfCluster {
                            noteMark(
                                info, at: cluster, glyph: glyphs.count, in: text, shaped.bytes, font: font,
                                analysis: item.pointee.analysis, scale: scale, into: &marks)
                        }
                        glyphs.append(info)
                        clusters.append(Int32(cluster))
                        advance[cluster] += Double(info.geometry.width) / pangoScale
                        if info.attr.is_cluster_start != 0 { flags[cluster].insert(.clusterStart) }
                    }
                    let segmentEnd = end == count ? itemEnd : styleEnd
                    runs.append(
                        GlyphRun(
                            font: font, style: Int32(style), level: level, glyphs: g0..<Int32(glyphs.count),
                            bytes: Int32(segmentStart)..<Int32(segmentEnd)))
                    g0 = Int32(glyphs.count)
                    if end == count { break }
                    let cluster = Int(gs.pointee.log_clusters[end]) + offset
                    guard let next = Self.run(in: styleRuns, after: styleCursor, startingAt: start + cluster) else {
                        crossed = true
                        break
                    }
                    styleCursor = next
                    first = end
                    segmentStart = cluster
                }
                if crossed { break }
                if needHyphens && shaped.hyphens[font] == nil, let h = hyphenGlyph(item) {
                    shaped.hyphens[font] = h
                }
                node = n.pointee.next
            }
        }
        if crossed { return false }
        flags[length].insert(.clusterStart)
        Self.finish(
            p, story: story, cjk: cjk, marks: &marks, glyphs: &glyphs, clusters: clusters, runs: runs, advance: &advance,
            flags: &flags, into: &shaped)
        return true
    }

    /// CJK/Latin auto-spacing after glyph `g`, the last of its cluster, of an item that starts
    /// at paragraph byte `offset`: a quarter em of `size` (Pango units) where that cluster and
    /// the next are an ideograph and a Latin letter or digit with no space between, and the
    /// byte the space stands before; nil where there is none.
    static func autoSpace(
        after g: Int, of gs: UnsafeMutablePointer<PangoGlyphString>, at offset: Int, itemEnd: Int, _ flags: [ByteFlags],
        _ bytes: [UInt8], size: Double
    ) -> (before: Int, width: Int32)? {
        let count = Int(gs.pointee.num_glyphs)
        let next = g + 1 < count ? Int(gs.pointee.log_clusters[g + 1]) + offset : itemEnd
        guard next < bytes.count, meets(flags, bytes, Int(gs.pointee.log_clusters[g]) + offset, next) else { return nil }
        return (next, Int32((size * 0.25 * pangoScale).rounded()))
    }

    /// The first style run from `cursor` on that holds story byte `byte` (or the end).
    static func run(in runs: ArraySlice<StyleRun>, from cursor: Int, holding byte: Int) -> Int {
        var k = cursor
        while k < runs.endIndex && runs[k].range.upperBound <= byte { k += 1 }
        return k
    }

    /// The next non-empty style run after `cursor`, when it starts at story byte `byte`: the
    /// next glyph's cluster. Nil otherwise, where a cluster holds characters of two styles.
    static func run(in runs: ArraySlice<StyleRun>, after cursor: Int, startingAt byte: Int) -> Int? {
        var k = cursor
        repeat { k += 1 } while k < runs.endIndex && runs[k].range.isEmpty
        return k < runs.endIndex && runs[k].range.lowerBound == byte ? k : nil
    }

    /// Shapes one item into `gs`, the whole paragraph as its context, after its font is made
    /// ready under `FaceLock` for a glyph the item's text may lack (`prepareForMissingGlyphs`).
    private func shapeItem(
        _ item: UnsafeMutablePointer<PangoItem>, _ text: UnsafePointer<CChar>, length: Int,
        logAttrs: UnsafeMutablePointer<PangoLogAttr>, into gs: UnsafeMutablePointer<PangoGlyphString>
    ) {
        text.withMemoryRebound(to: UInt8.self, capacity: length) {
            let bytes = UnsafeBufferPointer(start: $0 + Int(item.pointee.offset), count: Int(item.pointee.length))
            prepareForMissingGlyphs(item.pointee.analysis.font, text: bytes)
        }
        pango_shape_item(item, text, Int32(length), logAttrs, gs, PANGO_SHAPE_NONE)
    }

    /// The first glyph from `first` whose cluster is at item byte `b` or past it (the glyph
    /// count when none is).
    private static func firstGlyph(of gs: UnsafeMutablePointer<PangoGlyphString>, from first: Int, atOrPast b: Int) -> Int {
        var end = first
        while end < Int(gs.pointee.num_glyphs) && Int(gs.pointee.log_clusters[end]) < b { end += 1 }
        return end
    }

    /// A CJK punctuation mark's blank, kept for compression (`PunctuationMarks`), scaled as
    /// its glyph is; nothing for any other glyph.
    private func noteMark(
        _ info: PangoGlyphInfo, at cluster: Int, glyph: Int, in text: UnsafePointer<CChar>, _ bytes: [UInt8], font: FontKey,
        analysis: PangoAnalysis, scale: Double, into marks: inout PunctuationMarks
    ) {
        guard info.attr.is_cluster_start != 0 && PunctuationMarks.isMark(bytes, at: cluster) else { return }
        let blank = punctuationBlank(
            text, at: cluster, glyph: info.glyph, font: font, analysis: analysis, vertical: marks.vertical)
        marks.add(
            glyph: glyph, byte: cluster, left: Int32((Double(blank.left) * scale).rounded()),
            right: Int32((Double(blank.right) * scale).rounded()), hangs: PunctuationMarks.mayHang(bytes, at: cluster),
            bracket: PunctuationMarks.isBracket(bytes, at: cluster))
    }

    /// What shaping leaves to do once every item is shaped: upright digits in vertical text,
    /// the compression of punctuation marks, and the widths and glyphs stored.
    private static func finish(
        _ p: Paragraph, story: Story, cjk: CJKSpec, marks: inout PunctuationMarks, glyphs: inout [PangoGlyphInfo],
        clusters: [Int32], runs: [GlyphRun], advance: inout [Double], flags: inout [ByteFlags], into shaped: inout ShapedText
    ) {
        if p.style.vertical {
            shaped.vertical = true
            setUprightDigits(
                shaped.bytes, upTo: p.style.uprightDigits, glyphs: &glyphs, clusters: clusters, runs: runs, sizes: story.styles,
                advance: &advance, flags: &flags)
            setDashRuns(shaped.bytes, glyphs: &glyphs, clusters: clusters, runs: runs, sizes: story.styles, advance: &advance)
        }
        if !marks.isEmpty {
            shaped.blanks = marks.apply(cjk, glyphs: &glyphs, advance: &advance, flags: &flags)
            shaped.blankSums = PunctuationMarks.sums(shaped.blanks, length: advance.count - 1)
        }
        prefixWidths(advance, into: &shaped.x)
        (shaped.glyphs, shaped.clusters, shaped.runs) = (glyphs, clusters, runs)
        shaped.flags = flags
        // Items come in logical order, which is byte order; a lookup wants it so.
        if !shaped.autoSpaces.isEmpty { shaped.autoSpaces.sort { $0.byte < $1.byte } }
    }

    /// Break opportunities (UAX #14 with Pango's script tailoring, curly quotes in CJK text
    /// read as brackets), one entry per character + 1, and the break flags they give each
    /// character's first byte. `language` is the paragraph's (`language(of:in:)`).
    private func breakOpportunities(
        _ text: UnsafePointer<CChar>, length: Int, charBytes: [Int32], language: String, flags: inout [ByteFlags]
    ) -> [PangoLogAttr] {
        let nChars = charBytes.count - 1
        let logAttrs = Self.cjkLogAttributes(
            text, length: length, charBytes: charBytes, language: plan.language, paragraphLanguage: language)
        for c in 0...nChars {
            flags[Int(charBytes[c])] = breakFlags(logAttrs[c], character: c, of: nChars, text: text, at: Int(charBytes[c]))
        }
        return logAttrs
    }

    /// The most characters one grapheme cluster is shaped with at once. Debian 12's HarfBuzz
    /// looks back over every mark before a mark to find its base, so a letter with n combining
    /// marks costs n² (80,000 marks took 11 s); no script's clusters come near this length.
    static let longestShapedCluster = 32

    /// The items, cut wherever a grapheme cluster has run on for `longestShapedCluster`
    /// characters, so that HarfBuzz sees no longer cluster. The marks after a cut are set
    /// unattached (where the pen stands), and nothing of the text is lost. Each character is
    /// looked at once, so this is linear.
    static func boundingClusters(
        _ items: UnsafeMutablePointer<GList>?, logAttrs: [PangoLogAttr], charBytes: [Int32]
    ) -> UnsafeMutablePointer<GList>? {
        var head = items
        var node = items
        var firstChar = 0
        while let n = node {
            let item = n.pointee.data.assumingMemoryBound(to: PangoItem.self)
            let end = firstChar + Int(item.pointee.num_chars)
            var run = 0
            var cut: Int?
            for c in firstChar..<end {
                run = logAttrs[c].is_cursor_position != 0 ? 1 : run + 1
                if run > longestShapedCluster && c > firstChar {
                    cut = c
                    break
                }
            }
            guard let cut else {
                firstChar = end
                node = n.pointee.next
                continue
            }
            // The piece before the cut goes in before the node, which keeps the rest.
            let piece = pango_item_split(item, charBytes[cut] - charBytes[firstChar], Int32(cut - firstChar))
            head = g_list_insert_before(head, n, piece)
            firstChar = cut
        }
        return head
    }

    /// The paragraph's base direction: its style's, else its first strong character's.
    static func baseDirection(_ p: Paragraph, bytes: [UInt8]) -> PangoDirection {
        switch p.style.direction {
        case .rtl: PANGO_DIRECTION_RTL
        case .ltr: PANGO_DIRECTION_LTR
        case nil: firstStrongIsRTL(bytes) ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR
        }
    }

    /// A shaped glyph as the style sets it: expansion scales its advance and offset (the
    /// renderer scales the glyph to match), kern (NSKernAttributeName, given for a cluster's
    /// last glyph) and CJK/Latin auto-spacing widen it; an image in the line takes its place,
    /// an empty glyph as wide as the image.
    @inline(__always)
    static func adjust(_ info: inout PangoGlyphInfo, scale: Double, kern: Int32, autoSpace: Int32, attachment: Attachment?) {
        if scale != 1 {
            info.geometry.width = Int32((Double(info.geometry.width) * scale).rounded())
            info.geometry.x_offset = Int32((Double(info.geometry.x_offset) * scale).rounded())
        }
        // A negative kern takes an advance down to 0, no further: a line never runs backwards
        // out of its column.
        info.geometry.width = max(0, info.geometry.width + kern) + autoSpace
        if let a = attachment {
            info.glyph = 0x0FFF_FFFF  // PANGO_GLYPH_EMPTY
            info.geometry.width = Int32((a.width * pangoScale).rounded())
            info.geometry.x_offset = 0
            info.geometry.y_offset = 0
        }
    }

    /// Each character's first byte in `text`, and `length` after the last.
    static func characterStarts(_ text: UnsafePointer<CChar>, length: Int) -> [Int32] {
        var starts: [Int32] = []
        starts.reserveCapacity(length + 1)
        text.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            for b in 0..<length where bytes[b] & 0xC0 != 0x80 {
                starts.append(Int32(b))
            }
        }
        starts.append(Int32(length))
        return starts
    }

    /// The story ranges of a paragraph's text whose script has faces of its own (template
    /// `fallback` by script), with their description slots. Pango's script iterator gives
    /// punctuation and spaces the script of the text around them.
    static func scriptSlots(
        _ text: UnsafePointer<CChar>, length: Int, plan: FontPlan, from start: Int
    ) -> [(slot: Int, range: Range<Int>)] {
        guard let iter = pango_script_iter_new(text, Int32(length)) else { return [] }
        defer { pango_script_iter_free(iter) }
        var out: [(slot: Int, range: Range<Int>)] = []
        repeat {
            var a: UnsafePointer<CChar>?
            var b: UnsafePointer<CChar>?
            var script = PANGO_SCRIPT_COMMON
            pango_script_iter_get_range(iter, &a, &b, &script)
            let slot = plan.slot(forScript: g_unicode_script_to_iso15924(GUnicodeScript(rawValue: script.rawValue)))
            if slot > 0, let a, let b {
                out.append((slot, (start + (a - text))..<(start + (b - text))))
            }
        } while pango_script_iter_next(iter) != 0
        return out
    }

    /// `range` cut where it meets the script ranges: each piece with its slot (0 outside them).
    /// Ranges come in story order: `cursor` is the first script range that may still meet one.
    static func split(
        _ range: Range<Int>, by scripts: [(slot: Int, range: Range<Int>)], from cursor: inout Int
    ) -> [(slot: Int, range: Range<Int>)] {
        var out: [(slot: Int, range: Range<Int>)] = []
        var at = range.lowerBound
        while cursor < scripts.count && scripts[cursor].range.upperBound <= at { cursor += 1 }
        for s in scripts[cursor...] {
            if s.range.lowerBound >= range.upperBound { break }
            if s.range.lowerBound > at { out.append((0, at..<s.range.lowerBound)) }
            let end = min(s.range.upperBound, range.upperBound)
            out.append((s.slot, max(at, s.range.lowerBound)..<end))
            at = end
        }
        if at < range.upperBound { out.append((0, at..<range.upperBound)) }
        return out
    }

    /// The paragraph's Pango attributes: one font description per group of style runs (one run
    /// each, or, merging, consecutive runs that shape alike), with its font features and
    /// language. A foreground attribute unique to the group's first style makes Pango end items
    /// at every group, so each item has one group. The caller unrefs the list.
    private func attributes(
        story: Story, paragraph p: Paragraph, mergingAlike: Bool, text: UnsafePointer<CChar>, length: Int
    ) -> OpaquePointer {
        let start = p.range.lowerBound
        let attrs = pango_attr_list_new()!
        var groups: [(style: Int, range: Range<Int>)] = []
        for r in story.runs[p.runs] where !r.range.isEmpty {
            if mergingAlike, let last = groups.last, last.range.upperBound == r.range.lowerBound,
                Self.shapeAlike(story.styles[last.style], story.styles[r.style])
            {
                groups[groups.count - 1].range = last.range.lowerBound..<r.range.upperBound
            } else {
                groups.append((r.style, r.range))
            }
        }
        let scripts = plan.scriptFallbacks.isEmpty ? [] : Self.scriptSlots(text, length: length, plan: plan, from: start)
        var scriptCursor = 0
        let punctuation = plan.cjkPunctuationSlot == 0 ? [] : CJKPunctuation.ranges(text, length: length, from: start)
        var punctuationCursor = 0
        for r in groups {
            let f = pango_attr_foreground_new(UInt16(r.style & 0xFFFF), UInt16((r.style >> 16) & 0xFFFF), 0)!
            var descriptions: [(slot: Int, range: Range<Int>)] = [(0, r.range)]
            if !scripts.isEmpty { descriptions = Self.split(r.range, by: scripts, from: &scriptCursor) }
            for (slot, range) in descriptions {
                let a = pango_attr_font_desc_new(description(style: r.style, slot: slot))!
                a.pointee.start_index = UInt32(range.lowerBound - start)
                a.pointee.end_index = UInt32(range.upperBound - start)
                pango_attr_list_insert(attrs, a)
            }
            if !punctuation.isEmpty && !plan.cjkFaces.contains(story.styles[r.style].face) {
                // Inserted after the group's own: Pango takes the latest description in force.
                while punctuationCursor < punctuation.count && punctuation[punctuationCursor].upperBound <= r.range.lowerBound {
                    punctuationCursor += 1
                }
                var k = punctuationCursor
                while k < punctuation.count && punctuation[k].lowerBound < r.range.upperBound {
                    // Full-width forms: a Chinese dash is two ems for two characters.
                    let a = pango_attr_font_desc_new(description(style: r.style, slot: plan.cjkPunctuationSlot))!
                    let w = pango_attr_font_features_new("fwid=1")!
                    for attr in [a, w] {
                        attr.pointee.start_index = UInt32(max(punctuation[k].lowerBound, r.range.lowerBound) - start)
                        attr.pointee.end_index = UInt32(min(punctuation[k].upperBound, r.range.upperBound) - start)
                        pango_attr_list_insert(attrs, attr)
                    }
                    k += 1
                }
            }
            for attr in [f] {
                attr.pointee.start_index = UInt32(r.range.lowerBound - start)
                attr.pointee.end_index = UInt32(r.range.upperBound - start)
                pango_attr_list_insert(attrs, attr)
            }
            let style = story.styles[r.style]
            // Ligatures (NSLigatureAttributeName) and OpenType features as font features.
            var features: [String] = []
            if p.style.vertical { features += ["vert=1", "vrt2=1"] }  // vertical forms (see VerticalText.swift)
            // Letter-spaced text sets its letters apart, as CSS's letter-spacing does: a
            // ligature would stay one glyph among spaced letters ("o ﬃ c e").
            if style.ligatures == 0 || (style.ligatures == 1 && style.kern != 0) { features += ["liga=0", "clig=0"] }
            if style.ligatures == 2 { features += ["dlig=1"] }
            features += style.features.map { $0.contains("=") ? $0 : $0 + "=1" }
            if !features.isEmpty {
                let f = pango_attr_font_features_new(features.joined(separator: ","))!
                f.pointee.start_index = UInt32(r.range.lowerBound - start)
                f.pointee.end_index = UInt32(r.range.upperBound - start)
                pango_attr_list_insert(attrs, f)
            }
            let lang = style.language
            if lang != plan.language {
                let l = pango_attr_language_new(pango_language_from_string(lang))!
                l.pointee.start_index = UInt32(r.range.lowerBound - start)
                l.pointee.end_index = UInt32(r.range.upperBound - start)
                pango_attr_list_insert(attrs, l)
            }
        }
        return attrs
    }

    /// The flags of character `c` (of `count`; `count` is the paragraph's end) from its log
    /// attributes, at byte `b` of `text`.
    private func breakFlags(_ la: PangoLogAttr, character c: Int, of count: Int, text: UnsafePointer<CChar>, at b: Int) -> ByteFlags {
        var f: ByteFlags = c < count ? [.charStart] : []
        if la.is_white != 0 && c < count { f.insert(.white) }
        if la.is_expandable_space != 0 && c < count { f.insert(.expandable) }
        if la.is_line_break != 0 && c > 0 { f.insert(.lineBreak) }
        if la.is_mandatory_break != 0 && c > 0 { f.insert(.mandatory) }
        if la.is_char_break != 0 { f.insert(.charBreak) }
        if la.break_inserts_hyphen != 0 { f.insert(.hyphenBreak) }
        if la.is_word_start != 0 { f.insert(.wordStart) }
        if la.is_word_end != 0 { f.insert(.wordEnd) }
        if c < count && isWide(text, at: b) { f.insert(.wide) }
        return f
    }

    /// Where a URL set as a link may break: in place of UAX #14's breaks (after a slash or a
    /// hyphen, which leaves a hyphen that reads as the line's own), the Chicago Manual's:
    /// before a single slash, a dot, a comma, a hyphen, a tilde, an underscore, a question
    /// mark, a number sign or a percent sign, and before or after an equals sign or an
    /// ampersand; after its scheme's `://`, never within it nor within the host. A long query
    /// string was broken between letters, without a hyphen, across a column.
    static func addURLBreaks(story: Story, paragraph p: Paragraph, bytes: [UInt8], flags: inout [ByteFlags]) {
        for (lo, hi) in urls(story: story, paragraph: p, bytes: bytes) {
            let from = (lo..<(hi - 2)).first { Self.isScheme(bytes, at: $0) }.map { $0 + 3 } ?? lo
            guard from + 2 < hi else { continue }  // a scheme and nothing after it
            for b in (from + 1)..<hi { flags[b].remove(.lineBreak) }
            // The host stays whole ("www" alone at a line's end reads as a word), and the
            // URL's last character with the one before it.
            let path = (from..<hi).first { bytes[$0] == 0x2F } ?? hi
            for b in (path + 1)..<max(path + 1, hi - 1) where Self.breaksURL(before: b, in: bytes) { flags[b].insert(.lineBreak) }
            if path > from + 1 && path < hi - 1 { flags[path].insert(.lineBreak) }
        }
    }

    /// Where UAX #14 breaks the social text of a paragraph wrongly: URLs and topics.
    static func adjustBreaks(story: Story, paragraph p: Paragraph, bytes: [UInt8], flags: inout [ByteFlags]) {
        addURLBreaks(story: story, paragraph: p, bytes: bytes, flags: &flags)
        keepTopicMarks(story: story, paragraph: p, bytes: bytes, flags: &flags)
    }

    /// A topic's `#` marks stay with its name, as brackets do (UAX #14 takes `#` for a letter,
    /// and allows a break between it and an ideograph): no line ends on the opening one or
    /// starts with the closing one.
    static func keepTopicMarks(story: Story, paragraph p: Paragraph, bytes: [UInt8], flags: inout [ByteFlags]) {
        for run in story.runs[p.runs] where story.styles[run.style].link != nil {
            let (lo, hi) = (run.range.lowerBound - p.range.lowerBound, run.range.upperBound - p.range.lowerBound)
            guard lo >= 0, hi <= bytes.count, hi - lo > 2, bytes[lo] == 0x23, bytes[hi - 1] == 0x23 else { continue }
            flags[lo + 1].remove(.lineBreak)
            flags[hi - 1].remove(.lineBreak)
        }
    }

    /// The URLs of a paragraph, as byte ranges: its links whose text is an address (with a
    /// scheme, or `www.`), and, linked or not, its runs of ASCII without spaces that hold a
    /// scheme (`https://`). A mention or a topic is a name, and keeps its own breaks; a URL
    /// written against Chinese text ends where the Chinese begins.
    static func urls(story: Story, paragraph p: Paragraph, bytes: [UInt8]) -> [(Int, Int)] {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 }
        func hasScheme(_ r: Range<Int>) -> Bool {
            r.count > 3 && (r.lowerBound..<(r.upperBound - 2)).contains { Self.isScheme(bytes, at: $0) }
        }
        var found: [(Int, Int)] = []
        for run in story.runs[p.runs] where story.styles[run.style].link != nil {
            let r = (run.range.lowerBound - p.range.lowerBound)..<(run.range.upperBound - p.range.lowerBound)
            let address = hasScheme(r) || bytes[r].starts(with: Array("www.".utf8))
            if r.count > 8, address, !bytes[r].contains(where: isSpace) { found.append((r.lowerBound, r.upperBound)) }
        }
        var b = 0
        while b < bytes.count {
            var e = b
            while e < bytes.count && !isSpace(bytes[e]) && bytes[e] < 0x80 { e += 1 }
            if e - b > 8, hasScheme(b..<e), !found.contains(where: { $0.0 < e && b < $0.1 }) { found.append((b, e)) }
            b = e + 1
        }
        return found
    }

    /// Whether a scheme's `://` starts at byte `i`.
    static func isScheme(_ bytes: [UInt8], at i: Int) -> Bool {
        i + 2 < bytes.count && bytes[i] == 0x3A && bytes[i + 1] == 0x2F && bytes[i + 2] == 0x2F
    }

    /// Whether a URL may break before byte `b` (see `addURLBreaks`).
    static func breaksURL(before b: Int, in bytes: [UInt8]) -> Bool {
        let c = bytes[b]
        let before: Set<UInt8> = [0x2F, 0x2E, 0x2C, 0x2D, 0x7E, 0x5F, 0x3F, 0x23, 0x25, 0x3D, 0x26]  // / . , - ~ _ ? # % = &
        if before.contains(c) && !(c == 0x2F && bytes[b - 1] == 0x2F) { return true }
        return bytes[b - 1] == 0x3D || bytes[b - 1] == 0x26
    }

    /// `x[b]` = the width of everything before byte `b`, from each byte's advance.
    static func prefixWidths(_ advance: [Double], into x: inout [Double]) {
        var sum = 0.0
        for b in 0..<(advance.count - 1) {
            x[b] = sum
            sum += advance[b]
        }
        x[advance.count - 1] = sum
    }

    /// Whether two styles shape alike: the same font (face, size, weight, slant), OpenType
    /// features (letter-spacing, any kern, turns ligatures off) and language. What else they
    /// set (colour, decorations, shadow, baseline offset, obliqueness, the kern's amount,
    /// expansion…) is applied to glyphs after shaping, or when drawing.
    static func shapeAlike(_ a: TextStyle, _ b: TextStyle) -> Bool {
        a.face == b.face && a.size == b.size && a.weight == b.weight && a.slant == b.slant && a.ligatures == b.ligatures
            && a.features == b.features && a.language == b.language && (a.kern == 0) == (b.kern == 0)
    }

    /// Whether a paragraph is Latin text: ASCII, Latin-1 and the Latin extensions, IPA, spacing
    /// modifiers and combining marks (U+0080–U+036F), and general punctuation (U+2000–U+207F:
    /// dashes, quotes, spaces) other than the bidi controls (U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069). Such text is left to right and set in its primary font.
    static func isLatinText(_ bytes: [UInt8]) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
            } else if b >= 0xC2 && b <= 0xCD {
                i += 2
            } else if b == 0xE2 && i + 2 < n && (bytes[i + 1] == 0x80 || bytes[i + 1] == 0x81) {
                let v = Int(bytes[i + 1] & 0x3F) << 6 | Int(bytes[i + 2] & 0x3F)  // U+2000 + v
                if v == 0x0E || v == 0x0F || (0x2A...0x2E).contains(v) || (0x66...0x69).contains(v) { return false }
                i += 3
            } else {
                return false
            }
        }
        return true
    }

    /// True when the characters at `a` and `b` are an ideograph (or kana, Hangul) and a Latin
    /// letter or digit, in either order, or a percent sign and an ideograph (`100% 的`: the sign
    /// ends the Western figure).
    static func meets(_ flags: [ByteFlags], _ bytes: [UInt8], _ a: Int, _ b: Int) -> Bool {
        func latin(_ i: Int) -> Bool {
            let c = bytes[i]
            return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
        }
        func ideograph(_ i: Int) -> Bool {
            guard flags[i].contains(.wide), bytes[i] >= 0xE3 else { return false }
            // Wide punctuation (U+3000–U+303F, fullwidth forms) already has its own space.
            let v = (UInt32(bytes[i] & 0x0F) << 12) | (UInt32(bytes[i + 1] & 0x3F) << 6) | UInt32(bytes[i + 2] & 0x3F)
            return bytes[i] >= 0xF0 || !((0x3000...0x303F).contains(v) || (0xFF00...0xFF65).contains(v))
        }
        return (ideograph(a) && latin(b)) || ((latin(a) || bytes[a] == 0x25) && ideograph(b))
    }

    /// True for East Asian wide characters: CJK ideographs, kana, Hangul, CJK symbols and
    /// punctuation, fullwidth forms (the ranges justification may letter-space).
    private func isWide(_ text: UnsafePointer<CChar>, at b: Int) -> Bool {
        let u = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        let c0 = UInt32(u[b])
        guard c0 >= 0xE1 else { return false }  // everything wide is U+1100 or above
        var v: UInt32
        if c0 < 0xF0 {
            v = (c0 & 0x0F) << 12 | (UInt32(u[b + 1]) & 0x3F) << 6 | (UInt32(u[b + 2]) & 0x3F)
        } else {
            v = (c0 & 0x07) << 18 | (UInt32(u[b + 1]) & 0x3F) << 12 | (UInt32(u[b + 2]) & 0x3F) << 6 | (UInt32(u[b + 3]) & 0x3F)
        }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// True when the first strongly directional letter is right to left (Hebrew, Arabic,
    /// Syriac, Thaana, N'Ko and their presentation forms); letters of other scripts count as
    /// left to right; digits, punctuation and spaces do not count (Unicode bidi rule P2).
    static func firstStrongIsRTL(_ bytes: [UInt8]) -> Bool {
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
                if scalar.properties.isAlphabetic { return true }
            default:
                if scalar.properties.isAlphabetic { return false }
            }
        }
        return false
    }

    /// The hyphen glyph in an item's font, shaped once per font.
    func hyphenGlyph(_ item: UnsafeMutablePointer<PangoItem>) -> PangoGlyphInfo? {
        let k = key(of: item.pointee.analysis.font)
        if let g = hyphenCache[k] { return g }
        let gs = pango_glyph_string_new()!
        defer { pango_glyph_string_free(gs) }
        var analysis = item.pointee.analysis
        analysis.level = 0
        // The item's font may lack a hyphen, whose box Pango measures with Cairo.
        FaceLock.run { pango_shape("-", 1, &analysis, gs) }
        guard gs.pointee.num_glyphs == 1 else { return nil }
        let g = gs.pointee.glyphs[0]
        hyphenCache[k] = g
        return g
    }
}
