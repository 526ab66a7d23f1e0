import GalleyTemplate
import Testing

@testable import GalleyStory

/// The rules of `SmartPunctuation`, on text alone: which mark each quote becomes, per language.
@Suite struct SmartPunctuationTests {
    let english = SmartPunctuation(marks: .english)
    let german = SmartPunctuation(marks: .german)
    let french = SmartPunctuation(marks: .french)
    let chinese = SmartPunctuation(language: "zh-Hans", typography: TypographySpec())
    let corner = SmartPunctuation(language: "zh", typography: TypographySpec(cjkQuotes: .corner))
    let dashes = SmartPunctuation(marks: .english, dashes: true)

    // English: double and single quotes, nested.
    @Test func englishQuotes() {
        #expect(english.rewrite(#""Hello," she said."#) == "“Hello,” she said.")
        #expect(english.rewrite(#"He said, "She told me 'no' twice.""#) == "He said, “She told me ‘no’ twice.”")
        #expect(english.rewrite(#"'Single,' he said."#) == "‘Single,’ he said.")
        #expect(english.rewrite(#""'Nested' at the start," and "at the 'end.'""#) == "“‘Nested’ at the start,” and “at the ‘end.’”")
    }

    // Apostrophes inside and at the end of words, and leading ones.
    @Test func apostrophes() {
        #expect(english.rewrite("It's the children's toys, the boys' toys.") == "It’s the children’s toys, the boys’ toys.")
        #expect(english.rewrite("rock 'n' roll, rock'n'roll") == "rock ’n’ roll, rock’n’roll")
        #expect(english.rewrite("the '90s and '05, not '123") == "the ’90s and ’05, not ‘123")
        #expect(english.rewrite("'Tis the season, 'twas, 'em, 'cause") == "’Tis the season, ’twas, ’em, ’cause")
        #expect(english.rewrite("'tisk") == "‘tisk")
        #expect(english.rewrite(#""It's 'em," said 'Arry."#) == "“It’s ’em,” said ‘Arry.")
    }

    // Quotes after dashes and opening brackets open; before punctuation they close.
    @Test func neighbours() {
        #expect(english.rewrite(#"("Really?") ['yes']"#) == "(“Really?”) [‘yes’]")
        #expect(english.rewrite(#"wait—"now" or -"then""#) == "wait—“now” or -“then”")
        #expect(english.rewrite(#""Go", "stop"; "wait": "end"!"#) == "“Go”, “stop”; “wait”: “end”!")
        #expect(english.rewrite(#""Why?" "Because.""#) == "“Why?” “Because.”")
        #expect(english.rewrite(#"*"stars"* and /"slashes"/"#) == "*“stars”* and /“slashes”/")
    }

    // At a paragraph's start, after a line separator, a tab or an isolate, a quote opens.
    @Test func starts() {
        #expect(english.rewrite(#"""#) == "“")
        #expect(english.rewrite("a\u{2028}\"b\"\t'c'") == "a\u{2028}“b”\t‘c’")
        #expect(english.rewrite("\u{2068}\"b\"") == "\u{2068}“b”")
    }

    // The character before the piece decides its first quote.
    @Test func before() {
        #expect(english.rewrite(#"" x"#, after: "a") == "” x")
        #expect(english.rewrite(#"" x"#, after: " ") == "“ x")
        #expect(english.rewrite("s toys", after: "y") == "s toys")
        #expect(english.rewrite("'s", after: "y") == "’s")
        // German “ closes: a quote after it closes too.
        #expect(german.rewrite(#"""#, after: "\u{201C}") == "“")
    }

    // A quote between spaces closes the one left open, if any.
    @Test func betweenSpaces() {
        #expect(english.rewrite(#"a " b"#) == "a “ b")
        #expect(english.rewrite(#""a " b"#) == "“a ” b")
    }

    // Quotes left open carry from piece to piece of a paragraph.
    @Test func stateAcrossPieces() {
        var state = QuoteState()
        var buffer: [UInt8] = []
        var edits: [SmartPunctuation.Edit] = []
        #expect(german.rewrite(#"sagte 'ja"#, after: nil, state: &state, buffer: &buffer, edits: &edits) == "sagte ‚ja")
        #expect(state.single && !state.double)
        #expect(german.rewrite(#"' und"#, after: "a", state: &state, buffer: &buffer, edits: &edits) == "‘ und")
        #expect(!state.single)
        #expect(german.rewrite("nichts", after: nil, state: &state, buffer: &buffer, edits: &edits) == nil)
    }

    // German: „…“ outside, ‚…‘ inside; the apostrophe is ’.
    @Test func germanQuotes() {
        #expect(german.rewrite(#""Er sagte 'Hallo' und ging's an.""#) == "„Er sagte ‚Hallo‘ und ging’s an.“")
        #expect(german.rewrite(#"Hans' Buch, "Ja.""#) == "Hans’ Buch, „Ja.“")
    }

    // French: guillemets with narrow no-break spaces inside, taking in the spaces typed there.
    @Test func frenchQuotes() {
        #expect(french.rewrite(#""Bonjour", dit-il."#) == "«\u{202F}Bonjour\u{202F}», dit-il.")
        #expect(french.rewrite("\" Salut \" et \" à\u{A0}toi\u{A0}\"") == "«\u{202F}Salut\u{202F}» et «\u{202F}à\u{A0}toi\u{202F}»")
        #expect(french.rewrite(#""C'est 'bien'.""#) == "«\u{202F}C’est “bien”.\u{202F}»")
    }

    // Chinese: curly as typed; with corner quotes, straight and typed curly quotes are corner ones.
    @Test func chineseQuotes() {
        #expect(chinese.rewrite(#"他说："好的"。"#) == "他说：“好的”。")
        #expect(chinese.rewrite("他说：“好的”。") == "他说：“好的”。")
        #expect(chinese.rewrite(#"他说"好的"就走了，'对'。"#) == "他说“好的”就走了，‘对’。")
        #expect(corner.rewrite(#"他说："好的"。"#) == "他说：「好的」。")
        #expect(corner.rewrite("他说：“她说‘对’。”") == "他说：「她说『对』。」")
        #expect(corner.rewrite(#""他说'对'""#) == "「他说『对』」")
        #expect(corner.rewrite("it’s “ok”") == "it’s 「ok」")
    }

    // Which marks a language tag picks.
    @Test func languages() {
        #expect(QuoteMarks.forLanguage("de-AT", cjk: .curly) == .german)
        #expect(QuoteMarks.forLanguage("FR", cjk: .corner) == .french)
        #expect(QuoteMarks.forLanguage("zh-Hant", cjk: .corner) == .corner)
        #expect(QuoteMarks.forLanguage("ja", cjk: .curly) == .english)
        #expect(QuoteMarks.forLanguage("pt-BR", cjk: .corner) == .english)
        #expect(QuoteMarks.forLanguage("dex", cjk: .curly) == .english)
    }

    // Dashes and ellipses only with `dashes`; runs of four or more hyphens stay.
    @Test func dashesAndDots() {
        #expect(english.rewrite("a--b---c...") == "a--b---c...")
        #expect(dashes.rewrite("1914--18, then---suddenly---peace...") == "1914–18, then—suddenly—peace…")
        #expect(dashes.rewrite("a - b ---- c .. d .... e ......") == "a - b ---- c .. d …. e ……")
        #expect(dashes.rewrite(#"---"Yes," he said"#) == "—“Yes,” he said")
        let quotesOff = SmartPunctuation(marks: .english, quotes: false, dashes: true)
        #expect(quotesOff.rewrite(#""a--b""#) == #""a–b""#)
    }

    // Text with nothing to change is no rewrite at all.
    @Test func unchanged() {
        var state = QuoteState()
        var buffer: [UInt8] = []
        var edits: [SmartPunctuation.Edit] = []
        #expect(english.rewrite("plain text.", after: nil, state: &state, buffer: &buffer, edits: &edits) == nil)
        #expect(dashes.rewrite("one - two. three", after: nil, state: &state, buffer: &buffer, edits: &edits) == nil)
        #expect(edits.isEmpty)
    }

    // Each replacement ends an edit: where the text after it starts, in source and output.
    @Test func edits() {
        var state = QuoteState()
        var buffer: [UInt8] = []
        var edits: [SmartPunctuation.Edit] = []
        let out = dashes.rewrite("é--'a'", after: nil, state: &state, buffer: &buffer, edits: &edits)
        #expect(out == "é–‘a’")
        #expect(
            edits == [
                .init(sourceBytes: 4, sourceScalars: 3, outputBytes: 5, outputScalars: 2),
                .init(sourceBytes: 5, sourceScalars: 4, outputBytes: 8, outputScalars: 3),
                .init(sourceBytes: 7, sourceScalars: 6, outputBytes: 12, outputScalars: 5),
            ])
    }
}
