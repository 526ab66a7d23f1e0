import GalleySupport
/// A colour with straight (not premultiplied) alpha, each component 0…1.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = RGBA(0, 0, 0)
    public static let white = RGBA(1, 1, 1)
    public static let clear = RGBA(0, 0, 0, 0)

    /// `#rrggbb`, or `#rrggbbaa` when not opaque: the form used in dumps and JSON.
    public var description: String {
        func hex(_ v: Double) -> String {
            let n = Int((v * 255).rounded())
            let s = String(min(255, max(0, n)), radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha < 1 ? hex(alpha) : "")
    }
}
