import CCairo
import GalleyLayout
import GalleyStory

/// The PDF's bookmarks: one per heading (`<h1>`–`<h3>`), nested by level, each pointing at its
/// heading's first line; added page by page as the pages are drawn.
package struct Outline {
    /// The open entries, outermost first: their heading level and Cairo's id.
    private var open: [(level: Int, id: Int32)] = []
    /// The entry the top-level headings go under: the outline's root, or an issue's article.
    var parent = Int32(CAIRO_PDF_OUTLINE_ROOT)
    /// That entry's title: a first heading that says it again (an article's `<h1>` under its
    /// entry in an issue) adds no entry, and what it heads goes under the parent.
    var parentTitle: String?
    /// Where the page's top left is on the PDF's page: the trim's place on a press sheet.
    var offset = 0.0

    /// The bookmarks of the headings that start on `page`, which is page `pageIndex` of the PDF
    /// (from 1; by default the page's own number).
    mutating func add(_ page: Page, story: Story, to surface: OpaquePointer, pageIndex: Int? = nil) {
        for frame in page.frames {
            for line in frame.lines where line.lineIndex == 0 {
                let paragraph = story.paragraphs[line.paragraphIndex]
                let level = paragraph.style.headingLevel
                guard level > 0 else { continue }
                let title = Self.title(of: paragraph, in: story)
                guard !title.isEmpty else { continue }
                while let last = open.last, last.level >= level { open.removeLast() }
                if open.isEmpty, title == parentTitle {
                    parentTitle = nil
                    open.append((level, self.parent))
                    continue
                }
                let parent = open.last?.id ?? self.parent
                let (x, y) = (Int((line.box.x + offset).rounded()), Int((line.box.y + offset).rounded()))
                let target = "page=\(pageIndex ?? page.number) pos=[\(x) \(y)]"
                let flags = level == 1 ? CAIRO_PDF_OUTLINE_FLAG_OPEN : cairo_pdf_outline_flags_t(0)
                let id = cairo_pdf_surface_add_outline(surface, parent, title, target, flags)
                open.append((level, id))
            }
        }
    }

    /// A heading's text on one line: its characters with every run of white space one space,
    /// and the object replacement characters of images left out.
    package static func title(of paragraph: Paragraph, in story: Story) -> String {
        let text = story.text.utf8Slice(paragraph.range.lowerBound, paragraph.range.upperBound)
        var out = ""
        var space = false
        for c in text.unicodeScalars where c != "\u{FFFC}" {
            if c.properties.isWhitespace {
                space = !out.isEmpty
            } else {
                if space { out.append(" ") }
                out.unicodeScalars.append(c)
                space = false
            }
        }
        return out
    }
}
