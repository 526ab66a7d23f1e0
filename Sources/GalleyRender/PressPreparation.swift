import CQPDF
import GalleySupport

/// The post-pass's work that needs nothing from Cairo's PDF, done on a thread of its own while
/// the pages are drawn, so that little is left for after the last page: the profiles
/// compressed, libqpdf loaded, and the slug line's face opened with the outlines of the glyphs
/// its lines use (fontconfig's match and the face's loading cost milliseconds).
struct PressPreparation {
    struct Made {
        /// The output intent's and sRGB's profiles as zlib streams; nil if zlib failed.
        var intent: [UInt8]?
        var sRGB: [UInt8]?
        var outlines: SlugOutlines
    }

    private let made: Background<Made>

    init(_ press: PressOutput) {
        let (intent, rgb) = (press.intent.bytes, press.sRGB.bytes)
        // Every digit with the document's name and date: the glyphs of most slug lines.
        let sample = press.slugLine(folio: "0123456789")
        made = Background {
            // libqpdf and what it links (GnuTLS among them) take milliseconds to load.
            _ = galley_qpdf_available()
            let deflater = Deflater()
            let outlines = SlugOutlines()
            _ = outlines.glyphs(sample)
            return Made(intent: deflater.deflate(intent), sRGB: deflater.deflate(rgb), outlines: outlines)
        }
    }

    /// What was made, once it is.
    var value: Made { made.value }
}
