import CQPDF
import FoundationEssentials
import GalleySupport

// The output intent, the XMP packet and the Info entries of the post-pass (see `PDFXWriter`).
extension PDFXWriter {
    /// The catalogue's `/OutputIntents` (the printing condition, its profile embedded, named by
    /// the profile's own description since it is no registered condition) and `/Metadata`; the
    /// Info dictionary's dates in PDF's form (Cairo 1.16 leaves out the `D:`), `/Trapped /False`
    /// and the PDF/X version.
    func addOutputIntentAndMetadata(id: (document: String, instance: String)) {
        let root = galley_qpdf_get_root(q)
        let profile = stream(
            press.intent.bytes, deflated: prepared.intent, [("/N", galley_qpdf_oh_new_integer(q, Int64(press.intent.components)))])
        let condition = galley_qpdf_oh_new_unicode_string(q, press.intent.name)
        let intent = dictionary([
            ("/Type", name("/OutputIntent")), ("/S", name("/GTS_PDFX")), ("/OutputConditionIdentifier", condition),
            ("/OutputCondition", condition), ("/Info", condition), ("/RegistryName", galley_qpdf_oh_new_string(q, "http://www.color.org")),
            ("/DestOutputProfile", profile),
        ])
        galley_qpdf_oh_replace_key(q, root, "/OutputIntents", array([intent]))
        let info = infoDictionary()
        func text(_ key: String) -> String? {
            let value = galley_qpdf_oh_get_utf8_value(q, galley_qpdf_oh_get_key(q, info, key)).map { String(cString: $0) }
            return value?.isEmpty == false ? value : nil
        }
        // What Info says, XMP says the same (PDF/X checkers compare them).
        let xmp = Self.xmp(
            metadata: metadata, producer: text("/Producer") ?? "", subject: text("/Subject"), keywords: text("/Keywords"), id: id)
        let packet = stream(Array(xmp.utf8), [("/Type", name("/Metadata")), ("/Subtype", name("/XML"))])
        galley_qpdf_oh_replace_key(q, root, "/Metadata", packet)
        let date = galley_qpdf_oh_new_string(q, Self.pdfDate(metadata.date))
        galley_qpdf_oh_replace_key(q, info, "/CreationDate", date)
        galley_qpdf_oh_replace_key(q, info, "/ModDate", date)
        galley_qpdf_oh_replace_key(q, info, "/Trapped", name("/False"))
        galley_qpdf_oh_replace_key(q, info, "/GTS_PDFXVersion", galley_qpdf_oh_new_string(q, "PDF/X-4"))
    }

    /// The trailer's Info dictionary, made when Cairo wrote none.
    func infoDictionary() -> qpdf_oh {
        let trailer = galley_qpdf_get_trailer(q)
        let info = galley_qpdf_oh_get_key(q, trailer, "/Info")
        if galley_qpdf_oh_is_dictionary(q, info) != 0 { return info }
        let made = galley_qpdf_make_indirect_object(q, galley_qpdf_oh_new_dictionary(q))
        galley_qpdf_oh_replace_key(q, trailer, "/Info", made)
        return made
    }

    /// The XMP document and instance IDs: UUIDs made from a hash of Cairo's PDF, so the same
    /// build gives the same IDs and another document others. `rendition` tells files made from
    /// one drawing apart (RGB 0, CMYK 1): the same document, each its own instance.
    static func documentID(_ bytes: [UInt8], rendition: UInt64 = 0) -> (document: String, instance: String) {
        // FNV-1a over 8-byte words (a byte at a time cost 4 ms of the post-pass on en-large).
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x6c62_272e_07bb_0142
        bytes.withUnsafeBytes { p in
            let words = p.count / 8
            for i in 0..<words {
                let w = p.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                a = (a ^ w) &* 0x0000_0100_0000_01b3
                b = (b ^ (w >> 7 | w << 57)) &* 0x0000_0100_0000_01b3 &+ 1
            }
            for byte in p[(words * 8)...] {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 1
            }
        }
        // The instance is this rendition of the document: the same hash, told apart.
        let r = (rendition &+ 1) &* 0x9e37_79b9_7f4a_7c15
        return (Self.uuid(a, b), Self.uuid(a ^ r, b &+ r))
    }

    /// `uuid:` and the 128 bits of two FNV-1a hashes, shaped as a version 4 UUID.
    static func uuid(_ a: UInt64, _ b: UInt64) -> String {
        let hex = (String(a, radix: 16).leftPadded(16) + String(b, radix: 16).leftPadded(16)).map { $0 }
        let h = String(hex[0..<8]) + "-" + String(hex[8..<12]) + "-4" + String(hex[13..<16]) + "-8" + String(hex[17..<20])
        return "uuid:" + h + "-" + String(hex[20..<32])
    }

    /// `D:YYYYMMDDHHMMSSZ`, the form of PDF's dates.
    static func pdfDate(_ date: Date) -> String {
        "D:" + Export.iso8601(date).filter { $0.isNumber } + "Z"
    }

    /// The XMP packet: PDF/X-4 declared (`pdfxid:GTS_PDFXVersion`), the title, the dates, the
    /// producer, subject and keywords as Info has them, the IDs.
    static func xmp(
        metadata m: PDFMetadata, producer: String, subject: String? = nil, keywords: String? = nil,
        id: (document: String, instance: String)
    ) -> String {
        let date = Export.iso8601(m.date)
        let author = m.author.map { "<dc:creator><rdf:Seq><rdf:li>\(escaped($0))</rdf:li></rdf:Seq></dc:creator>\n" } ?? ""
        let description = subject.map {
            "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped($0))</rdf:li></rdf:Alt></dc:description>\n"
        }
        let words = keywords.map { "<pdf:Keywords>\(escaped($0))</pdf:Keywords>\n" }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
            xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" \
            xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
            <dc:format>application/pdf</dc:format>
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(escaped(m.title))</rdf:li></rdf:Alt></dc:title>
            \(author)\(description ?? "")<xmp:CreateDate>\(date)</xmp:CreateDate>
            <xmp:ModifyDate>\(date)</xmp:ModifyDate>
            <xmp:MetadataDate>\(date)</xmp:MetadataDate>
            <xmp:CreatorTool>\(escaped(m.creator))</xmp:CreatorTool>
            <pdf:Producer>\(escaped(producer))</pdf:Producer>
            \(words ?? "")            <pdf:Trapped>False</pdf:Trapped>
            <xmpMM:DocumentID>\(id.document)</xmpMM:DocumentID>
            <xmpMM:InstanceID>\(id.instance)</xmpMM:InstanceID>
            <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
            <xmpMM:VersionID>1</xmpMM:VersionID>
            <pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
            </rdf:Description>
            </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """
    }

    /// Text as XML character data or an attribute value.
    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: if c.value >= 0x20 || c == "\t" { out.unicodeScalars.append(c) }
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
