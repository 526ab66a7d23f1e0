import Foundation
import TestSupport
import Testing

/// Every sample's page layout, pinned: `galley inspect --lines` (each placed line and image with
/// its place, width, source location and text), checked in under Tests/Goldens and reviewed.
/// A change of layout shows here line by line; after reviewing it, `GALLEY_RECORD=1 make test`
/// writes the new dumps (and fails, so that they are looked at before they are committed).
@Suite struct LayoutGoldenTests {
    @Test(arguments: ["article", "attributes", "chinese", "feed", "feature", "figures", "long", "vertical"])
    func sampleLayout(name: String) throws {
        let r = run(["inspect", repoPath("samples/\(name).txt"), "--social", "--lines", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let dump = r.output.replacingOccurrences(of: repoPath("") + "/", with: "").replacingOccurrences(of: repoPath(""), with: "")
        let golden = repoPath("Tests/Goldens/\(name).lines.txt")
        if ProcessInfo.processInfo.environment["GALLEY_RECORD"] == "1" {
            try dump.write(toFile: golden, atomically: true, encoding: .utf8)
            Issue.record("GALLEY_RECORD=1: wrote \(golden); review it with git diff")
            return
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        if dump != expected {
            Issue.record(Comment(rawValue: "\(name): layout differs (- golden, + now):\n" + lineDiff(expected, dump)))
        }
    }
}
