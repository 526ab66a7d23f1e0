import Foundation
import Testing

/// The link annotations of a PDF, page by page, read from `qpdf --qdf` output with a tiny parser.
public struct PDFLinks {
    public struct Annotation {
        public var uri: String
        /// The page a link inside the file goes to (from 1), through its named destination or
        /// its page reference; nil for a link out of the file, or one that goes nowhere.
        public var destination: Int?
        /// The annotation's /Rect: x0 y0 x1 y1, PDF space (y up).
        public var rect: [Double]
        /// Its /QuadPoints, 8 numbers a rectangle.
        public var quads: [[Double]]
    }
    /// Annotations of each page, in page order.
    public var pages: [[Annotation]] = []
    public var pageHeight = 0.0

    public init(_ pdf: String) throws {
        let q = tool("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"])
        try #require(q.status == 0, "\(q.stderr)")
        let text = String(decoding: q.stdout, as: UTF8.self)
        // Objects by number.
        var objects: [Int: String] = [:]
        for m in text.matches(of: /(?s)\n(\d+) 0 obj\n(.*?)\nendobj/) {
            objects[Int(m.1)!] = String(m.2)
        }
        // Pages in order, from the page tree root's /Kids (a flat tree: Cairo writes one).
        let root = try #require(objects.values.first { $0.contains("/Type /Pages") })
        let kids = try #require(root.firstMatch(of: /\/Kids \[([^\]]*)\]/))
        let pageObjects = Self.refs(kids.1)
        let names = Self.namedDestinations(objects)
        for page in pageObjects {
            let body = objects[page] ?? ""
            if let box = body.firstMatch(of: /\/MediaBox \[([^\]]*)\]/) { pageHeight = Self.numbers(box.1).last ?? 0 }
            var annots: [Int] = []
            if let a = body.firstMatch(of: /\/Annots \[([^\]]*)\]/) {
                annots = Self.refs(a.1)
            } else if let a = body.firstMatch(of: /\/Annots (\d+) 0 R/), let array = objects[Int(a.1)!] {
                annots = Self.refs(array[...])
            }
            pages.append(
                annots.compactMap { n in
                    guard let o = objects[n], o.contains("/Subtype /Link") else { return nil }
                    let uri = o.firstMatch(of: /\/URI \((.*)\)/).map { String($0.1) } ?? ""
                    var target: Int?
                    if let name = o.firstMatch(of: /\/Dest \((.*)\)/) {
                        target = names[String(name.1)]
                    } else if let explicit = o.firstMatch(of: /\/Dest \[\s*(\d+) 0 R/) {
                        target = Int(explicit.1)
                    }
                    let rect = o.firstMatch(of: /\/Rect \[([^\]]*)\]/).map { Self.numbers($0.1) } ?? []
                    let quadNumbers = o.firstMatch(of: /\/QuadPoints \[([^\]]*)\]/).map { Self.numbers($0.1) } ?? []
                    let quads = stride(from: 0, to: quadNumbers.count - 7, by: 8).map { Array(quadNumbers[$0..<($0 + 8)]) }
                    let destination = target.flatMap { pageObjects.firstIndex(of: $0) }.map { $0 + 1 }
                    return Annotation(uri: uri, destination: destination, rect: rect, quads: quads)
                })
        }
    }

    /// The document's named destinations (`/Names << /Dests … >>`, one flat /Names array as
    /// Cairo writes it): name to page object.
    static func namedDestinations(_ objects: [Int: String]) -> [String: Int] {
        var names: [String: Int] = [:]
        for body in objects.values where body.contains("/Names [") {
            for m in body.matches(of: /\((.*?)\)\s*\[\s*(\d+) 0 R/) { names[String(m.1)] = Int(m.2) }
        }
        return names
    }

    static func refs(_ s: Substring) -> [Int] { s.matches(of: /(\d+) 0 R/).map { Int($0.1)! } }
    static func numbers(_ s: Substring) -> [Double] { s.split(whereSeparator: { $0.isWhitespace }).compactMap { Double($0) } }
}
