import GalleySupport
import Glibc

/// What the fuzzers feed: each target takes any bytes and must return, whatever they are,
/// without a trap, a memory error or a hang. Errors in the input are the expected outcome; their
/// diagnostics are rendered too, as a user would see them.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Markup parsed and built into a story (social text included), every diagnostic rendered.
    case markup
    /// A template's JSON decoded, then `--set` overrides applied (the lines after a NUL byte),
    /// then written out and read back, which must give the same template.
    case template
    /// An emoticon pack's `pack.json` read, and a story built with each of its codes.
    case emoticons
    /// Markup (then, after a NUL byte, `--set` overrides) laid out and drawn to a PDF.
    case layout
    /// An issue manifest decoded, its files looked up in a folder holding a few, its `set`s applied.
    case manifest

    /// Runs one input through the target.
    public func run(_ bytes: [UInt8]) {
        FuzzFiles.prepare()
        switch self {
        case .markup: MarkupFuzz.run(bytes)
        case .template: TemplateFuzz.run(bytes)
        case .emoticons: EmoticonFuzz.run(bytes)
        case .layout: LayoutFuzz.run(bytes)
        case .manifest: ManifestFuzz.run(bytes)
        }
    }

    /// The part of an input before its first NUL byte, and the lines after it (none without one).
    static func split(_ bytes: [UInt8]) -> (main: ArraySlice<UInt8>, overrides: [String]) {
        guard let nul = bytes.firstIndex(of: 0) else { return (bytes[...], []) }
        // Overrides come from the command line, where the shell hands over any bytes.
        let rest = String(decoding: bytes[(nul + 1)...], as: UTF8.self)
        return (bytes[..<nul], rest.split(separator: "\n").map(String.init))
    }
}
