import GalleyStory
import GalleySupport
import GalleyTemplate

/// Paragraphs shaped and broken by the layouts before, kept between the builds of one process
/// (`galley watch`): a build after an edit shapes and breaks only the paragraphs the edit
/// touched, and takes the others as they were, moved to their new place in the story.
///
/// A paragraph's layout depends on its own text, runs, style, inline images and the width it
/// is broken to, which make its key (compared whole, not by a hash alone), and on what every
/// paragraph shares: the template, the story's table of styles (runs name styles by index),
/// the faces asked for and the fonts installed. When those change, nothing kept is used.
/// The cache holds the paragraphs of the last two builds, so it does not grow with edits.
public final class ParagraphCache: @unchecked Sendable {
    struct Context: Equatable {
        var template: Template
        var styles: [TextStyle]
        var faces: Set<String>
        var fonts: Int
    }

    struct Key: Hashable {
        var text: [UInt8]
        var style: ParagraphStyle
        /// The runs, their ranges from the paragraph's start.
        var runs: [StyleRun]
        var attachments: [Attachment]
        var widths: LineWidths

        func hash(into hasher: inout Hasher) {
            // The bytes in one call: an array hashes its elements one at a time, which cost a
            // watch rebuild of en-large 1 % of its time.
            hasher.combine(text.count)
            text.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(runs)
        }
    }

    /// How the paragraphs of the last layout were come by.
    public struct Statistics: Equatable, Sendable {
        /// Taken from the layouts before.
        public var kept = 0
        /// Shaped and broken afresh.
        public var made = 0
        public init(kept: Int = 0, made: Int = 0) {
            self.kept = kept
            self.made = made
        }
    }

    private let lock = Lock()
    private var context: Context?
    private var counts = Statistics()
    /// The builds before this one's paragraphs, and this one's.
    private var earlier: [Key: ParagraphLayout] = [:]
    private var latest: [Key: ParagraphLayout] = [:]
    /// The last layout's pages and the flow at each one's start.
    let pages = PageStarts()

    public init() {}

    /// A new layout of `story` begins: what was kept is used only if it was laid out with the
    /// same template, styles and fonts.
    func begin(story: Story, template: Template) {
        let now = Context(
            template: template, styles: story.styles, faces: Set(story.faceRequests.keys), fonts: EnginePool.fontGeneration)
        lock.lock()
        defer { lock.unlock() }
        counts = Statistics()
        if now != context {
            (earlier, latest) = ([:], [:])
            pages.clear()
            context = now
        } else if !latest.isEmpty {
            (earlier, latest) = (latest, [:])
        }
    }

    /// The key of paragraph `p` of `story` broken to `widths`.
    static func key(_ p: Paragraph, story: Story, attachments: [Attachment], widths: LineWidths) -> Key {
        let runs = story.runs[p.runs].map {
            StyleRun(range: ($0.range.lowerBound - p.range.lowerBound)..<($0.range.upperBound - p.range.lowerBound), style: $0.style)
        }
        return Key(
            text: Array(story.text.utf8[p.range.asUTF8Indices(in: story.text)]), style: p.style, runs: runs, attachments: attachments,
            widths: widths)
    }

    /// The layout kept for `key`, as paragraph `index` starting at story byte `storyStart`.
    func layout(for key: Key, index: Int, storyStart: Int) -> ParagraphLayout? {
        lock.lock()
        let found = latest[key] ?? earlier[key]
        if let found {
            latest[key] = found
            counts.kept += 1
        }
        lock.unlock()
        return found?.moved(index: index, storyStart: storyStart)
    }

    /// Keeps `layout`, made fresh for `key`.
    func keep(_ layout: ParagraphLayout, for key: Key) {
        lock.lock()
        latest[key] = layout
        counts.made += 1
        lock.unlock()
    }

    /// How many pages the last layout took as the layout before laid them out (`PageStarts`):
    /// those before the edit, and those after it, once a page began where one had begun before.
    public var keptPages: Int { pages.kept }
    public var reusedPages: Int { pages.reused }
    /// The first `count` pages of the last layout, as it handed them over (without draw runs).
    package func pages(upTo count: Int) -> [Page] { pages.pages(upTo: count) }
    /// Lines of the pages kept whose paragraphs hold draw runs (none should: see `PageStarts`).
    package var keptLinesWithDrawRuns: Int { pages.linesWithDrawRuns }

    /// How the paragraphs of the layout since the last `begin` were come by.
    public var statistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}

extension ParagraphLayout {
    /// The same layout as paragraph `index` starting at story byte `storyStart` (a paragraph
    /// the same as one before an edit, moved by it). Its lines count bytes from the paragraph's
    /// start and stay; draw runs made ahead name story bytes and are dropped (they are made
    /// again when the paragraph is drawn).
    func moved(index: Int, storyStart: Int) -> ParagraphLayout {
        guard index != text.index || storyStart != text.storyStart else { return self }
        var text = self.text
        text.index = index
        text.storyStart = storyStart
        return ParagraphLayout(text: text, lines: lines, glue: glue, widths: widths, unhyphenated: unhyphenated)
    }
}
