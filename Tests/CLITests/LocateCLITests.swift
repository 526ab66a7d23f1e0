import Foundation
import TestSupport
import Testing

/// `galley locate` from the command line: both directions, JSON, and the located refusals.
@Suite struct LocateCLITests {
    static func doc(_ d: TemporaryDirectory) -> String {
        d.write("a.txt", "<h1>Harbour</h1>\nThe harbour at dawn is a study in grey and silver.\nA second paragraph follows it.\n")
    }

    @Test func bothDirections() throws {
        let d = TemporaryDirectory("locate")
        let input = Self.doc(d)
        let r = run(["locate", input, "--source", "3:3", "--json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        #expect(object["word"] as? String == "second" && object["source"] as? String == "3:3" && object["page"] as? Int == 1)
        let line = try #require(object["line"] as? [String: Double])
        let x = try #require(object["x"] as? Double)
        // Back from the point where it is drawn: the same character.
        let back = run(["locate", input, "--page", "1", "--at", "\(x + 0.1),\(line["y"]! + line["height"]! / 2)", "-q"])
        #expect(back.status == 0)
        #expect(back.output.hasPrefix("page 1, column 2: character"), "\(back.output)")  // balanced: the second column
        #expect(back.output.contains("(source 3:3), word 'second'"), "\(back.output)")
        #expect(run(["locate", input, "--at", "3,3", "-q"]).output == "page 1: the margin\n")
        // Just past the end of a line, where an editor's cursor stands: its last character.
        let end = run(["locate", input, "--source", "3:31", "-q"])
        #expect(end.output.contains("(source 3:30), word 'it'"), "\(end.output)\(end.stderr)")
        // So when that character takes more than a byte, or a closing tag follows it.
        let accents = d.write("b.txt", "Un café\nThé <b>é</b>\n")
        let cafe = run(["locate", accents, "--source", "1:8", "-q"])
        #expect(cafe.output.contains("(source 1:7), word 'café'"), "\(cafe.output)\(cafe.stderr)")
        let tagged = run(["locate", accents, "--source", "2:13", "-q"])
        #expect(tagged.output.contains("(source 2:8), word 'é'"), "\(tagged.output)\(tagged.stderr)")
        // Chinese has no spaces: the word is the clause holding the character, between marks
        // (it was the run from the paragraph's start, marks and all cut at the first).
        let chinese = d.write("c.txt", "港口的清晨，印刷工人走进车间。他们排好了字——然后开印。\n")
        let clause = run(["locate", chinese, "--source", "1:9", "-q"])
        #expect(clause.output.contains("(source 1:9), word '印刷工人走进车间'"), "\(clause.output)\(clause.stderr)")
        let dash = run(["locate", chinese, "--source", "1:25", "-q"])
        #expect(dash.output.contains("(source 1:25), word '然后开印'"), "\(dash.output)\(dash.stderr)")
        let mark = run(["locate", chinese, "--source", "1:6", "-q"])
        #expect(mark.output.contains("(source 1:6), word '港口的清晨'"), "\(mark.output)\(mark.stderr)")
    }

    // A point in the text area under a column balanced short, or in an empty column, is in
    // that column (its last line the nearest), not "the margin".
    @Test func underAShortColumn() {
        let d = TemporaryDirectory("locate")
        let one = d.write("one.txt", "One short paragraph.\n")
        let empty = run(["locate", one, "--page", "1", "--at", "400,100", "-q"])
        #expect(empty.output.hasPrefix("page 1, column 2"), "\(empty.output)")
        let under = run(["locate", one, "--page", "1", "--at", "100,300", "-q"])
        #expect(under.output.hasPrefix("page 1, column 1"), "\(under.output)")
        #expect(run(["locate", one, "--page", "1", "--at", "100,830", "-q"]).output == "page 1: the margin\n")
    }

    // Text of a pull quote or sidebar is found in its block, and a drop cap's letter is the
    // drop cap, both ways: the first pointed at another paragraph, the second set "nothing".
    @Test func blocksAndDropCaps() throws {
        let d = TemporaryDirectory("locate")
        let input = d.write(
            "q.txt",
            """
            <h1>Harbour</h1>
            The compositor set each line by hand, measuring it against a steel rule while the light faded.
            <pullquote>“Every letter was a decision.”</pullquote>
            The apprentices sorted the type back into its cases, one letter at a time.
            <aside>A sidebar about type cases.</aside>
            <p dropcap="3">Quietly the press began to run, sheet after sheet, until the morning came over the harbour.</p>

            """)
        for (source, said) in [
            ("3:15", "in a pull quote: character 3 (source 3:15), word 'Every'"),
            ("5:10", "in a sidebar: character 2 (source 5:10), word 'sidebar'"),
            ("6:16", "drop cap 'Q', character "),
        ] {
            let r = run(["locate", input, "--source", source, "--json", "-q"])
            #expect(r.status == 0, "\(source): \(r.stderr)")
            let o = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
            let text = run(["locate", input, "--source", source, "-q"]).output
            #expect(text.contains(said), "\(source): \(text)")
            // Back from the middle of what was found: the same.
            let box = try #require(o["line"] as? [String: Double])
            let x = (o["x"] as? Double).map { $0 + 0.1 } ?? box["x"]! + box["width"]! / 2
            let back = run(["locate", input, "--at", "\(x),\(box["y"]! + box["height"]! / 2)", "-q"])
            #expect(back.output.contains(said), "\(source) back: \(back.output)")
        }
        // In a block as in running text: a tag gives the character after it, the closing tag
        // the last one, and a place just past a line's end that line's last character.
        for (source, said) in [
            ("3:5", "in a pull quote: character 0 (source 3:12)"), ("3:47", "in a pull quote: character 29 (source 3:41)"),
            ("5:35", "in a sidebar: character 26 (source 5:34)"), ("5:43", "in a sidebar: character 26 (source 5:34)"),
        ] {
            let text = run(["locate", input, "--source", source, "-q"])
            #expect(text.output.contains(said), "\(source): \(text.output)\(text.stderr)")
        }
        // Text a block had no room for is said to be cut, not placed off the page.
        let long = d.write("long.txt", "Text.\n<pullquote>" + String(repeating: "Quoted words go on. ", count: 200) + "</pullquote>\n")
        let cut = run(["locate", long, "--source", "2:3900", "-q"])
        #expect(cut.status == 1 && cut.stderr.contains("is in the part of a pull quote cut for want of room"), "\(cut.stderr)")
    }

    // An <img> set apart from the lines is found from its source line, with its box, and the
    // point in the middle of that box is on the same image.
    @Test func anImageFromItsSourceLine() throws {
        let d = TemporaryDirectory("locate")
        let chart = "chart.png"
        try FileManager.default.copyItem(atPath: repoPath("samples/images/chart.png"), toPath: d.file(chart))
        let input = d.write("a.txt", "The harbour at dawn.\n<img src=\"chart.png\" float=\"left\" width=\"40%\">\nA second paragraph.\n")
        let r = run(["locate", input, "--source", "2:1", "--json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        #expect(object["kind"] as? String == "image" && object["image"] as? String == chart && object["source"] as? String == "2:1")
        let box = try #require(object["imageBox"] as? [String: Double])
        let back = run(["locate", input, "--page", "1", "--at", "\(box["x"]! + box["width"]! / 2),\(box["y"]! + box["height"]! / 2)", "-q"])
        #expect(back.output.hasPrefix("page 1: image \(chart)"), "\(back.output)")
        #expect(run(["locate", input, "--source", "2:1", "-q"]).output.contains("image \(chart), box "))
        // Anywhere in the tag, up to its '>', is the image too.
        for column in [3, 20, 47] {
            let inside = run(["locate", input, "--source", "2:\(column)", "-q"])
            #expect(inside.output.contains("image \(chart), box "), "2:\(column): \(inside.output)")
        }
    }

    @Test func refusals() {
        let d = TemporaryDirectory("locate")
        let input = Self.doc(d)
        let page = run(["locate", input, "--page", "7", "--at", "10,10"])
        #expect(page.status == 1 && page.stderr.contains("error: page 7 does not exist: the document has 1 page"))
        let outside = run(["locate", input, "--at", "9000,10"])
        #expect(outside.status == 1 && outside.stderr.contains("error: the point 9000,10 is outside page 1, which is 595.3×841.9 pt"))
        let past = run(["locate", input, "--source", "40:1"])
        #expect(past.status == 1 && past.stderr.contains("error: 40:1 is past the end of '\(input)', which has 3 lines"), "\(past.stderr)")
        let wide = run(["locate", input, "--source", "2:80"])
        #expect(
            wide.status == 1 && wide.stderr.contains("error: 2:80 is past the end of line 2 of '\(input)', which has 50 columns"),
            "\(wide.stderr)")
        // Inside a tag: the first character set after it.
        #expect(run(["locate", input, "--source", "1:2", "-q"]).output.contains("(source 1:5), word 'Harbour'"))
        #expect(run(["locate", input, "--at", "1,2", "--source", "1:1"]).status == 2)
        #expect(run(["locate", input, "--at", "x"]).stderr.contains("--at must be X,Y"))
        // In a closing tag that ends its line: the line's last character, as just past it.
        let d2 = TemporaryDirectory("locate")
        let tagged = d2.write("t.txt", "The harbour at <font color=\"red\">dawn</font>\nNext line.\n")
        let inTag = run(["locate", tagged, "--source", "1:44", "-q"])
        #expect(inTag.status == 0 && inTag.output.contains("word 'dawn'"), "\(inTag.output)\(inTag.stderr)")
        // Empty parts are mistakes, not skipped.
        for at in ["200,,620", "200,620,", ",,200,620"] {
            #expect(run(["locate", input, "--at", at]).stderr.contains("--at must be X,Y"), "\(at)")
        }
        #expect(run(["locate", input, "--source", "1::5"]).stderr.contains("--source must be LINE:COL"))
    }
}
