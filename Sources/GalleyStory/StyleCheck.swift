import GalleyMarkup
import GalleyTemplate

/// A mistake in one of a template's named styles: the style that sets the attribute, the
/// attribute, and what is wrong with its value.
public struct StyleMistake: Equatable, Sendable {
    public var style: String
    public var attribute: String
    public var message: String
}

extension StoryBuilder {
    /// The mistakes of the template's named styles, found as the story finds them where a
    /// class is used, but all at once, so that they are said at the template (its file and the
    /// value) rather than at each use, and also for a style no text uses yet. Each style is
    /// applied as a paragraph's class is, its `basedOn` chain resolved; a mistake is given to
    /// the style of the chain that sets the attribute.
    public func styleMistakes() -> [StyleMistake] {
        let boxOnly = Set(Vocabulary.blockBoxAttributes.map { $0.lowercased() })
        var out: [StyleMistake] = []
        for style in template.styles {
            guard let attributes = template.resolvedStyle(style.name)?.filter({ !boxOnly.contains($0.name.lowercased()) }) else {
                continue
            }
            // Each attribute at a line of its own, so that an error says which it is about.
            let tag = MarkupTag(
                name: "p",
                attributes: attributes.enumerated().map { k, a in
                    let at = SourceLocation(line: k + 1, column: 1, offset: k)
                    return MarkupAttribute(name: a.name, value: a.value, nameLocation: at, valueLocation: at)
                }, location: SourceLocation(line: 1, column: 1, offset: 0), selfClosing: false)
            var run = Run(builder: self, file: "")
            run.applyCharacterAttributes(tag)
            run.applyParagraphAttributes(tag)
            for d in run.diagnostics.errors {
                guard let line = d.location?.line, line >= 1, line <= attributes.count else { continue }
                let name = attributes[line - 1].name
                let mistake = StyleMistake(style: setter(of: name, from: style.name), attribute: name, message: d.message)
                if !out.contains(mistake) { out.append(mistake) }
            }
            for mistake in boxMistakes(of: style.name, only: boxOnly) where !out.contains(mistake) { out.append(mistake) }
        }
        return out
    }

    /// The mistakes of a style's box attributes (a sidebar's frame, rule, padding and their
    /// colours), read as `<aside>` reads them: they were found only where a box used the style,
    /// and said at the markup, not at the template.
    private func boxMistakes(of style: String, only boxOnly: Set<String>) -> [StyleMistake] {
        let box = template.resolvedStyle(style)?.filter { boxOnly.contains($0.name.lowercased()) } ?? []
        return box.flatMap { a -> [StyleMistake] in
            var run = Run(builder: self, file: "")
            var one = [a]
            let at = SourceLocation(line: 1, column: 1, offset: 0)
            _ = run.blockBox(&one, at: MarkupAttribute(name: a.name, value: a.value, nameLocation: at, valueLocation: at))
            return run.diagnostics.errors.map {
                StyleMistake(style: setter(of: a.name, from: style), attribute: a.name, message: $0.message)
            }
        }
    }

    /// The style of `name`'s `basedOn` chain that sets `attribute` (the nearest).
    private func setter(of attribute: String, from name: String) -> String {
        var current = template.style(named: name)
        var seen: Set<String> = []
        while let s = current, seen.insert(s.name).inserted {
            if s.attributes.contains(where: { $0.name.lowercased() == attribute.lowercased() }) { return s.name }
            current = s.basedOn.flatMap { template.style(named: $0) }
        }
        return name
    }
}
