import GalleyLayout
import GalleyMarkup
import GalleySupport
import GalleyTemplate
import TestSupport
import Testing

/// The layout cache's archive: every sample's pages, written and read back, are the pages laid
/// out, down to each stored property of each shaped paragraph (`dump` lists them all, so a
/// property added later and not archived fails here); damaged bytes are an error.
@Suite struct LayoutArchiveTests {
    static let samples = ["article.txt", "attributes.txt", "chinese.txt", "feature.txt", "feed.txt", "figures.txt", "vertical.txt"]

    /// Every stored property of `pages`, with the things that are equal but not alike in a dump
    /// put in order: dictionaries and sets sorted, each shaped paragraph listed once, and a
    /// pull quote's block (which holds an engine) by its page.
    static func described(_ pages: [Page]) -> String {
        var paragraphs: [ParagraphLayout] = []
        var refs: [Int] = []
        var blocks: [Page?] = []
        var plain = pages
        // Each line's paragraph by its place in `paragraphs`; the line keeps the first one.
        func own(_ p: ParagraphLayout) -> ParagraphLayout {
            if let k = paragraphs.firstIndex(where: { $0 === p }) {
                refs.append(k)
            } else {
                paragraphs.append(p)
                refs.append(paragraphs.count - 1)
            }
            return paragraphs[0]
        }
        func images(_ list: inout [PlacedImage]) {
            for i in list.indices {
                blocks.append(list[i].block?.page)
                list[i].block = nil
            }
        }
        for p in plain.indices {
            for f in plain[p].frames.indices {
                for l in plain[p].frames[f].lines.indices {
                    plain[p].frames[f].lines[l].paragraph = own(plain[p].frames[f].lines[l].paragraph)
                }
                for c in plain[p].frames[f].dropCaps.indices {
                    plain[p].frames[f].dropCaps[c].paragraph = own(plain[p].frames[f].dropCaps[c].paragraph)
                }
                images(&plain[p].frames[f].images)
            }
            images(&plain[p].floats)
        }
        var s = ""
        dump(plain, to: &s)
        for p in paragraphs {
            var text = p.text
            let hyphens = text.hyphens.keys.sorted().map { ($0, text.hyphens[$0]!) }
            text.hyphens = [:]
            dump(text, to: &s)
            dump(hyphens, to: &s)
            dump(p.lines, to: &s)
            dump(p.glue, to: &s)
            dump(p.widths, to: &s)
            dump(p.unhyphenated.sorted(), to: &s)
        }
        dump(refs, to: &s)
        dump(blocks, to: &s)
        return s
    }

    @Test(arguments: samples) func pagesReadBackAsLaidOut(_ name: String) throws {
        var template = Template.default
        if name == "chinese.txt" || name == "vertical.txt" { template = try #require(Template.builtin(named: "magazine-zh")) }
        let f = framesetter(sample(name), template: template, threads: 1)
        let laid = pages(of: f)
        let warning = Diagnostic.warning("a warning", file: "t.txt", at: SourceLocation(line: 2, column: 3, offset: 9), length: 4)
        let bytes = f.archive(laid, warnings: [warning])
        let back = try f.unarchive(bytes)
        #expect(back.warnings == [warning])
        #expect(back.pages.count == laid.count)
        #expect(Self.described(back.pages) == Self.described(laid))
    }

    // Cut short anywhere, or with a count made huge, the bytes are refused.
    @Test func damagedBytesAreRefused() {
        let f = framesetter(sample("feature.txt"), threads: 1)
        let bytes = f.archive(pages(of: f), warnings: [])
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)) {
            #expect(throws: ByteReader.Malformed.self) { try f.unarchive(Array(bytes.prefix(cut))) }
        }
        var huge = bytes
        for k in 0..<8 { huge[k] = 0x7F }
        #expect(throws: ByteReader.Malformed.self) { try f.unarchive(huge) }
    }
}
