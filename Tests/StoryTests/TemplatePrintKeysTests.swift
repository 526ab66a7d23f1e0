import GalleyMarkup
import Testing

@testable import GalleyTemplate

/// The `print` section: the press sheet's bleed, slug and marks, read, checked and written.
@Suite struct TemplatePrintKeysTests {
    static let mm = 72 / 25.4

    // The built-ins print with 3 mm of bleed, a 10 mm slug and every mark.
    @Test func defaults() {
        let p = Template.default.print
        #expect(abs(p.bleed - 3 * Self.mm) < 1e-9 && abs(p.slug - 10 * Self.mm) < 1e-9)
        #expect(p.marks == [.crop, .registration, .slug])
    }

    // Lengths take units; marks are kept in their own order, repeats once; [] is none.
    @Test func read() throws {
        let t = try #require(decoded(#"{"print": {"bleed": "5mm", "slug": 20, "marks": ["slug", "crop", "crop"]}}"#))
        #expect(abs(t.print.bleed - 5 * Self.mm) < 1e-9 && t.print.slug == 20 && t.print.marks == [.crop, .slug])
        #expect(decoded(#"{"print": {"marks": []}}"#)?.print.marks == [])
        #expect(overridden(["print.marks=registration, crop"])?.print.marks == [.crop, .registration])
        #expect(decoded(#"{"print": {"bleed": 0}}"#)?.print.bleed == 0)
    }

    // Out of range, mistyped or too narrow for its marks: located errors.
    @Test func refused() {
        #expect(located(#"{"print": {"bleed": -1}}"#) == "1:21 key 'print.bleed': expected a length of 0 or more, got -1")
        #expect(located(#"{"print": {"bleed": "2cm"}}"#) == nil)
        #expect(located(#"{"print": {"bleed": "2.1cm"}}"#) == "1:21 key 'print.bleed': expected a bleed of at most 20 mm, got \"2.1cm\"")
        #expect(located(#"{"print": {"slug": "6cm"}}"#) == "1:20 key 'print.slug': expected a slug of at most 50 mm, got \"6cm\"")
        #expect(
            located(#"{"print": {"marks": "crop"}}"#)
                == "1:21 key 'print.marks': expected a list of marks (crop, registration, slug), got \"crop\"")
        #expect(
            located(#"{"print": {"marks": ["crops"]}}"#)
                == "1:22 key 'print.marks': unknown mark 'crops'; did you mean 'crop'? (use crop, registration or slug)")
        #expect(
            located(#"{"print": {"slug": "4mm"}}"#)
                == "1:20 print.slug must be at least 5 mm to hold marks; make it wider, or give \"marks\": []")
        #expect(located(#"{"print": {"slug": "4mm", "marks": []}}"#) == nil)
        #expect(located(#"{"print": {"blead": 1}}"#) == "1:12 unknown key 'print.blead'; did you mean 'print.bleed'?")
    }

    // The slug against its marks is checked once every value is given, whatever their order:
    // a narrow slug given before the marks are taken away is no mistake.
    @Test func slugAndMarksInEitherOrder() {
        for order in [["print.slug=4mm", "print.marks=[]"], ["print.marks=[]", "print.slug=4mm"]] {
            guard case .success(let t) = TemplateLoader.apply(order, to: .default, file: "--set") else {
                Issue.record("refused: \(order)")
                continue
            }
            #expect(t.print.marks.isEmpty && t.print.slug < PrintSpec.narrowestMarkedSlug)
        }
        guard case .failure(let d) = TemplateLoader.apply(["print.marks=crop", "print.slug=4mm"], to: .default, file: "--set")
        else {
            Issue.record("a 4 mm slug with marks taken")
            return
        }
        #expect(d.message.contains("print.slug must be at least 5 mm to hold marks"), "\(d.message)")
    }
}
