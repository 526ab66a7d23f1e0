import Foundation
import GalleySupport

/// The repository root, found from this file's path (`<repo>/Sources/TestSupport/TestFonts.swift`).
public let repositoryRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// An absolute path inside the repository: `repoPath("samples/article.txt")`.
public func repoPath(_ relative: String) -> String {
    (repositoryRoot as NSString).appendingPathComponent(relative)
}

/// Pins the fonts tests see to `Tests/fonts.conf` (only the families `make setup` installs).
public enum TestFonts {
    /// Set once per process; fontconfig reads the variable when it first initialises.
    private static let pinned: Bool = {
        // 0: an explicit FONTCONFIG_FILE (as `make test` sets) wins.
        setenv("FONTCONFIG_FILE", repoPath("Tests/fonts.conf"), 0)
        return true
    }()

    /// Call at the start of every test that lays out text: cheap and idempotent. It must run
    /// before the first Pango call in the process to have any effect.
    public static func pin() {
        _ = pinned
    }
}
