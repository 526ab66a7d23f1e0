import GalleyStory
import GalleySupport
import GalleyTemplate

/// The readable page dump tests compare: one line per frame, placed line and image, with
/// positions (points, one decimal), width, source location and text.
public enum PageDump {
    public static func dump(_ page: Page, story: Story) -> String {
        var s = "page \(page.number) \(f(page.width))x\(f(page.height))\n"
        for frame in page.frames {
            let r = frame.visibleRange
            s +=
                (frame.spansColumns ? "  across" : "  column \(frame.column + 1)")
                + " at \(f(frame.rect.x)),\(f(frame.rect.y)) \(f(frame.rect.width))x\(f(frame.rect.height))"
            s += " chars \(story.characterOffset(ofByte: r.lowerBound))..<\(story.characterOffset(ofByte: r.upperBound))\n"
            var items: [(Double, String)] = []
            for l in frame.lines {
                let loc = story.sourceMap.sourceLocation(ofByte: l.storyRange.lowerBound, in: story.text).map { "\($0)" } ?? "-"
                var text = String(story.text.utf8Slice(l.storyRange.lowerBound, l.storyRange.upperBound))
                if text.hasSuffix("\n") { text.removeLast() }
                let b = l.paragraph.lines[l.lineIndex]
                let flags = (b.hyphen ? " HYPHEN" : "") + (l.overfull ? " OVERFULL" : "") + (b.brokenInWord ? " BROKEN" : "")
                // A vertical line is listed by its strip's top, above its indent, so that a
                // block's lines stay in reading order, right to left (rounded: the indent taken
                // off again may leave a hair, which would list the line first).
                items.append(
                    (
                        l.vertical ? ((l.box.y - b.indent) * 1000).rounded() / 1000 : l.box.y,
                        "    line \(f(l.origin.x)),\(f(l.origin.y)) w=\(f(l.contentWidth))/\(f(l.box.width)) h=\(f(l.box.height)) @\(loc)\(flags) |\(text)|"
                    ))
            }
            for i in frame.images {
                let img = story.images[i.image]
                items.append(
                    (
                        i.rect.y,
                        "    image \(f(i.rect.x)),\(f(i.rect.y)) \(f(i.rect.width))x\(f(i.rect.height)) @\(img.location) \(img.source)\(i.shrunk ? " SHRUNK" : "")"
                    ))
            }
            for c in frame.dropCaps {
                let loc = story.sourceMap.sourceLocation(ofByte: c.storyRange.lowerBound, in: story.text).map { "\($0)" } ?? "-"
                let text = story.text.utf8Slice(c.storyRange.lowerBound, c.storyRange.upperBound)
                let box = "\(f(c.rect.x)),\(f(c.rect.y)) \(f(c.rect.width))x\(f(c.rect.height))"
                items.append((c.rect.y, "    dropcap \(box) lines=\(c.lines) @\(loc) |\(text)|"))
            }
            for (_, line) in items.sorted(by: { $0.0 < $1.0 }) { s += line + "\n" }
        }
        // What the page holds across its columns: images, pull quotes and sidebars that float
        // at the page's level (`span`, `top`, `bottom`).
        if !page.floats.isEmpty { s += "  on the page\n" }
        for i in page.floats.sorted(by: { ($0.rect.y, $0.rect.x) < ($1.rect.y, $1.rect.x) }) {
            let img = story.images[i.image]
            s +=
                "    float \(f(i.rect.x)),\(f(i.rect.y)) \(f(i.rect.width))x\(f(i.rect.height)) @\(img.location) \(img.source)\(i.shrunk ? " SHRUNK" : "")\n"
        }
        if let header = page.header { s += "  header " + running(header) }
        if let footer = page.footer { s += "  footer " + running(footer) }
        return s
    }

    /// `"text" at x,y`, with the side it is set flush to, if any.
    static func running(_ line: RunningLine) -> String {
        let side = line.alignment == .center ? "" : " flush \(line.alignment.rawValue)"
        return "\"\(line.text)\" at \(f(line.anchor.x)),\(f(line.anchor.y))\(side)\n"
    }

    static func f(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        if r == r.rounded() { return String(Int(r)) }
        return String(r)
    }
}

extension String {
    /// The text of UTF-8 bytes `from..<to`, clamped to the string.
    package func utf8Slice(_ from: Int, _ to: Int) -> Substring {
        let u = utf8
        let n = u.count
        let a = u.index(u.startIndex, offsetBy: min(max(0, from), n))
        let b = u.index(u.startIndex, offsetBy: min(max(from, to), n))
        return self[a..<b]
    }
}
