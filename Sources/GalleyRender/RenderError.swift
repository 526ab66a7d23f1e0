import GalleyMarkup
import GalleySupport

/// Why an output could not be made. Carries a diagnostic ready to print.
public struct RenderError: Error, Sendable {
    public var diagnostic: Diagnostic
    public init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
}
