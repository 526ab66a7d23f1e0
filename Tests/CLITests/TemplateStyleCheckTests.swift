import Foundation
import TestSupport
import Testing

/// A named style's bad value is said at the template, where it is written, before any text is
/// set: not at each class that uses it, nor never when no text does.
@Suite struct TemplateStyleCheckTests {
    @Test func atItsValueInTheTemplate() {
        let d = TemporaryDirectory("styles")
        d.write("base.json", "{\n  \"extends\": \"magazine\",\n  \"styles\": {\"note\": {\"size\": \"huge\"}}\n}\n")
        let template = d.write("t.json", "{\n  \"extends\": \"base.json\",\n  \"styles\": {\n    \"deck\": {\"dropcap\": 20}\n  }\n}\n")
        let input = d.write("a.txt", "Body only: no class is used.\n")
        let r = run(["check", input, "-t", template])
        #expect(r.status == 1)
        let deck = "\(template):4:25: error: style 'deck': dropcap must be a whole number of lines from 2 to 10, got '20'"
        let note = "\(d.file("base.json")):3:31: error: style 'note': size must be a number of points, got 'huge'"
        #expect(r.stderr.contains(deck) && r.stderr.contains(note), "\(r.stderr)")
    }

    // A sidebar style's box (frame, rule, padding and their colours) is checked at the template
    // too: its mistakes were said at the first <aside> using it, on the markup, and a negative
    // padding was taken as 0 in silence.
    @Test func aBoxsValuesAtTheTemplate() {
        let d = TemporaryDirectory("styles-box")
        let template = d.write(
            "t.json", "{\"extends\": \"magazine\",\n \"styles\": {\"sidebar\": {\"frameColor\": \"nocolour\", \"padding\": \"-5\"}}}\n")
        let input = d.write("a.txt", "Body only: no sidebar.\n")
        let r = run(["check", input, "-t", template])
        #expect(r.status == 1)
        #expect(r.stderr.contains("t.json:2:39: error: style 'sidebar': unknown colour 'nocolour'"), "\(r.stderr)")
        #expect(r.stderr.contains("t.json:2:62: error: style 'sidebar': padding must be 0 or more, got '-5'"), "\(r.stderr)")
    }

    // Hyphenation in a language with no patterns installed did nothing, unsaid: the justified
    // lines came out loose with no word of why. Chinese is not hyphenated, and is not warned of.
    @Test func aLanguageWithNoPatterns() {
        let said = run(["check", "-", "--set", "language=ru"], stdin: Array("Some words.\n".utf8)).stderr
        #expect(said.contains("warning: no hyphenation patterns are installed for 'ru': its words are not hyphenated"), "\(said)")
        #expect(!run(["check", "-", "--set", "language=zh-Hans"], stdin: Array("中文。\n".utf8)).stderr.contains("hyphenation"))
        #expect(!run(["check", "-"], stdin: Array("Some words.\n".utf8)).stderr.contains("hyphenation"))
    }

    // A misspelt face gets a suggestion, as colours, keys and values do.
    @Test func aMisspeltFace() {
        let said = run(["check", "-"], stdin: Array("<font face=\"Helvetca\">x</font>\n".utf8)).stderr
        #expect(said.contains("warning: face 'Helvetca' is not installed; using 'DejaVu Sans'; did you mean 'Helvetica'?"), "\(said)")
    }

    // A footer or running head taller than its margin holds was drawn into the text's last
    // (or first) line without a word; it is warned of, at the margins that are too shallow.
    @Test func runningLinesTooBigForTheirMargins() {
        let d = TemporaryDirectory("styles-margins")
        let template = d.write(
            "t.json",
            "{\"extends\": \"magazine\",\n \"margins\": {\"top\": \"5mm\", \"bottom\": \"4mm\", \"left\": \"20mm\", \"right\": \"20mm\"},\n"
                + " \"footer\": {\"size\": 14}, \"header\": {\"enabled\": true, \"size\": 14}}\n")
        let input = d.write("a.txt", "Body only.\n")
        let r = run(["check", input, "-t", template])
        #expect(r.status == 0)
        #expect(
            r.stderr.contains(
                "t.json:2:13: warning: the bottom margin (11.3 pt) is too shallow for the footer (14 pt), which is drawn over the text;"
                    + " give it at least 23 pt, or a smaller footer"), "\(r.stderr)")
        #expect(r.stderr.contains("warning: the top margin (14.2 pt) is too shallow for the running head (14 pt)"), "\(r.stderr)")
        let roomy = run(["check", input, "-t", template, "--set", "margins=25mm"])
        #expect(roomy.status == 0 && !roomy.stderr.contains("too shallow"), "\(roomy.stderr)")
        #expect(!roomy.stderr.contains("gutter"), "\(roomy.stderr)")
    }

    // A gutter under half an em lets the columns' words run into each other: said at the
    // template's value (a gutter of 0 was taken without a word).
    @Test func aGutterTooNarrow() {
        let d = TemporaryDirectory("styles-gutter")
        let template = d.write("t.json", "{\"extends\": \"magazine\",\n \"gutter\": 0}\n")
        let r = run(["check", d.write("a.txt", "Body only.\n"), "-t", template])
        #expect(
            r.stderr.contains(
                "t.json:2:12: warning: the gutter (0 pt) is under half an em of the 10 pt body: the columns' words run into each other;"),
            "\(r.stderr)")
    }

    @Test func fromTheCommandLine() {
        let r = run(["check", "-", "--set", "styles.deck.size=huge"], stdin: Array("x".utf8))
        #expect(r.status == 2)
        let said = "galley check: error: --set styles.deck.size=huge: style 'deck': size must be a number of points, got 'huge'"
        #expect(r.stderr.hasPrefix(said), "\(r.stderr)")
    }

    // The file and `--set` both give the size: the `--set` is in effect, so it is blamed, not
    // the file's value (which the message's "got" would contradict).
    @Test func theSetInEffectOverTheFile() {
        let d = TemporaryDirectory("styles-set")
        let template = d.write("t.json", "{\n  \"extends\": \"magazine\",\n  \"styles\": {\"note\": {\"size\": \"huge\"}}\n}\n")
        let r = run(["check", "-", "-t", template, "--set", "styles.note.size=-2"], stdin: Array("x".utf8))
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("galley check: error: --set styles.note.size=-2: style 'note':"), "\(r.stderr)")
        #expect(!r.stderr.contains("t.json"), "\(r.stderr)")
    }

    // Every built-in template's styles hold.
    @Test func builtInTemplatesHold() {
        for name in ["magazine", "letter", "tabloid", "pocket", "tablet", "magazine-zh"] {
            let r = run(["check", "-", "-t", name, "-q"], stdin: Array("x".utf8))
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
    }
}
