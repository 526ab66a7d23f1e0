import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleySupport
import GalleyTemplate

/// What a page shows, as a number, for the count of pages a rebuild changed: its text and the
/// styles it is set in, where each line and image stands, each image's file as it is now (an
/// image replaced by another of its size changes its pages), and the template.
struct PageFingerprinter {
    private let text: [UInt8]
    private let runs: [StyleRun]
    private let styles: [Int]
    private let images: [Int]
    /// The images set in lines (`inline`, emoticons of a pack), by where they stand in the
    /// text, each with its file's stamp: a line's text shows only the anchor.
    private let inline: [(anchor: Int, file: Int)]
    private let look: Int

    init(_ story: Story, template: Template) {
        text = Array(story.text.utf8)
        runs = story.runs
        styles = story.styles.map(\.hashValue)
        // A pull quote or sidebar stands for its file: its own text and images (an emoticon).
        let images = story.images.map { image in
            guard let b = image.block, story.blocks.indices.contains(b) else { return Self.file(image.path) }
            var h = Hasher()
            h.combine(story.blocks[b].story.text)
            for inner in story.blocks[b].story.images { h.combine(Self.file(inner.path)) }
            return h.finalize()
        }
        self.images = images
        inline = zip(story.images, images).compactMap { image, file in
            guard image.placement == .inline, let anchor = image.anchor else { return nil }
            return (anchor, file)
        }.sorted { $0.anchor < $1.anchor }
        look = TemplateLoader.encode(template).hashValue
    }

    /// A file's path and stamp, with those of the files an SVG draws from.
    static func file(_ path: String) -> Int {
        var h = Hasher()
        for f in [path] + SVGReferences.files(of: [path]) {
            h.combine(f)
            let stamp = FileStamp.of(f)
            h.combine(stamp?.size)
            h.combine(stamp?.modified)
        }
        return h.finalize()
    }

    func callAsFunction(_ page: Page) -> Int {
        var h = Hasher()
        h.combine(look)
        h.combine(page.folio)
        for frame in page.frames {
            for line in frame.lines {
                h.combine(line.origin.x)
                h.combine(line.origin.y)
                h.combine(line.paragraphIndex)
                let range = line.storyRange.clamped(to: 0..<text.count)
                text.withUnsafeBytes { h.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[range])) }
                combineStyles(of: range, into: &h)
                var k = inline.partitionPoint { $0.anchor >= range.lowerBound }
                while k < inline.count, inline[k].anchor < range.upperBound {
                    h.combine(inline[k].file)
                    k += 1
                }
            }
            for i in frame.images { combine(i, into: &h) }
        }
        for f in page.floats { combine(f, into: &h) }
        return h.finalize()
    }

    private func combine(_ image: PlacedImage, into h: inout Hasher) {
        h.combine(image.rect)
        if images.indices.contains(image.image) { h.combine(images[image.image]) }
    }

    /// The styles of the runs over `range`, and where each begins within it.
    private func combineStyles(of range: Range<Int>, into h: inout Hasher) {
        var k = runs.partitionPoint { $0.range.upperBound > range.lowerBound }
        while k < runs.count, runs[k].range.lowerBound < range.upperBound {
            h.combine(max(runs[k].range.lowerBound, range.lowerBound) - range.lowerBound)
            if styles.indices.contains(runs[k].style) { h.combine(styles[runs[k].style]) }
            k += 1
        }
    }

    /// Each part's fingerprinter, made once for all the pages of an issue.
    static func parts(of plan: IssuePlan) -> [PageFingerprinter] {
        plan.parts.map { PageFingerprinter($0.framesetter.story, template: $0.framesetter.template) }
    }

    /// A page of an issue: its kind, its full-page image, and the pages of parts placed on it.
    static func issuePage(_ plan: IssuePlan, _ index: Int, parts: [PageFingerprinter]) -> Int {
        var h = Hasher()
        let p = plan.pages[index]
        h.combine(p.kind.rawValue)
        h.combine(p.folio)
        if let image = p.image { h.combine(file(image)) }
        for (part, page) in p.placements { h.combine(parts[part](page)) }
        return h.finalize()
    }
}
