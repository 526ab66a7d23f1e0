import Foundation
import TestSupport
import Testing

@Suite struct DropCapCLITests {
    // inspect --json lists a column's drop caps with the initial, its lines, its source and its
    // box; columns without one have no dropCaps key. The template key reaches it from --set.
    @Test func inspectJSON() throws {
        let input = Array("<h1>Head</h1>\nThe first paragraph after the heading.\nAnother one.\n".utf8)
        let r = run(["inspect", "-", "--json", "--set", "dropcap.after=h1", "--set", "dropcap.lines=2"], stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let pages = try #require(json["pages"] as? [[String: Any]])
        let columns = try #require(pages.first?["columns"] as? [[String: Any]])
        let caps = columns.compactMap { $0["dropCaps"] as? [[String: Any]] }.flatMap { $0 }
        #expect(caps.count == 1)
        let cap = try #require(caps.first)
        #expect(cap["text"] as? String == "T" && cap["lines"] as? Int == 2 && cap["source"] as? String == "2:1")
        #expect((cap["width"] as? Double ?? 0) > 0 && (cap["height"] as? Double ?? 0) > 12)
        #expect(columns.filter { $0["dropCaps"] == nil }.count == columns.count - 1)
    }

    // A bad value is a located error, and nothing is written.
    @Test func badValue() {
        let r = run(["check", "-"], stdin: Array("<p dropcap=\"40\">x</p>\n".utf8))
        #expect(r.status == 1)
        #expect(r.stderr.contains("<stdin>:1:13: error: dropcap must be a whole number of lines from 2 to 10, got '40'"))
    }
}
