import Foundation
import GalleyMarkup
import GalleyStory
@testable import GalleyTemplate
import TestSupport

/// The magazine template with a paragraph mode.
func template(_ mode: ParagraphMode) -> Template {
    var t = Template.default
    t.paragraphMode = mode
    return t
}

/// The story dump of `text`, then its diagnostics rendered as the CLI prints them.
func listing(_ text: String, mode: ParagraphMode = .newline, base: String = repoPath("samples")) -> String {
    let b = buildStory(text, template: template(mode), baseDirectory: base)
    return StoryDump.dump(b.story) + b.rendered
}

/// The story of `text`.
func story(_ text: String, mode: ParagraphMode = .newline) -> Story {
    buildStory(text, template: template(mode)).story
}

/// The story's text, paragraphs joined by their terminators.
func storyText(_ text: String, mode: ParagraphMode = .newline) -> String { story(text, mode: mode).text }

/// Byte offset of the first occurrence of `needle` in `s`.
func byte(of needle: String, in s: String) -> Int {
    s.utf8.distance(from: s.utf8.startIndex, to: s.range(of: needle)!.lowerBound)
}

/// Where story byte `offset` came from, as `line:col`.
func source(_ s: Story, byte offset: Int) -> String {
    s.sourceMap.sourceLocation(ofByte: offset, in: s.text).map { "\($0)" } ?? "-"
}
