import Foundation
import GalleyFuzz
import Testing

/// Every input kept for the fuzzers, the seeds and what they found (`Tests/Fuzz/corpus/TARGET/`)
/// and every input that once crashed a target (`Tests/Fuzz/regressions/TARGET/`), run through its
/// target: each must return.
@Suite struct CorpusReplayTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz").path

    static func inputs(_ kind: String, _ target: FuzzTarget) -> [String] {
        let folder = "\(fuzz)/\(kind)/\(target.rawValue)"
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        return FuzzMain.files(at: folder)
    }

    @Test(arguments: FuzzTarget.allCases)
    func corpus(_ target: FuzzTarget) throws {
        let files = Self.inputs("corpus", target)
        #expect(!files.isEmpty, "no corpus for \(target.rawValue)")
        for file in files { target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file)))) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressions(_ target: FuzzTarget) throws {
        for file in Self.inputs("regressions", target) { target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file)))) }
    }
}
