import Foundation
import GalleyLayout
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// `galley locate`'s two directions round-trip over every line of every sample: a line's first
/// character, taken to its source position and back, is the same character on the same page;
/// and the point where it is drawn hits it again.
@Suite struct LocatorTests {
    static let samples = ["article", "attributes", "chinese", "feature", "feed", "figures", "long"]

    @Test(arguments: samples) func roundTrips(sample: String) throws {
        let text = try String(contentsOfFile: repoPath("samples/\(sample).txt"), encoding: .utf8)
        let fs = framesetter(text, template: .default)
        let ps = pages(of: fs)
        let story = fs.story
        var checked = 0
        for (p, page) in ps.enumerated() {
            for frame in page.frames {
                for line in frame.lines where !line.vertical && !line.storyRange.isEmpty {
                    let byte = line.storyRange.lowerBound
                    // Text the builder made (an isolate, an image's anchor) has no column of its own.
                    guard let a = story.sourceMap.anchors.last(where: { $0.storyOffset <= byte }), a.linear else { continue }
                    let source = try #require(story.sourceMap.sourceLocation(ofByte: byte, in: story.text))
                    let back = story.sourceMap.storyByte(line: source.line, column: source.column, in: story.text)
                    #expect(back == byte, "\(sample) \(source): \(byte) came back as \(back.map(String.init) ?? "nil")")
                    let place = try #require(Locator.place(ofByte: byte, in: ps))
                    #expect(place.page == p && place.line.storyRange == line.storyRange)
                    let x = try #require(Locator.x(ofByte: byte, in: line))
                    let hit = Locator.hit(page, x: x + 0.05, y: line.box.midY)
                    guard case .character(let found, _, _) = hit else {
                        Issue.record("\(sample) page \(p + 1): the point \(x),\(line.box.midY) hit \(hit), not a character")
                        continue
                    }
                    #expect(found == byte, "\(sample) page \(p + 1) at \(x): \(found), not \(byte)")
                    checked += 1
                }
            }
        }
        #expect(checked > 20, "\(sample): only \(checked) lines checked")
    }

    // A point in the margin, between lines and on an image say so.
    @Test func whatAPointFallsOn() throws {
        let fs = framesetter("<img src=\"images/chart.png\" float=\"left\" width=\"40%\">Text beside the chart. " + String(repeating: "More text. ", count: 200))
        let page = try #require(pages(of: fs).first)
        #expect(Locator.hit(page, x: 2, y: 2) == .margin)
        let image = try #require(page.frames.flatMap(\.images).first)
        #expect(Locator.hit(page, x: image.rect.midX, y: image.rect.midY) == .image(image.image, rect: image.rect))
    }
}
