import Foundation
import GalleyMarkup
import Testing

@testable import GalleyStory
@testable import GalleyTemplate

// MARK: - Helpers

private let mm = 72 / 25.4
private let a4 = (width: 210 * mm, height: 297 * mm)

// MARK: - Built-ins

@Suite struct BuiltinTemplateTests {
    // The built-ins come in the documented order.
    @Test func order() { #expect(Template.builtins.map(\.name) == ["magazine", "letter", "tabloid", "pocket", "tablet", "magazine-zh"]) }
    // The default template is magazine.
    @Test func defaultIsMagazine() { #expect(Template.default == Template.builtin(named: "magazine")) }
    // builtin(named:) ignores case.
    @Test func lookupIgnoresCase() { #expect(Template.builtin(named: "Tabloid")?.name == "tabloid") }
    // builtin(named:) gives nil for unknown names.
    @Test func lookupUnknown() { #expect(Template.builtin(named: "broadsheet") == nil) }
    // magazine: A4, 15 mm margins, 2 columns, 6 mm gutter, DejaVu Serif 10/12 black, spacing 6, justified, footer 8 pt gray.
    @Test func magazine() {
        let t = Template.builtin(named: "magazine")!
        #expect(t.pageWidth == a4.width && t.pageHeight == a4.height)
        #expect(t.margins == EdgeInsets(all: 15 * mm))
        #expect(t.columns == 2 && t.gutter == 6 * mm)
        #expect(t.body == TextSpec(face: "DejaVu Serif", size: 10, leading: 12, color: .black))
        #expect(t.paragraphSpacing == 6 && t.alignment == .justify)
        #expect(t.footer == FooterSpec(enabled: true, text: "{page}", face: "DejaVu Serif", size: 8, color: RGBA(0.5, 0.5, 0.5)))
    }
    // letter: 8.5 × 11 in, 0.6 in margins, 0.25 in gutter, the rest as magazine.
    @Test func letter() {
        let t = Template.builtin(named: "letter")!
        #expect(t.pageWidth == 612 && t.pageHeight == 792)
        #expect(t.margins == EdgeInsets(all: 0.6 * 72) && t.gutter == 18)
        #expect(t.columns == 2 && t.body == Template.default.body && t.footer == Template.default.footer)
    }
    // tabloid: 11 × 17 in, 0.5 in margins, 3 columns, 5 mm gutter, 9.5/11.5.
    @Test func tabloid() {
        let t = Template.builtin(named: "tabloid")!
        #expect(t.pageWidth == 792 && t.pageHeight == 1224)
        #expect(t.margins == EdgeInsets(all: 36) && t.columns == 3 && t.gutter == 5 * mm)
        #expect(t.body.size == 9.5 && t.body.leading == 11.5)
    }
    // pocket: A5, 12 mm margins, 1 column, 9.5/12, footer 7 pt.
    @Test func pocket() {
        let t = Template.builtin(named: "pocket")!
        #expect(t.pageWidth == 148 * mm && t.pageHeight == 210 * mm)
        #expect(t.margins == EdgeInsets(all: 12 * mm) && t.columns == 1)
        #expect(t.body.size == 9.5 && t.body.leading == 12 && t.footer.size == 7)
    }
    // tablet: 768 × 1024 pt, 20 pt margins and gutter, Helvetica 14/18 justified, no footer.
    @Test func tablet() {
        let t = Template.builtin(named: "tablet")!
        #expect(t.pageWidth == 768 && t.pageHeight == 1024)
        #expect(t.margins == EdgeInsets(all: 20) && t.columns == 2 && t.gutter == 20)
        #expect(t.body.face == "Helvetica" && t.body.size == 14 && t.body.leading == 18)
        #expect(t.alignment == .justify && !t.footer.enabled)
    }
    // Every built-in but the Chinese one: English, the CJK and emoji fallbacks, newline
    // paragraphs, no indent.
    @Test func shared() {
        for t in Template.builtins where t.name != "magazine-zh" {
            #expect(t.language == "en" && t.fallbackFaces == ["Noto Serif CJK SC", "Noto Color Emoji"])
            #expect(t.paragraphMode == .newline && t.firstLineIndent == 0)
        }
    }
    // magazine-zh: Chinese, first lines indented two ems but after a heading, no paragraph
    // spacing; otherwise magazine.
    @Test func chinese() throws {
        let t = try #require(Template.builtin(named: "magazine-zh"))
        #expect(t.language == "zh-Hans" && t.firstLineIndent == 20 && t.firstLineIndentRule == .conventional)
        #expect(t.paragraphSpacing == 0 && t.pageWidth == Template.default.pageWidth && t.body == Template.default.body)
    }
    // Every built-in leaves room for text and has sane leading.
    @Test func builtinsAreValid() {
        for t in Template.builtins {
            #expect(t.columnWidth >= 1 && t.textHeight >= 1 && t.body.leading >= t.body.size / 2, "\(t.name)")
        }
    }
    // Every templates/*.json file decodes to exactly its compiled-in built-in.
    @Test func filesEqualBuiltins() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: templatesFolder.path).filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for f in files {
            let path = templatesFolder.appendingPathComponent(f).path
            let result = TemplateLoader.load(path)
            let name = String(f.dropLast(5))
            #expect((try? result.get()) == Template.builtin(named: name), "\(f): \(result)")
        }
    }
    // Every built-in has a file.
    @Test func everyBuiltinHasFile() {
        for t in Template.builtins {
            #expect(FileManager.default.fileExists(atPath: templatesFolder.appendingPathComponent("\(t.name).json").path), "\(t.name)")
        }
    }
    // The built-in files are complete: every key but extends, in schema order.
    @Test func filesAreComplete() throws {
        for t in Template.builtins {
            let text = try String(contentsOf: templatesFolder.appendingPathComponent("\(t.name).json"), encoding: .utf8)
            guard case .object(let members) = try JSONReader.parse(text).get().kind else { Issue.record("not an object"); continue }
            #expect(members.map(\.key) == TemplateSchema.topKeys.filter { $0 != "extends" }, "\(t.name)")
        }
    }
    // load(name) gives the built-in.
    @Test func loadBuiltin() throws { #expect(try TemplateLoader.load("pocket").get() == Template.builtin(named: "pocket")) }
}

// MARK: - Keys

@Suite struct TemplateKeyTests {
    // An empty object is magazine.
    @Test func emptyIsMagazine() { #expect(decoded("{}") == .default) }
    // name is taken as given.
    @Test func name() { #expect(decoded(#"{"name": "mine"}"#)?.name == "mine") }
    // Omitted keys, name included, come from the base.
    @Test func nameInherited() { #expect(decoded(#"{"columns": 1}"#)?.name == "magazine") }
    // description sets the summary.
    @Test func description() { #expect(decoded(#"{"description": "Mine"}"#)?.summary == "Mine") }
    // page.size picks a paper size, portrait by default.
    @Test func pageSize() {
        let t = decoded(#"{"page": {"size": "A5"}}"#)
        #expect(t?.pageWidth == 148 * mm && t?.pageHeight == 210 * mm)
    }
    // Page size names ignore case.
    @Test func pageSizeCase() { #expect(decoded(#"{"page": {"size": "LETTER"}}"#)?.pageWidth == 612) }
    // landscape swaps width and height.
    @Test func landscape() {
        let t = decoded(#"{"page": {"size": "A4", "orientation": "landscape"}}"#)
        #expect(t?.pageWidth == a4.height && t?.pageHeight == a4.width)
    }
    // Orientation alone turns the inherited page.
    // A size after an orientation keeps it: `--set page.orientation=landscape --set
    // page.size=A5` dropped the landscape that the other order kept.
    @Test func sizeKeepsTheOrientation() {
        let a = overridden(["page.size=A5", "page.orientation=landscape"])
        let b = overridden(["page.orientation=landscape", "page.size=A5"])
        #expect(a?.pageWidth == b?.pageWidth && a?.pageHeight == b?.pageHeight)
        #expect((b?.pageWidth ?? 0) > (b?.pageHeight ?? 0))
        #expect(overridden(["page.orientation=landscape", "page.size=A5", "page.orientation=portrait"])?.pageWidth ?? 999 < 421)
    }
    @Test func orientationAlone() { #expect(decoded(#"{"page": {"orientation": "landscape"}}"#)?.pageWidth == a4.height) }
    // Orientation ignores case.
    @Test func orientationCase() { #expect(decoded(#"{"page": {"orientation": "Landscape"}}"#)?.pageWidth == a4.height) }
    // Each named size has its dimensions.
    @Test func allSizes() {
        let expected: [String: (Double, Double)] = [
            "A0": (841 * mm, 1189 * mm), "A3": (297 * mm, 420 * mm), "A6": (105 * mm, 148 * mm),
            "A7": (74 * mm, 105 * mm), "a10": (26 * mm, 37 * mm), "B4": (250 * mm, 353 * mm), "B5": (176 * mm, 250 * mm),
            "B10": (31 * mm, 44 * mm), "letter": (612, 792), "legal": (612, 1008), "tabloid": (792, 1224),
        ]
        for (name, (w, h)) in expected {
            #expect(PageSize(named: name).map { $0.points.width == w && $0.points.height == h } == true, "\(name)")
            // The smallest leave the template's margins no room, which is its own error.
            guard w > 100 * mm else { continue }
            let t = decoded(#"{"page": {"size": "\#(name)"}}"#)
            #expect(t?.pageWidth == w && t?.pageHeight == h, "\(name)")
        }
    }
    // ledger is tabloid turned sideways; asked for portrait it is tabloid.
    @Test func ledger() {
        #expect(decoded(#"{"page": {"size": "ledger"}}"#).map { ($0.pageWidth, $0.pageHeight) }! == (1224, 792))
        #expect(decoded(#"{"page": {"size": "ledger", "orientation": "portrait"}}"#)?.pageWidth == 792)
    }
    // width and height take lengths.
    @Test func pageWidthHeight() {
        let t = decoded(#"{"page": {"width": "100mm", "height": 400}}"#)
        #expect(t?.pageWidth == 100 * mm && t?.pageHeight == 400)
    }
    // width alone keeps the inherited height.
    @Test func pageWidthAlone() {
        let t = decoded(#"{"page": {"width": 500}}"#)
        #expect(t?.pageWidth == 500 && t?.pageHeight == a4.height)
    }
    // A single margins length applies to all sides.
    @Test func marginsOne() { #expect(decoded(#"{"margins": "1in"}"#)?.margins == EdgeInsets(all: 72)) }
    // A margins number is points.
    @Test func marginsNumber() { #expect(decoded(#"{"margins": 30}"#)?.margins == EdgeInsets(all: 30)) }
    // A margins object sets only the sides it names.
    @Test func marginsObject() {
        #expect(
            decoded(#"{"margins": {"top": 10, "left": "1cm"}}"#)?.margins
                == EdgeInsets(top: 10, right: 15 * mm, bottom: 15 * mm, left: LengthUnit.cm.of(1)))
    }
    // Zero margins are allowed.
    @Test func marginsZero() { #expect(decoded(#"{"margins": 0}"#)?.margins == EdgeInsets(all: 0)) }
    // columns takes a whole number.
    @Test func columns() { #expect(decoded(#"{"columns": 3}"#)?.columns == 3) }
    // A whole number written with a fraction or exponent is still whole.
    @Test func columnsExponent() { #expect(decoded(#"{"columns": 1.2e1}"#)?.columns == 12) }
    // gutter takes a length.
    @Test func gutter() { #expect(decoded(#"{"gutter": "5mm"}"#)?.gutter == 5 * mm) }
    // Each body key is set on its own; the others stay.
    @Test func bodyPartial() {
        let t = decoded(#"{"body": {"size": 11}}"#)
        #expect(t?.body == TextSpec(face: "DejaVu Serif", size: 11, leading: 12, color: .black))
    }
    // All body keys.
    @Test func bodyAll() {
        let t = decoded(##"{"body": {"face": "Noto Sans", "size": "9pt", "leading": 11, "color": "#336699"}}"##)
        #expect(t?.body == TextSpec(face: "Noto Sans", size: 9, leading: 11, color: RGBA(0x33 / 255.0, 0x66 / 255.0, 0x99 / 255.0)))
    }
    // paragraphSpacing takes a length.
    @Test func paragraphSpacing() { #expect(decoded(#"{"paragraphSpacing": "2mm"}"#)?.paragraphSpacing == 2 * mm) }
    // firstLineIndent takes a length.
    @Test func firstLineIndent() { #expect(decoded(#"{"firstLineIndent": "1pc"}"#)?.firstLineIndent == 12) }
    // Every alignment is accepted, ignoring case.
    @Test func alignment() {
        for a in Alignment.allCases { #expect(decoded(#"{"alignment": "\#(a.rawValue.uppercased())"}"#)?.alignment == a) }
    }
    // paragraphs takes blank-line.
    @Test func paragraphs() { #expect(decoded(#"{"paragraphs": "blank-line"}"#)?.paragraphMode == .blankLine) }
    // language takes a BCP 47 tag.
    @Test func language() { #expect(decoded(#"{"language": "zh-Hans"}"#)?.language == "zh-Hans") }
    // fallback takes a list, and may be empty.
    @Test func fallback() {
        #expect(decoded(#"{"fallback": ["A", "B", "C"]}"#)?.fallbackFaces == ["A", "B", "C"])
        #expect(decoded(#"{"fallback": []}"#)?.fallbackFaces == [])
    }
    // Every footer key.
    @Test func footer() {
        let t = decoded(#"{"footer": {"enabled": false, "text": "{page} of {pages}", "face": "X", "size": 9, "color": "red"}}"#)
        #expect(t?.footer == FooterSpec(enabled: false, text: "{page} of {pages}", face: "X", size: 9, color: RGBA(1, 0, 0)))
    }
    // Braces that are not placeholders are left alone.
    @Test func footerBraces() { #expect(decoded(#"{"footer": {"text": "{ } {1} {"}}"#)?.footer.text == "{ } {1} {") }
    // FooterSpec fills in both placeholders.
    @Test func footerFill() {
        let f = FooterSpec(enabled: true, text: "Page {page} of {pages}", face: "X", size: 8, color: .black)
        #expect(f.text(page: 3, pages: 12) == "Page 3 of 12")
    }
    // Escapes in strings are decoded.
    @Test func escapes() {
        #expect(decoded(#"{"footer": {"text": "\u00a7 {page} \"x\" \\ \ud83d\ude00"}}"#)?.footer.text == "§ {page} \"x\" \\ 😀")
    }
    // A byte-order mark at the start is ignored.
    @Test func byteOrderMark() { #expect(decoded("\u{FEFF}{\"columns\": 1}")?.columns == 1) }
}

// MARK: - Errors

@Suite struct TemplateErrorTests {
    // A string where columns needs a number: exact message, pointing at the value.
    @Test func columnsString() {
        #expect(located(#"{"columns": "two"}"#) == #"1:13 key 'columns': expected a whole number from 1 to 12, got "two""#)
    }
    // Thirteen columns is out of range.
    @Test func columnsTooMany() {
        #expect(located(#"{"columns": 13}"#) == "1:13 key 'columns': expected a whole number from 1 to 12, got 13")
    }
    // Zero columns is out of range.
    @Test func columnsZero() { #expect(located(#"{"columns": 0}"#) == "1:13 key 'columns': expected a whole number from 1 to 12, got 0") }
    // A fraction is not a whole number; the number is quoted as written.
    @Test func columnsFraction() {
        #expect(located(#"{"columns": 2.50}"#) == "1:13 key 'columns': expected a whole number from 1 to 12, got 2.50")
    }
    // The diagnostic carries the file, severity and underline length.
    @Test func diagnosticFields() {
        let d = templateDiagnostic(#"{"columns": "two"}"#, file: "my.json")
        #expect(d?.file == "my.json" && d?.severity == .error && d?.length == 5)
        #expect(d?.location == SourceLocation(line: 1, column: 13, offset: 12))
    }
    // Columns count scalars and offsets count bytes.
    @Test func scalarColumns() {
        let d = templateDiagnostic("{\"name\": \"é😀\", \"columns\": 0}")
        #expect(d?.location == SourceLocation(line: 1, column: 27, offset: 30))
    }
    // Locations count lines.
    @Test func multiline() {
        #expect(
            located("{\n  \"name\": \"x\",\n  \"columns\": true\n}") == "3:14 key 'columns': expected a whole number from 1 to 12, got true"
        )
    }
    // An unknown page size with a close name gets a suggestion.
    @Test func pageSizeSuggestion() {
        #expect(located(#"{"page": {"size": "A44"}}"#) == "1:19 key 'page.size': unknown page size 'A44'; did you mean 'A4'?")
    }
    // An unknown page size with nothing close lists the sizes.
    @Test func pageSizeList() {
        #expect(
            located(#"{"page": {"size": "folio"}}"#)
                == "1:19 key 'page.size': unknown page size 'folio'; use A0 to A10, B0 to B10, letter, legal, tabloid or ledger")
    }
    // size with width is refused, at the width.
    @Test func sizeAndWidth() {
        #expect(
            located(#"{"page": {"size": "A4", "width": 100}}"#)
                == "1:34 key 'page.width': give either 'page.size' or 'page.width' and 'page.height', not both")
    }
    // A misspelt orientation is suggested.
    @Test func orientationTypo() {
        #expect(
            located(#"{"page": {"orientation": "landscap"}}"#)
                == "1:26 key 'page.orientation': unknown orientation 'landscap'; did you mean 'landscape'?")
    }
    // A zero page side is refused.
    @Test func pageWidthZero() {
        #expect(located(#"{"page": {"width": 0}}"#) == "1:20 key 'page.width': expected a length greater than 0, got 0")
    }
    // page must be an object.
    @Test func pageNotObject() {
        #expect(
            located(#"{"page": "A4"}"#) == #"1:10 key 'page': expected an object with size and orientation, or width and height, got "A4""#)
    }
    // An unknown key is suggested, pointing at the key.
    @Test func unknownKey() { #expect(located("{\n  \"colums\": 2\n}") == "2:3 unknown key 'colums'; did you mean 'columns'?") }
    // An unknown key with nothing close gets no suggestion.
    @Test func unknownKeyNoSuggestion() { #expect(located(#"{"xyzzy": 2}"#) == "1:2 unknown key 'xyzzy'") }
    // A nested unknown key names its full path.
    @Test func unknownNestedKey() {
        #expect(located(#"{"body": {"colour": "red"}}"#) == "1:11 unknown key 'body.colour'; did you mean 'body.color'?")
    }
    // Key suggestions ignore case.
    @Test func keyCase() {
        #expect(located(#"{"paragraphspacing": 1}"#) == "1:2 unknown key 'paragraphspacing'; did you mean 'paragraphSpacing'?")
    }
    // A repeated key is an error at the second one.
    @Test func duplicateKey() { #expect(located(#"{"columns": 1, "columns": 2}"#) == "1:16 duplicate key 'columns' (first given at 1:2)") }
    // An unknown colour gets the colour parser's message under the key.
    @Test func colour() {
        #expect(located(#"{"body": {"color": "gren"}}"#) == "1:20 key 'body.color': unknown colour 'gren'; did you mean 'green'?")
    }
    // A malformed hex colour is reported with the key.
    @Test func hexColour() {
        #expect(
            located(##"{"footer": {"color": "#12345"}}"##)
                == "1:22 key 'footer.color': malformed hex colour '#12345'; expected #RGB, #RRGGBB or #RRGGBBAA")
    }
    // A colour must be a string.
    @Test func colourNotString() {
        #expect(located(#"{"body": {"color": 0}}"#) == ##"1:20 key 'body.color': expected a colour such as "black" or "#336699", got 0"##)
    }
    // A word where a length is needed.
    @Test func lengthWord() {
        #expect(located(#"{"body": {"size": "big"}}"#) == #"1:19 key 'body.size': expected a number or length, got "big""#)
    }
    // A number with an unknown unit gets the length parser's message.
    @Test func lengthUnit() {
        #expect(located(#"{"gutter": "6 qt"}"#) == "1:12 key 'gutter': '6 qt' is not a length; use pt, mm, cm, in, pc or px")
    }
    // A length must not be a boolean.
    @Test func lengthBool() { #expect(located(#"{"gutter": false}"#) == "1:12 key 'gutter': expected a number or length, got false") }
    // Sizes must be above zero.
    @Test func sizeZero() { #expect(located(#"{"body": {"size": 0}}"#) == "1:19 key 'body.size': expected a length greater than 0, got 0") }
    // Footer sizes must be above zero.
    @Test func footerSizeNegative() {
        #expect(located(#"{"footer": {"size": "-1pt"}}"#) == #"1:21 key 'footer.size': expected a length greater than 0, got "-1pt""#)
    }
    // Leading must be above zero.
    @Test func leadingZero() {
        #expect(located(#"{"body": {"leading": 0}}"#) == "1:22 key 'body.leading': expected a length greater than 0, got 0")
    }
    // Margins must not be negative.
    @Test func marginsNegative() { #expect(located(#"{"margins": -1}"#) == "1:13 key 'margins': expected a length of 0 or more, got -1") }
    // A negative side names its path.
    @Test func marginSideNegative() {
        #expect(located(#"{"margins": {"left": "-2mm"}}"#) == #"1:22 key 'margins.left': expected a length of 0 or more, got "-2mm""#)
    }
    // Margins must be a length or an object.
    @Test func marginsArray() {
        #expect(
            located(#"{"margins": [1]}"#)
                == "1:13 key 'margins': expected a length, or an object with top, right, bottom and left (or inner and outer), got an array"
        )
    }
    // The gutter must not be negative.
    @Test func gutterNegative() { #expect(located(#"{"gutter": -3}"#) == "1:12 key 'gutter': expected a length of 0 or more, got -3") }
    // Paragraph spacing must not be negative.
    @Test func spacingNegative() {
        #expect(located(#"{"paragraphSpacing": -1}"#) == "1:22 key 'paragraphSpacing': expected a length of 0 or more, got -1")
    }
    // First-line indent must not be negative.
    @Test func indentNegative() {
        #expect(located(#"{"firstLineIndent": -1}"#) == "1:21 key 'firstLineIndent': expected a length of 0 or more, got -1")
    }
    // Leading below half the size is blamed on the leading when it was given.
    @Test func leadingTooSmall() {
        #expect(located(#"{"body": {"leading": 4}}"#) == "1:22 key 'body.leading': leading 4 pt is less than half the size (10 pt)")
    }
    // A size too big for the inherited leading is blamed on the size.
    @Test func sizeTooBig() {
        #expect(
            located(#"{"body": {"size": 30}}"#)
                == "1:19 key 'body.size': size 30 pt needs a leading of at least 15 pt (the leading is 12 pt)")
    }
    // Leading of exactly half the size is fine.
    @Test func leadingHalf() { #expect(decoded(#"{"body": {"size": 24, "leading": 12}}"#) != nil) }
    // Too many gutters leave negative columns: blamed on columns.
    @Test func noRoomColumns() {
        #expect(located(#"{"gutter": 50, "columns": 12}"#) == "1:27 template leaves no room for text: columns would be -3.3 pt wide")
    }
    // Huge margins leave negative columns: blamed on margins.
    @Test func noRoomMargins() {
        #expect(located(#"{"margins": "300pt"}"#) == "1:13 template leaves no room for text: columns would be -10.8 pt wide")
    }
    // Top and bottom margins can leave no height.
    @Test func noRoomHeight() {
        #expect(
            located(#"{"margins": {"top": 500, "bottom": 400}}"#)
                == "1:21 template leaves no room for text: the text area would be -58.1 pt tall")
    }
    // A column just under 1 pt wide is refused, and the message does not round it up to 1;
    // so is one under two ems of the body (it holds a letter or two a line).
    @Test func columnUnderOnePoint() {
        #expect(
            located(#"{"page": {"width": 0.99}, "margins": 0, "columns": 1}"#)
                == "1:52 template leaves no room for text: columns would be 0.9 pt wide")
        #expect(located(#"{"page": {"width": 20}, "margins": 0, "columns": 1}"#) == nil)
        #expect(
            located(#"{"page": {"width": 19.5}, "margins": 0, "columns": 1}"#)
                == "1:52 template leaves too little room for text: columns would be 19.5 pt wide, less than two ems of the 10 pt body")
    }
    // A text area shorter than a line of the body is refused: a 5 pt one built 187 pages, a
    // line each, every one "placed anyway".
    @Test func textAreaUnderALine() {
        #expect(
            located(#"{"page": {"height": 90}, "margins": 40}"#)
                == "1:37 template leaves too little room for text: the text area would be 10 pt tall, less than a line of the 12 pt body leading"
        )
        #expect(located(#"{"page": {"height": 92}, "margins": 40}"#) == nil)
    }
    // A misspelt alignment is suggested.
    @Test func alignmentTypo() {
        #expect(located(#"{"alignment": "centre"}"#) == "1:15 key 'alignment': unknown alignment 'centre'; did you mean 'center'?")
    }
    // A far-off alignment lists the choices.
    @Test func alignmentList() {
        #expect(
            located(#"{"alignment": "ragged"}"#) == "1:15 key 'alignment': unknown alignment 'ragged'; use justify, left, right or center")
    }
    // Alignment must be a string.
    @Test func alignmentType() {
        #expect(located(#"{"alignment": 1}"#) == "1:15 key 'alignment': expected justify, left, right or center, got 1")
    }
    // A misspelt paragraph mode is suggested.
    @Test func paragraphsTypo() {
        #expect(
            located(#"{"paragraphs": "blankline"}"#)
                == "1:16 key 'paragraphs': unknown paragraph mode 'blankline'; did you mean 'blank-line'?")
    }
    // A language tag must have the right shape.
    @Test func language() {
        #expect(
            located(#"{"language": "english!"}"#)
                == #"1:14 key 'language': expected a BCP 47 language tag such as "en" or "zh-Hans", got "english!""#)
        #expect(located(#"{"language": "en-"}"#) != nil)
    }
    // fallback must be a list.
    @Test func fallbackNotList() {
        #expect(
            located(#"{"fallback": "A"}"#)
                == #"1:14 key 'fallback': expected a list of font names, or an object of such lists by script, got "A""#)
    }
    // A bad fallback element is named by index and located itself.
    @Test func fallbackElement() { #expect(located(#"{"fallback": ["A", 3]}"#) == "1:20 key 'fallback[1]': expected a string, got 3") }
    // footer.enabled must be a boolean.
    @Test func footerEnabled() {
        #expect(located(#"{"footer": {"enabled": "yes"}}"#) == #"1:24 key 'footer.enabled': expected true or false, got "yes""#)
    }
    // A misspelt placeholder is suggested.
    @Test func placeholderTypo() {
        #expect(located(#"{"footer": {"text": "{pag}"}}"#) == "1:21 key 'footer.text': unknown placeholder '{pag}'; did you mean '{page}'?")
    }
    // An unknown placeholder lists the five.
    @Test func placeholderUnknown() {
        #expect(
            located(#"{"footer": {"text": "{author}"}}"#)
                == "1:21 key 'footer.text': unknown placeholder '{author}'; use {page}, {pages}, {title}, {section} or {issue}")
    }
    // body must be an object.
    @Test func bodyNotObject() {
        #expect(located(#"{"body": 12}"#) == "1:10 key 'body': expected an object with face, size, leading and color, got 12")
    }
    // footer must be an object.
    @Test func footerNotObject() {
        #expect(
            located(#"{"footer": false}"#)
                == "1:12 key 'footer': expected an object with enabled, text, left, right, face, size and color, got false")
    }
    // A face must not be empty.
    @Test func emptyFace() {
        #expect(located(#"{"body": {"face": " "}}"#) == #"1:19 key 'body.face': expected a non-empty string, got " ""#)
    }
    // A name must not be empty.
    @Test func emptyName() { #expect(located(#"{"name": ""}"#) == #"1:10 key 'name': expected a non-empty string, got """#) }
    // A description must be one line.
    @Test func descriptionLines() {
        #expect(located(#"{"description": "a\nb"}"#) == #"1:17 key 'description': expected a single line of text, got "a\nb""#)
    }
    // Nor may a running line hold a control character (a NUL cut it short where C reads it).
    @Test func controlCharacterInARunningLine() {
        #expect(
            located(#"{"footer": {"text": "a\u0000b"}}"#)
                == #"1:21 key 'footer.text': text cannot hold control characters (such as \u0000)"#)
    }
    // A name must be a string.
    @Test func nameNull() { #expect(located(#"{"name": null}"#) == "1:10 key 'name': expected a string, got null") }
    // Long strings are cut short in the message.
    @Test func longGot() {
        let long = String(repeating: "x", count: 50)
        #expect(
            located(#"{"columns": "\#(long)"}"#)
                == "1:13 key 'columns': expected a whole number from 1 to 12, got \"\(String(repeating: "x", count: 40))…\"")
    }
    // The first error in the file wins.
    @Test func firstErrorWins() { #expect(located(#"{"columns": 0, "gutter": -1}"#)?.hasPrefix("1:13 key 'columns'") == true) }
}

// MARK: - JSON syntax

@Suite struct TemplateSyntaxTests {
    // A missing comma between members is located at the next key.
    @Test func missingComma() {
        #expect(located("{\n  \"columns\": 2\n  \"gutter\": 3\n}") == "3:3 expected ',' or '}' after object member")
    }
    // A missing comma in an array is located at the next element.
    @Test func missingArrayComma() { #expect(located(#"{"fallback": ["a" "b"]}"#) == "1:19 expected ',' or ']' after array element") }
    // A missing colon.
    @Test func missingColon() { #expect(located(#"{"columns" 2}"#) == "1:12 expected ':' after object key") }
    // A trailing comma in an object.
    @Test func trailingCommaObject() { #expect(located(#"{"columns": 2,}"#) == "1:15 trailing comma before '}'") }
    // A trailing comma in an array.
    @Test func trailingCommaArray() { #expect(located(#"{"fallback": ["a",]}"#) == "1:19 trailing comma before ']'") }
    // An unclosed object at the end of the file.
    @Test func unclosedObject() { #expect(located("{\"columns\": 2") == "1:14 expected ',' or '}' after object member") }
    // A missing value at the end of the file.
    @Test func missingValue() { #expect(located("{\"columns\":") == "1:12 unexpected end of file; expected a value") }
    // An unterminated string is located at its opening quote.
    @Test func unterminatedString() { #expect(located("{\"name\": \"abc\n}") == "1:10 unterminated string") }
    // An invalid escape is located at the backslash.
    @Test func badEscape() { #expect(located(#"{"name": "a\qb"}"#) == #"1:12 invalid escape '\q' in string"#) }
    // A short \u escape.
    @Test func badUnicodeEscape() { #expect(located(#"{"name": "\u12G4"}"#) == #"1:11 invalid \u escape; expected four hex digits"#) }
    // A lone surrogate.
    @Test func loneSurrogate() { #expect(located(#"{"name": "\ud800x"}"#) == #"1:11 invalid \u escape: unpaired surrogate"#) }
    // A raw tab inside a string.
    @Test func controlCharacter() {
        #expect(located("{\"name\": \"a\tb\"}") == "1:12 control character in string; write it as an escape such as \\t")
    }
    // An unquoted word is explained.
    @Test func bareWord() {
        #expect(located(#"{"alignment": left}"#) == #"1:15 unexpected word 'left'; strings need double quotes, as in "left""#)
    }
    // A capitalised literal is suggested in lower case.
    @Test func capitalTrue() { #expect(located(#"{"footer": {"enabled": True}}"#) == "1:24 unexpected word 'True'; did you mean 'true'?") }
    // Single quotes are explained.
    @Test func singleQuotes() { #expect(located(#"{"name": 'x'}"#) == #"1:10 strings need double quotes ("), not single quotes"#) }
    // Unquoted keys are explained.
    @Test func bareKey() { #expect(located(#"{columns: 2}"#) == #"1:2 keys need double quotes ("), found 'columns'"#) }
    // Comments are refused.
    @Test func comment() { #expect(located("{\n  // hi\n}") == "2:3 comments are not allowed in JSON") }
    // A length written without quotes is explained.
    @Test func unquotedLength() {
        #expect(located(#"{"gutter": 6mm}"#) == #"1:12 malformed number '6mm'; lengths with units need quotes, as in "6mm""#)
    }
    // Leading zeros are refused.
    @Test func leadingZero() { #expect(located(#"{"columns": 02}"#) == "1:13 malformed number '02'") }
    // A number starting with a point is refused.
    @Test func leadingPoint() { #expect(located(#"{"columns": .5}"#) == "1:13 malformed number; numbers start with a digit or '-'") }
    // A number too big for a double is refused.
    @Test func hugeNumber() { #expect(located(#"{"columns": 1e999}"#) == "1:13 number '1e999' is out of range") }
    // Text after the object is refused where it starts.
    @Test func trailingGarbage() { #expect(located("{} x") == "1:4 unexpected text after the end of the JSON value") }
    // A second object is trailing garbage too.
    @Test func twoObjects() { #expect(located("{}\n{}") == "2:1 unexpected text after the end of the JSON value") }
    // An empty file.
    @Test func emptyFile() { #expect(located(" \n") == "2:1 the file is empty; expected a JSON object") }
    // A top-level array is not a template.
    @Test func topLevelArray() { #expect(located("[1]") == "1:1 a template must be a JSON object, got an array") }
    // A stray character.
    @Test func strayCharacter() { #expect(located(#"{"columns": @}"#) == "1:13 expected a value, found '@'") }
    // Sixty-four levels of nesting parse.
    @Test func depth64() {
        let json = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect((try? JSONReader.parse(json).get()) != nil)
    }
    // The sixty-fifth level is refused where it opens.
    @Test func depth65() {
        let json = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        guard case .failure(let e) = JSONReader.parse(json) else { Issue.record("parsed"); return }
        #expect(e.message == "JSON nested too deeply (more than 64 levels)" && e.location.column == 65)
    }
    // Deep nesting inside a template is reported as a located diagnostic.
    @Test func deepTemplate() {
        let json = "{\"fallback\": " + String(repeating: "[", count: 100_000)
        #expect(located(json) == "1:77 JSON nested too deeply (more than 64 levels)")
    }
    // A large flat input parses (the reader is linear, not recursive per element).
    @Test func largeInput() {
        let json = "[" + Array(repeating: "\"Noto Sans\"", count: 200_000).joined(separator: ",") + "]"
        guard case .success(let v) = JSONReader.parse(json), case .array(let a) = v.kind else { Issue.record("failed"); return }
        #expect(a.count == 200_000)
    }
    // Values remember where they start and end.
    @Test func valueLocations() throws {
        let v = try JSONReader.parse("{\r\n \"a\": [1, \"é\"]}").get()
        guard case .object(let m) = v.kind, case .array(let a) = m[0].value.kind else { Issue.record("shape"); return }
        #expect(m[0].keyStart == SourceLocation(line: 2, column: 2, offset: 4))
        #expect(a[1].start == SourceLocation(line: 2, column: 11, offset: 13))
        #expect(a[1].length == 3)
    }
}

// MARK: - extends and files

@Suite struct TemplateExtendsTests {
    // extends a built-in: its values, then the file's changes.
    @Test func extendsBuiltin() {
        let t = decoded(#"{"extends": "letter", "columns": 1}"#)
        var expected = Template.builtin(named: "letter")!
        expected.columns = 1
        expected.summary = "US Letter, one column, DejaVu Serif 10/12, justified"
        #expect(t == expected)
    }
    // An unknown built-in in extends is located and suggested.
    @Test func extendsUnknown() {
        #expect(
            located(#"{"extends": "tabliod"}"#)
                == "1:13 key 'extends': unknown template 'tabliod'; did you mean 'tabloid'? (built-in: magazine, letter, tabloid, pocket, tablet, magazine-zh)"
        )
    }
    // extends must be a string.
    @Test func extendsNotString() {
        #expect(located(#"{"extends": 1}"#) == "1:13 key 'extends': expected a built-in template name or a path to a JSON file, got 1")
    }
    // A chain of files: each adds to the one it extends, paths relative to each file.
    @Test func chain() {
        let dir = scratchFolder()
        try! FileManager.default.createDirectory(atPath: dir + "/base", withIntermediateDirectories: true)
        write(#"{"extends": "tabloid", "margins": 10}"#, to: dir + "/base/b.json")
        write(#"{"extends": "../base/b.json", "columns": 2}"#, to: dir + "/base/c.json")
        write(#"{"extends": "base/c.json", "name": "a"}"#, to: dir + "/a.json")
        let t = try? TemplateLoader.load(dir + "/a.json").get()
        var expected = Template.builtin(named: "tabloid")!
        expected.margins = EdgeInsets(all: 10)
        expected.columns = 2
        expected.name = "a"
        expected.summary = "Tabloid, two columns, DejaVu Serif 9.5/11.5, justified"
        #expect(t == expected)
    }
    // The checks across keys run on the chain's result: a base whose size wants more leading
    // is right once the file that extends it gives the leading. Alone, or extended by a file
    // that leaves it as it is, it is wrong, blamed at its own value.
    @Test func checksAcrossKeysRunOnTheWholeChain() {
        let dir = scratchFolder()
        write(#"{"extends": "magazine", "body": {"size": 30}}"#, to: dir + "/base.json")
        write(#"{"extends": "base.json", "body": {"leading": 36}}"#, to: dir + "/right.json")
        write(#"{"extends": "base.json", "columns": 1}"#, to: dir + "/left.json")
        #expect((try? TemplateLoader.load(dir + "/right.json").get())?.body.leading == 36)
        for name in ["base.json", "left.json"] {
            guard case .failure(let d) = TemplateLoader.load(dir + "/" + name) else {
                Issue.record("\(name) loaded")
                continue
            }
            #expect(d.file == dir + "/base.json" && d.location?.column == 42, "\(name): \(d)")
            #expect(d.message == "key 'body.size': size 30 pt needs a leading of at least 15 pt (the leading is 12 pt)")
        }
    }

    // Two files extending each other are a cycle, reported where it closes.
    @Test func cycle() {
        let dir = scratchFolder()
        write(#"{"extends": "b.json"}"#, to: dir + "/a.json")
        write(#"{"columns": 1, "extends": "a.json"}"#, to: dir + "/b.json")
        guard case .failure(let d) = TemplateLoader.load(dir + "/a.json") else { Issue.record("loaded"); return }
        #expect(d.message == "key 'extends': templates extend each other in a cycle: \(dir)/a.json → \(dir)/b.json → \(dir)/a.json")
        #expect(d.file == dir + "/b.json" && d.location == SourceLocation(line: 1, column: 27, offset: 26))
    }
    // A file extending itself is a cycle.
    @Test func selfCycle() {
        let dir = scratchFolder()
        write(#"{"extends": "./a.json"}"#, to: dir + "/a.json")
        guard case .failure(let d) = TemplateLoader.load(dir + "/a.json") else { Issue.record("loaded"); return }
        #expect(d.message == "key 'extends': templates extend each other in a cycle: \(dir)/a.json → \(dir)/./a.json")
    }
    // Extending the same base twice in different branches is not a cycle.
    @Test func diamondIsNotCycle() {
        let dir = scratchFolder()
        write(#"{"columns": 1}"#, to: dir + "/base.json")
        write(#"{"extends": "base.json", "gutter": 1}"#, to: dir + "/mid.json")
        write(#"{"extends": "mid.json"}"#, to: dir + "/top.json")
        #expect((try? TemplateLoader.load(dir + "/top.json").get())?.columns == 1)
    }
    // A missing extended file is reported at the extends value.
    @Test func missingBase() {
        let dir = scratchFolder()
        write("{\n  \"extends\": \"gone.json\"\n}", to: dir + "/a.json")
        guard case .failure(let d) = TemplateLoader.load(dir + "/a.json") else { Issue.record("loaded"); return }
        #expect(d.message == "key 'extends': cannot read template '\(dir)/gone.json': No such file or directory")
        #expect(d.file == dir + "/a.json" && d.location?.description == "2:14")
    }
    // An error inside the extended file names that file and place.
    @Test func errorInBase() {
        let dir = scratchFolder()
        write(#"{"columns": 40}"#, to: dir + "/base.json")
        write(#"{"extends": "base.json"}"#, to: dir + "/a.json")
        guard case .failure(let d) = TemplateLoader.load(dir + "/a.json") else { Issue.record("loaded"); return }
        #expect(d.file == dir + "/base.json" && d.location?.description == "1:13")
        #expect(d.message == "key 'columns': expected a whole number from 1 to 12, got 40")
    }
    // A file's changes may fix what its base would break: checks run on the merged result.
    @Test func checksAfterMerge() { #expect(decoded(#"{"body": {"leading": 30, "size": 50}}"#)?.body.size == 50) }
    // load reads a JSON file by path.
    @Test func loadPath() {
        let dir = scratchFolder()
        write(#"{"columns": 3}"#, to: dir + "/x.json")
        #expect((try? TemplateLoader.load(dir + "/x.json").get())?.columns == 3)
    }
    // A name ending .json is a path even without a slash; a missing one gets the exact message, no location.
    @Test func loadMissing() {
        guard case .failure(let d) = TemplateLoader.load("x.json") else { Issue.record("loaded"); return }
        #expect(d.message == "cannot read template 'x.json': No such file or directory")
        #expect(d.file == "x.json" && d.location == nil && d.severity == .error)
    }
    // A folder is not a template.
    @Test func loadFolder() {
        let dir = scratchFolder()
        guard case .failure(let d) = TemplateLoader.load(dir + "/") else { Issue.record("loaded"); return }
        #expect(d.message == "cannot read template '\(dir)/': it is a folder")
    }
    // A file that is not UTF-8 is refused, at its first bad byte.
    @Test func loadNotUTF8() {
        let dir = scratchFolder()
        _ = FileManager.default.createFile(atPath: dir + "/bad.json", contents: Data([0x7B, 0xFF, 0x7D]))
        guard case .failure(let d) = TemplateLoader.load(dir + "/bad.json") else { Issue.record("loaded"); return }
        #expect(
            d.message
                == "cannot read template '\(dir)/bad.json': the file is not UTF-8 text (invalid UTF-8: byte 0xFF at byte offset 1)")
        #expect(d.location?.line == 1 && d.location?.column == 2)
    }
    // An unknown built-in name is suggested, with the list.
    @Test func unknownBuiltin() {
        guard case .failure(let d) = TemplateLoader.load("magasine") else { Issue.record("loaded"); return }
        #expect(
            d.message
                == "unknown template 'magasine'; did you mean 'magazine'? (built-in: magazine, letter, tabloid, pocket, tablet, magazine-zh)"
        )
        #expect(d.file == nil && d.location == nil)
    }
    // An unknown built-in with nothing close just lists them.
    @Test func unknownBuiltinNoSuggestion() {
        guard case .failure(let d) = TemplateLoader.load("broadsheet") else { Issue.record("loaded"); return }
        #expect(d.message == "unknown template 'broadsheet' (built-in: magazine, letter, tabloid, pocket, tablet, magazine-zh)")
    }
    // A decoded file's relative extends starts from that file's folder.
    @Test func decodeRelative() {
        let dir = scratchFolder()
        write(#"{"columns": 4}"#, to: dir + "/base.json")
        #expect(decoded(#"{"extends": "base.json"}"#, file: dir + "/mine.json")?.columns == 4)
    }
}

// MARK: - --set

@Suite struct TemplateOverrideTests {
    // A number value.
    @Test func bodySize() { #expect(overridden(["body.size=11"])?.body.size == 11) }
    // A whole-number value.
    @Test func columns() { #expect(overridden(["columns=3"])?.columns == 3) }
    // A page size by name, unquoted.
    @Test func pageSize() { #expect(overridden(["page.size=letter"]).map { ($0.pageWidth, $0.pageHeight) }! == (612, 792)) }
    // An unquoted length.
    @Test func margins() { #expect(overridden(["margins=20mm"])?.margins == EdgeInsets(all: 20 * mm)) }
    // One side of the margins.
    @Test func marginSide() { #expect(overridden(["margins.top=0"])?.margins.top == 0) }
    // An unquoted colour.
    @Test func colour() { #expect(overridden(["body.color=red"])?.body.color == RGBA(1, 0, 0)) }
    // A boolean.
    @Test func footerOff() { #expect(overridden(["footer.enabled=false"])?.footer.enabled == false) }
    // A quoted JSON string keeps its content.
    @Test func quotedString() { #expect(overridden([#"footer.text="{page} / {pages}""#])?.footer.text == "{page} / {pages}") }
    // Text after the first = belongs to the value.
    @Test func equalsInValue() { #expect(overridden(["footer.text=a=b"])?.footer.text == "a=b") }
    // A JSON array.
    @Test func fallbackArray() { #expect(overridden([#"fallback=["A", "B"]"#])?.fallbackFaces == ["A", "B"]) }
    // A comma-separated list for fallback.
    @Test func fallbackCommas() { #expect(overridden(["fallback=Noto Sans, Noto Emoji"])?.fallbackFaces == ["Noto Sans", "Noto Emoji"]) }
    // A JSON object value for an object key.
    @Test func objectValue() { #expect(overridden([#"body={"size": 12, "leading": 14}"#])?.body.leading == 14) }
    // Spaces around key and value are ignored.
    @Test func spaces() { #expect(overridden([" columns = 1 "])?.columns == 1) }
    // Overrides apply in order; the later wins.
    @Test func laterWins() { #expect(overridden(["columns=1", "columns=4"])?.columns == 4) }
    // No overrides change nothing.
    @Test func none() { #expect(overridden([], Template.builtin(named: "tablet")!) == Template.builtin(named: "tablet")) }
    // Overrides start from the given template.
    @Test func base() { #expect(overridden(["columns=1"], Template.builtin(named: "tabloid")!)?.body.size == 9.5) }
    // Room is checked once, after all overrides: a bad middle state is fine.
    @Test func checkedAtEnd() { #expect(overridden(["margins=350pt", "page.size=A3"]) != nil) }
    // A word where a length is needed: the exact message, file --set, no location.
    @Test func badLength() {
        let d = overrideDiagnostic(["body.size=big"])
        #expect(d?.message == "--set body.size=big: expected a number or length")
        #expect(d?.file == "--set" && d?.location == nil && d?.severity == .error)
    }
    // A range error names the override.
    @Test func badColumns() {
        #expect(overrideDiagnostic(["columns=13"])?.message == "--set columns=13: expected a whole number from 1 to 12")
    }
    // A string for columns is refused.
    @Test func columnsWord() {
        #expect(overrideDiagnostic(["columns=two"])?.message == "--set columns=two: expected a whole number from 1 to 12")
    }
    // An unknown key is suggested.
    @Test func unknownKey() {
        #expect(overrideDiagnostic(["colums=3"])?.message == "--set colums=3: unknown key 'colums'; did you mean 'columns'?")
    }
    // An unknown nested key is suggested with its path.
    @Test func unknownSubkey() {
        #expect(overrideDiagnostic(["body.sise=3"])?.message == "--set body.sise=3: unknown key 'body.sise'; did you mean 'body.size'?")
    }
    // A key under a plain value is unknown.
    @Test func keyUnderScalar() {
        #expect(overrideDiagnostic(["columns.x=3"])?.message == "--set columns.x=3: unknown key 'columns.x'; did you mean 'columns'?")
    }
    // Three levels are unknown, with a suggestion for the nearest real key.
    @Test func tooDeep() {
        #expect(
            overrideDiagnostic(["body.size.x=3"])?.message == "--set body.size.x=3: unknown key 'body.size.x'; did you mean 'body.size'?")
    }
    // Without = the override is malformed.
    @Test func noEquals() { #expect(overrideDiagnostic(["columns"])?.message == "--set columns: expected KEY=VALUE, as in body.size=11") }
    // An empty key is malformed.
    @Test func emptyKey() { #expect(overrideDiagnostic(["=3"])?.message == "--set =3: expected KEY=VALUE, as in body.size=11") }
    // extends cannot be overridden.
    @Test func noExtends() {
        #expect(
            overrideDiagnostic(["extends=letter"])?.message
                == "--set extends=letter: 'extends' cannot be overridden; choose the template to start from instead")
    }
    // A colour error carries the colour message.
    @Test func badColour() {
        #expect(overrideDiagnostic(["body.color=gren"])?.message == "--set body.color=gren: unknown colour 'gren'; did you mean 'green'?")
    }
    // An empty value is an empty string.
    @Test func emptyValue() { #expect(overrideDiagnostic(["body.color="])?.message == "--set body.color=: empty colour value") }
    // No room for text is blamed on the override that set the key.
    @Test func noRoom() {
        #expect(
            overrideDiagnostic(["columns=2", "margins=300pt"])?.message
                == "--set margins=300pt: template leaves no room for text: columns would be -10.8 pt wide")
    }
    // A narrow page is blamed on its width, though its height was set after it.
    @Test func noRoomBlamesTheWidth() {
        #expect(
            overrideDiagnostic(["page.width=10", "page.height=10"])?.message
                == "--set page.width=10: template leaves no room for text: columns would be -46 pt wide")
    }
    // The leading check blames the size when only the size was set.
    @Test func leadingCheck() {
        #expect(
            overrideDiagnostic(["body.size=30"])?.message
                == "--set body.size=30: size 30 pt needs a leading of at least 15 pt (the leading is 12 pt)")
    }
    // An unknown page size is suggested.
    @Test func pageSizeTypo() {
        #expect(overrideDiagnostic(["page.size=A44"])?.message == "--set page.size=A44: unknown page size 'A44'; did you mean 'A4'?")
    }
    // An override's list and link pattern refuse control characters, as a file's strings do:
    // otherwise `galley templates` writes a template that does not read back.
    @Test func controlCharacterInAnOverride() {
        #expect(
            overrideDiagnostic(["fallback=DejaVu Sans,No\u{0}to"])?.message
                == "--set fallback=DejaVu Sans,No\u{0}to: text cannot hold control characters (such as \\u0000)")
        #expect(
            overrideDiagnostic(["social.mention.url=https://x\u{7}/{name}"])?.message
                == "--set social.mention.url=https://x\u{7}/{name}: text cannot hold control characters (such as \\u0007)")
    }
    // A link pattern of a scheme Galley does not write (javascript:) is refused once, here:
    // every mention was warned of at its text instead.
    @Test func linkPatternScheme() {
        #expect(
            overrideDiagnostic(["social.mention.url=javascript:alert({name})"])?.message
                == "--set social.mention.url=javascript:alert({name}): a link pattern must be an http, https, mailto or tel link "
                + "(or a relative one), not 'javascript'")
        #expect(overrideDiagnostic(["social.topic.url=HTTPS://x.example/t/{topic}"]) == nil)
        #expect(overrideDiagnostic(["social.mention.url=/people/{name}"]) == nil)
    }
    // The file given is the one diagnostics name.
    @Test func fileName() {
        guard case .failure(let d) = TemplateLoader.apply(["x=1"], to: .default, file: "options") else { Issue.record("applied"); return }
        #expect(d.file == "options")
    }
}

// MARK: - Encoding

@Suite struct TemplateEncodeTests {
    // Every built-in survives encode then decode unchanged.
    @Test func builtinsRoundTrip() {
        for t in Template.builtins {
            #expect(decoded(TemplateLoader.encode(t)) == t, "\(t.name)")
        }
    }
    // An unusual template survives encode then decode unchanged.
    @Test func oddRoundTrip() {
        var t = Template.builtin(named: "tabloid")!
        t.name = "odd \"one\" \\ é"
        t.summary = "tab\there"
        t.pageWidth = 1224
        t.pageHeight = 792
        t.margins = EdgeInsets(top: 1.0 / 3, right: 0, bottom: LengthUnit.cm.of(2.1), left: 1e-7)
        t.gutter = 0.1 + 0.2
        t.body = TextSpec(face: "Noto Sans", size: 7.25, leading: 732.125, color: RGBA(0.1, 0.2, 0.3, 0.4))
        t.paragraphSpacing = 0
        t.firstLineIndent = 123.456789
        t.alignment = .center
        t.paragraphMode = .blankLine
        t.language = "zh-Hans-CN"
        t.fallbackFaces = []
        t.footer = FooterSpec(enabled: false, text: "— {page} —", face: "F", size: 6, color: .clear)
        #expect(decoded(TemplateLoader.encode(t)) == t)
    }
    // Custom page sizes and mixed margins are written as width/height and an object.
    @Test func customPage() {
        var t = Template.default
        t.pageWidth = 500
        t.margins.left = 10
        let text = TemplateLoader.encode(t)
        #expect(text.contains(#""page": {"width": 500, "height": "297mm", "color": "white"}"#))
        #expect(text.contains(#""margins": {"top": "15mm", "right": "15mm", "bottom": "15mm", "left": 10}"#))
        #expect(decoded(text) == t)
    }
    // A landscape page is written as a size and orientation.
    @Test func landscape() {
        let t = decoded(#"{"page": {"size": "A5", "orientation": "landscape"}}"#)!
        #expect(TemplateLoader.encode(t).contains(#""page": {"size": "A5", "orientation": "landscape", "color": "white"}"#))
    }
    // The output lists keys in schema order, one per line, and ends with a newline.
    @Test func keyOrder() throws {
        let text = TemplateLoader.encode(.default)
        guard case .object(let members) = try JSONReader.parse(text).get().kind else { Issue.record("shape"); return }
        #expect(members.map(\.key) == TemplateSchema.topKeys.filter { $0 != "extends" })
        #expect(text.hasSuffix("}\n") && text.split(separator: "\n").count == 59)
    }
    // Encoding magazine gives exactly the checked-in file.
    @Test func magazineFile() throws {
        let file = try String(contentsOf: templatesFolder.appendingPathComponent("magazine.json"), encoding: .utf8)
        #expect(TemplateLoader.encode(.default) == file)
    }
    // Encoding is stable: the same template always gives the same text.
    @Test func stable() { #expect(TemplateLoader.encode(.default) == TemplateLoader.encode(decoded(TemplateLoader.encode(.default))!)) }
}
