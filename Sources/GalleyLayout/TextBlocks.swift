import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

/// A pull quote or sidebar set at one width: its own framesetter, on a page as wide as the
/// text inside the box and as tall as a page may be, and the first page it fills.
package final class SetTextBlock: @unchecked Sendable {
    package let block: TextBlock
    package let framesetter: Framesetter
    package let page: Page?
    /// From the top of the block to the foot of the last thing set in it: a line's box, an
    /// image with its caption, or a drop cap's foot.
    package let textHeight: Double

    /// Where the block's text starts when its box is `rect` on the page: inside its padding,
    /// frame and rules.
    package func textOrigin(in rect: Rect) -> Point {
        let box = block.box
        return Point(x: rect.x + box.padding + box.frame, y: rect.y + box.padding + max(box.rule, box.frame))
    }

    init(block: TextBlock, framesetter: Framesetter) {
        self.block = block
        self.framesetter = framesetter
        var first: Page?
        framesetter.layOut { page in
            first = page
            return false
        }
        page = first
        let frames = first?.frames ?? []
        let images = frames.flatMap(\.images) + (first?.floats ?? [])
        let bottoms = frames.flatMap(\.lines).map(\.box.maxY) + images.map { $0.captionRect?.maxY ?? $0.rect.maxY }
        // An initial hangs below a paragraph shorter than it is tall.
        let initials = frames.flatMap(\.dropCaps).map(\.foot)
        textHeight = max(bottoms.max() ?? 0, initials.max() ?? 0)
    }
}

/// Sets the story's pull quotes and sidebars, each once per width it is asked for. Made once
/// per layout, on the layout's thread (the framesetters' engines draw on it too).
final class TextBlocks {
    let story: Story
    let template: Template
    let file: String
    private var set: [Key: SetTextBlock] = [:]

    private struct Key: Hashable {
        let block: Int
        let width: Double
    }

    init(story: Story, template: Template, file: String) {
        self.story = story
        self.template = template
        self.file = file
    }

    /// Block `index` set with its text `width` points wide.
    func set(_ index: Int, width: Double) -> SetTextBlock {
        let key = Key(block: index, width: width)
        if let known = set[key] { return known }
        let block = story.blocks[index]
        let framesetter = Framesetter(
            story: block.story, template: Self.template(template, width: width), file: file, options: LayoutOptions(threads: 1))
        let result = SetTextBlock(block: block, framesetter: framesetter)
        set[key] = result
        return result
    }

    /// The page's template narrowed to one column `width` wide with no margins, no running
    /// lines, no paper and no grid: the box is the block's page.
    static func template(_ page: Template, width: Double) -> Template {
        var t = page
        t.pageWidth = max(1, width)
        t.pageHeight = 14400  // the tallest page a template may have (200 in)
        t.margins = EdgeInsets(top: 0, right: 0, bottom: 0, left: 0)
        t.columns = 1
        t.footer.enabled = false
        t.header.enabled = false
        t.pageColor = nil
        t.balance = false
        t.baselineGrid = false
        t.startPage = 1
        return t
    }
}
