import Foundation
import GalleyMarkup
import TestSupport
import Testing

@testable import GalleyStory
@testable import GalleyTemplate

// Line breaking, hyphenation and flow keys: lineBreaking, hyphenation, widows, orphans,
// keepWithNext, baselineGrid.

/// The built-ins' hyphenation, spelt out.
private let standardHyphenation = HyphenationSpec(
    enabled: true, minWord: 6, leftMin: 2, rightMin: 3, capitals: false, maxConsecutive: 2, acrossColumns: false)

// MARK: - Built-ins

@Suite struct BuiltinFlowTests {
    // Every built-in: total-fit, the standard hyphenation, widows/orphans/keepWithNext 2, grid on.
    @Test func builtins() {
        for t in Template.builtins {
            #expect(t.lineBreaking == .totalFit, "\(t.name)")
            #expect(t.hyphenation == standardHyphenation, "\(t.name)")
            #expect(t.widows == 2 && t.orphans == 2 && t.keepWithNext == 2 && t.baselineGrid, "\(t.name)")
        }
    }
    // A template made with the public init gets the same flow rules as the built-ins.
    @Test func initDefaultsMatchBuiltins() {
        let d = Template.default
        let t = Template(
            name: "x", summary: "x", pageWidth: 500, pageHeight: 700, margins: EdgeInsets(all: 10), columns: 1, gutter: 0,
            body: d.body, paragraphSpacing: 0, firstLineIndent: 0, alignment: .left, paragraphMode: .newline,
            language: "en", fallbackFaces: [], footer: d.footer)
        #expect(t.lineBreaking == d.lineBreaking && t.hyphenation == d.hyphenation)
        #expect(t.widows == d.widows && t.orphans == d.orphans && t.keepWithNext == d.keepWithNext && t.baselineGrid == d.baselineGrid)
        #expect(HyphenationSpec() == standardHyphenation)
    }
    // Every templates/*.json file writes footer, header and the flow keys exactly as encode does. (Lengths
    // before them may differ: the files keep units such as "0.25in" where encode writes 18.)
    @Test func filesEndAsEncoded() throws {
        func tail(_ text: String) -> [Substring] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return Array(lines.drop { !$0.hasPrefix(#"  "footer": "#) })
        }
        for t in Template.builtins {
            let file = try String(contentsOf: templatesFolder.appendingPathComponent("\(t.name).json"), encoding: .utf8)
            #expect(tail(file).count == 44, "\(t.name)")
            #expect(tail(TemplateLoader.encode(t)) == tail(file), "\(t.name)")
        }
    }
    // The flow keys come after footer and header, in this order (then balance, blockImages,
    // dropcap, headings, styles, link, caption, wrapMinWidth, social, cjkAutoSpacing, typography, cjk, maxImagePixels,
    // startPage and print).
    @Test func schemaOrder() {
        let keys = TemplateSchema.topKeys
        #expect(
            Array(keys.suffix(23).dropLast()) == [
                "footer", "header", "lineBreaking", "hyphenation", "widows", "orphans", "keepWithNext", "baselineGrid", "balance",
                "blockImages", "dropcap", "headings", "styles", "link", "caption", "wrapMinWidth", "social", "cjkAutoSpacing",
                "typography", "cjk", "maxImagePixels", "startPage",
            ])
        #expect(
            TemplateSchema.objectKeys["hyphenation"] == [
                "enabled", "minWord", "leftMin", "rightMin", "capitals", "maxConsecutive", "acrossColumns", "narrowMeasure",
                "narrowMinWord", "narrowMaxConsecutive",
            ])
    }
}

// MARK: - Keys

@Suite struct FlowKeyTests {
    // lineBreaking takes both strategies, ignoring case.
    @Test func lineBreaking() {
        #expect(decoded(#"{"lineBreaking": "greedy"}"#)?.lineBreaking == .greedy)
        #expect(decoded(#"{"lineBreaking": "Total-Fit"}"#)?.lineBreaking == .totalFit)
    }
    // Every hyphenation key.
    @Test func hyphenationAll() {
        let t = decoded(
            #"""
            {"hyphenation": {"enabled": false, "minWord": 8, "leftMin": 3, "rightMin": 4, "capitals": true, "maxConsecutive": 5, "acrossColumns": false}}
            """#)
        #expect(
            t?.hyphenation
                == HyphenationSpec(
                    enabled: false, minWord: 8, leftMin: 3, rightMin: 4, capitals: true, maxConsecutive: 5, acrossColumns: false))
    }
    // Each hyphenation key is set on its own; the others stay.
    @Test func hyphenationEachKey() {
        var expected = standardHyphenation
        expected.narrowMeasure = 0
        #expect(decoded(#"{"hyphenation": {"narrowMeasure": 0}}"#)?.hyphenation == expected)
        expected = standardHyphenation
        expected.narrowMinWord = 4
        expected.narrowMaxConsecutive = 4
        #expect(decoded(#"{"hyphenation": {"narrowMinWord": 4, "narrowMaxConsecutive": 4}}"#)?.hyphenation == expected)
        expected = standardHyphenation
        expected.enabled = false
        #expect(decoded(#"{"hyphenation": {"enabled": false}}"#)?.hyphenation == expected)
        expected = standardHyphenation
        expected.minWord = 8
        #expect(decoded(#"{"hyphenation": {"minWord": 8}}"#)?.hyphenation == expected)
        expected = standardHyphenation
        expected.leftMin = 1
        #expect(decoded(#"{"hyphenation": {"leftMin": 1}}"#)?.hyphenation == expected)
        expected = standardHyphenation
        expected.rightMin = 10
        #expect(decoded(#"{"hyphenation": {"rightMin": 10}}"#)?.hyphenation == expected)
        expected = standardHyphenation
        expected.capitals = true
        #expect(decoded(#"{"hyphenation": {"capitals": true}}"#)?.hyphenation == expected)
        expected = standardHyphenation
        expected.maxConsecutive = 1
        #expect(decoded(#"{"hyphenation": {"maxConsecutive": 1}}"#)?.hyphenation == expected)
        expected = standardHyphenation
        expected.acrossColumns = true
        #expect(decoded(#"{"hyphenation": {"acrossColumns": true}}"#)?.hyphenation == expected)
    }
    // An empty hyphenation object changes nothing.
    @Test func hyphenationEmpty() { #expect(decoded(#"{"hyphenation": {}}"#) == .default) }
    // The ends of every range are accepted.
    @Test func rangeEnds() {
        #expect(decoded(#"{"hyphenation": {"minWord": 2}}"#)?.hyphenation.minWord == 2)
        #expect(decoded(#"{"hyphenation": {"minWord": 50}}"#)?.hyphenation.minWord == 50)
        #expect(decoded(#"{"hyphenation": {"leftMin": 10, "rightMin": 1, "maxConsecutive": 10}}"#) != nil)
        #expect(decoded(#"{"widows": 1, "orphans": 10}"#).map { ($0.widows, $0.orphans) }! == (1, 10))
        #expect(decoded(#"{"keepWithNext": 0}"#)?.keepWithNext == 0)
        #expect(decoded(#"{"keepWithNext": 10}"#)?.keepWithNext == 10)
    }
    // widows takes a whole number.
    @Test func widows() { #expect(decoded(#"{"widows": 3}"#)?.widows == 3) }
    // orphans takes a whole number.
    @Test func orphans() { #expect(decoded(#"{"orphans": 4}"#)?.orphans == 4) }
    // keepWithNext takes a whole number.
    @Test func keepWithNext() { #expect(decoded(#"{"keepWithNext": 1}"#)?.keepWithNext == 1) }
    // A whole number written with a fraction is still whole.
    @Test func wholeWithFraction() { #expect(decoded(#"{"widows": 3.0}"#)?.widows == 3) }
    // baselineGrid takes a boolean.
    @Test func baselineGrid() { #expect(decoded(#"{"baselineGrid": false}"#)?.baselineGrid == false) }
    // Setting one flow key leaves the others at the base's values.
    @Test func othersKept() {
        var expected = Template.default
        expected.widows = 3
        #expect(decoded(#"{"widows": 3}"#) == expected)
    }
}

// MARK: - Errors

@Suite struct FlowErrorTests {
    // A misspelt strategy is suggested.
    @Test func lineBreakingTypo() {
        #expect(
            located(#"{"lineBreaking": "totalfit"}"#)
                == "1:18 key 'lineBreaking': unknown line-breaking strategy 'totalfit'; did you mean 'total-fit'?")
        #expect(
            located(#"{"lineBreaking": "greddy"}"#)
                == "1:18 key 'lineBreaking': unknown line-breaking strategy 'greddy'; did you mean 'greedy'?")
    }
    // A far-off strategy lists the two.
    @Test func lineBreakingList() {
        #expect(
            located(#"{"lineBreaking": "knuth"}"#)
                == "1:18 key 'lineBreaking': unknown line-breaking strategy 'knuth'; use total-fit or greedy")
    }
    // lineBreaking must be a string.
    @Test func lineBreakingType() {
        #expect(located(#"{"lineBreaking": true}"#) == "1:18 key 'lineBreaking': expected total-fit or greedy, got true")
    }
    // hyphenation must be an object.
    @Test func hyphenationNotObject() {
        #expect(
            located(#"{"hyphenation": false}"#)
                == "1:17 key 'hyphenation': expected an object with enabled, minWord, leftMin, rightMin, capitals, maxConsecutive, "
                + "acrossColumns, narrowMeasure, narrowMinWord and narrowMaxConsecutive, got false"
        )
    }
    // An unknown hyphenation key is suggested with its path, pointing at the key.
    @Test func hyphenationUnknownKey() {
        #expect(
            located(#"{"hyphenation": {"minWords": 8}}"#) == "1:18 unknown key 'hyphenation.minWords'; did you mean 'hyphenation.minWord'?")
        #expect(
            located(#"{"hyphenation": {"leftmin": 2}}"#) == "1:18 unknown key 'hyphenation.leftmin'; did you mean 'hyphenation.leftMin'?")
        #expect(
            located(#"{"hyphenation": {"acrossColumn": true}}"#)
                == "1:18 unknown key 'hyphenation.acrossColumn'; did you mean 'hyphenation.acrossColumns'?")
    }
    // An unknown hyphenation key with nothing close gets no suggestion.
    @Test func hyphenationUnknownKeyNoSuggestion() {
        #expect(located(#"{"hyphenation": {"xyzzy": 1}}"#) == "1:18 unknown key 'hyphenation.xyzzy'")
    }
    // A repeated hyphenation key is an error at the second one.
    @Test func hyphenationDuplicate() {
        #expect(
            located(#"{"hyphenation": {"minWord": 8, "minWord": 9}}"#) == "1:32 duplicate key 'hyphenation.minWord' (first given at 1:18)")
    }
    // A misspelt top-level key is suggested.
    @Test func topLevelTypos() {
        #expect(located(#"{"widow": 2}"#) == "1:2 unknown key 'widow'; did you mean 'widows'?")
        #expect(located(#"{"hyphenaton": {}}"#) == "1:2 unknown key 'hyphenaton'; did you mean 'hyphenation'?")
        #expect(located(#"{"baselinegrid": true}"#) == "1:2 unknown key 'baselinegrid'; did you mean 'baselineGrid'?")
        #expect(located(#"{"keepwithnext": 1}"#) == "1:2 unknown key 'keepwithnext'; did you mean 'keepWithNext'?")
    }
    // minWord is 2 to 50.
    @Test func minWord() {
        #expect(
            located(#"{"hyphenation": {"minWord": 1}}"#) == "1:29 key 'hyphenation.minWord': expected a whole number from 2 to 50, got 1")
        #expect(
            located(#"{"hyphenation": {"minWord": 51}}"#) == "1:29 key 'hyphenation.minWord': expected a whole number from 2 to 50, got 51")
        #expect(
            located(#"{"hyphenation": {"minWord": "6"}}"#)
                == #"1:29 key 'hyphenation.minWord': expected a whole number from 2 to 50, got "6""#)
    }
    // leftMin is 1 to 10.
    @Test func leftMin() {
        #expect(
            located(#"{"hyphenation": {"leftMin": 0}}"#) == "1:29 key 'hyphenation.leftMin': expected a whole number from 1 to 10, got 0")
        #expect(
            located(#"{"hyphenation": {"leftMin": 11}}"#) == "1:29 key 'hyphenation.leftMin': expected a whole number from 1 to 10, got 11")
    }
    // rightMin is 1 to 10, and whole.
    @Test func rightMin() {
        #expect(
            located(#"{"hyphenation": {"rightMin": 0}}"#) == "1:30 key 'hyphenation.rightMin': expected a whole number from 1 to 10, got 0")
        #expect(
            located(#"{"hyphenation": {"rightMin": 2.5}}"#)
                == "1:30 key 'hyphenation.rightMin': expected a whole number from 1 to 10, got 2.5")
    }
    // maxConsecutive is 1 to 10: 0 is not "unlimited".
    @Test func maxConsecutive() {
        #expect(
            located(#"{"hyphenation": {"maxConsecutive": 0}}"#)
                == "1:36 key 'hyphenation.maxConsecutive': expected a whole number from 1 to 10, got 0")
        #expect(
            located(#"{"hyphenation": {"maxConsecutive": 11}}"#)
                == "1:36 key 'hyphenation.maxConsecutive': expected a whole number from 1 to 10, got 11")
    }
    // The hyphenation booleans must be JSON booleans.
    @Test func hyphenationBooleans() {
        #expect(located(#"{"hyphenation": {"enabled": "true"}}"#) == #"1:29 key 'hyphenation.enabled': expected true or false, got "true""#)
        #expect(located(#"{"hyphenation": {"capitals": 0}}"#) == "1:30 key 'hyphenation.capitals': expected true or false, got 0")
        #expect(
            located(#"{"hyphenation": {"acrossColumns": null}}"#)
                == "1:35 key 'hyphenation.acrossColumns': expected true or false, got null")
    }
    // widows is 1 to 10.
    @Test func widows() {
        #expect(located(#"{"widows": 0}"#) == "1:12 key 'widows': expected a whole number from 1 to 10, got 0")
        #expect(located(#"{"widows": 2.5}"#) == "1:12 key 'widows': expected a whole number from 1 to 10, got 2.5")
    }
    // orphans is 1 to 10.
    @Test func orphans() {
        #expect(located(#"{"orphans": 11}"#) == "1:13 key 'orphans': expected a whole number from 1 to 10, got 11")
        #expect(located(#"{"orphans": "2"}"#) == #"1:13 key 'orphans': expected a whole number from 1 to 10, got "2""#)
    }
    // keepWithNext is 0 to 10.
    @Test func keepWithNext() {
        #expect(located(#"{"keepWithNext": -1}"#) == "1:18 key 'keepWithNext': expected a whole number from 0 to 10, got -1")
        #expect(located(#"{"keepWithNext": 11}"#) == "1:18 key 'keepWithNext': expected a whole number from 0 to 10, got 11")
    }
    // baselineGrid must be a JSON boolean.
    @Test func baselineGrid() {
        #expect(located(#"{"baselineGrid": "true"}"#) == #"1:18 key 'baselineGrid': expected true or false, got "true""#)
        #expect(located(#"{"baselineGrid": 1}"#) == "1:18 key 'baselineGrid': expected true or false, got 1")
    }
    // Errors inside a multi-line hyphenation object point at the line.
    @Test func multiline() {
        #expect(
            located("{\n  \"hyphenation\": {\n    \"enabled\": true,\n    \"rightMin\": 0\n  }\n}")
                == "4:17 key 'hyphenation.rightMin': expected a whole number from 1 to 10, got 0")
    }
}

// MARK: - Inheritance

@Suite struct FlowInheritanceTests {
    // A partial hyphenation object keeps the rest from the built-in it extends.
    @Test func partialOverBuiltin() {
        let t = decoded(#"{"extends": "pocket", "hyphenation": {"minWord": 8}}"#)
        var expected = Template.builtin(named: "pocket")!
        expected.hyphenation.minWord = 8
        #expect(t == expected)
    }
    // Partial hyphenation objects along an extends chain add up, key by key.
    @Test func partialChain() {
        let dir = scratchFolder()
        write(#"{"hyphenation": {"capitals": true, "maxConsecutive": 3}, "lineBreaking": "greedy", "widows": 3}"#, to: dir + "/base.json")
        write(#"{"extends": "base.json", "hyphenation": {"minWord": 8}, "orphans": 4}"#, to: dir + "/a.json")
        let t = try? TemplateLoader.load(dir + "/a.json").get()
        var expected = Template.default
        expected.hyphenation = HyphenationSpec(
            enabled: true, minWord: 8, leftMin: 2, rightMin: 3, capitals: true, maxConsecutive: 3, acrossColumns: false)
        expected.lineBreaking = .greedy
        expected.widows = 3
        expected.orphans = 4
        #expect(t == expected)
    }
    // The child's value wins over the base's for the same hyphenation key.
    @Test func childWins() {
        let dir = scratchFolder()
        write(#"{"hyphenation": {"enabled": false, "leftMin": 4}}"#, to: dir + "/base.json")
        write(#"{"extends": "base.json", "hyphenation": {"enabled": true}}"#, to: dir + "/a.json")
        let t = try? TemplateLoader.load(dir + "/a.json").get()
        #expect(t?.hyphenation.enabled == true && t?.hyphenation.leftMin == 4)
    }
    // An error in the base's hyphenation names the base file and place.
    @Test func errorInBase() {
        let dir = scratchFolder()
        write(#"{"hyphenation": {"leftMin": 0}}"#, to: dir + "/base.json")
        write(#"{"extends": "base.json"}"#, to: dir + "/a.json")
        guard case .failure(let d) = TemplateLoader.load(dir + "/a.json") else { Issue.record("loaded"); return }
        #expect(d.file == dir + "/base.json" && d.location?.description == "1:29")
        #expect(d.message == "key 'hyphenation.leftMin': expected a whole number from 1 to 10, got 0")
    }
}

// MARK: - --set

@Suite struct FlowOverrideTests {
    // hyphenation.enabled=false turns hyphenation off and keeps the rest.
    @Test func hyphenationOff() {
        var expected = standardHyphenation
        expected.enabled = false
        #expect(overridden(["hyphenation.enabled=false"])?.hyphenation == expected)
    }
    // Each number and boolean hyphenation key.
    @Test func hyphenationKeys() {
        let t = overridden([
            "hyphenation.minWord=8", "hyphenation.leftMin=3", "hyphenation.rightMin=4", "hyphenation.capitals=true",
            "hyphenation.maxConsecutive=1", "hyphenation.acrossColumns=false",
        ])
        #expect(
            t?.hyphenation
                == HyphenationSpec(
                    enabled: true, minWord: 8, leftMin: 3, rightMin: 4, capitals: true, maxConsecutive: 1, acrossColumns: false))
    }
    // A JSON object for hyphenation sets only the keys it names.
    @Test func hyphenationObject() {
        var expected = standardHyphenation
        expected.leftMin = 3
        expected.capitals = true
        #expect(overridden([#"hyphenation={"leftMin": 3, "capitals": true}"#])?.hyphenation == expected)
    }
    // widows, orphans and keepWithNext take numbers.
    @Test func counts() {
        let t = overridden(["widows=3", "orphans=4", "keepWithNext=0"])
        #expect(t?.widows == 3 && t?.orphans == 4 && t?.keepWithNext == 0)
    }
    // lineBreaking takes an unquoted word.
    @Test func lineBreaking() {
        #expect(overridden(["lineBreaking=greedy"])?.lineBreaking == .greedy)
        #expect(overridden(["lineBreaking=total-fit"], overridden(["lineBreaking=greedy"])!)?.lineBreaking == .totalFit)
    }
    // baselineGrid takes a boolean.
    @Test func baselineGrid() { #expect(overridden(["baselineGrid=false"])?.baselineGrid == false) }
    // Overrides start from the given template's flow values.
    @Test func base() {
        var base = Template.builtin(named: "tabloid")!
        base.hyphenation.minWord = 9
        #expect(overridden(["hyphenation.enabled=false"], base)?.hyphenation.minWord == 9)
    }
    // Exact messages for bad values.
    @Test func errors() {
        #expect(overrideMessage(["widows=0"]) == "--set widows=0: expected a whole number from 1 to 10")
        #expect(overrideMessage(["orphans=many"]) == "--set orphans=many: expected a whole number from 1 to 10")
        #expect(overrideMessage(["keepWithNext=11"]) == "--set keepWithNext=11: expected a whole number from 0 to 10")
        #expect(overrideMessage(["hyphenation.minWord=1"]) == "--set hyphenation.minWord=1: expected a whole number from 2 to 50")
        #expect(
            overrideMessage(["hyphenation.maxConsecutive=0"]) == "--set hyphenation.maxConsecutive=0: expected a whole number from 1 to 10")
        #expect(overrideMessage(["hyphenation.enabled=no"]) == "--set hyphenation.enabled=no: expected true or false")
        #expect(overrideMessage([#"baselineGrid="true""#]) == #"--set baselineGrid="true": expected true or false"#)
        #expect(
            overrideMessage(["lineBreaking=greddy"])
                == "--set lineBreaking=greddy: unknown line-breaking strategy 'greddy'; did you mean 'greedy'?")
        #expect(
            overrideMessage(["hyphenation=off"])
                == "--set hyphenation=off: expected an object with enabled, minWord, leftMin, rightMin, capitals, maxConsecutive, "
                + "acrossColumns, narrowMeasure, narrowMinWord and narrowMaxConsecutive"
        )
    }
    // Unknown keys are suggested with their paths.
    @Test func unknownKeys() {
        #expect(
            overrideMessage(["hyphenation.minwrd=8"])
                == "--set hyphenation.minwrd=8: unknown key 'hyphenation.minwrd'; did you mean 'hyphenation.minWord'?")
        #expect(overrideMessage(["widow=3"]) == "--set widow=3: unknown key 'widow'; did you mean 'widows'?")
        #expect(overrideMessage(["widows.x=3"]) == "--set widows.x=3: unknown key 'widows.x'; did you mean 'widows'?")
        #expect(
            overrideMessage(["hyphenation.enabled.x=1"])
                == "--set hyphenation.enabled.x=1: unknown key 'hyphenation.enabled.x'; did you mean 'hyphenation.enabled'?")
        #expect(
            overrideMessage([#"hyphenation={"capital": true}"#])
                == #"--set hyphenation={"capital": true}: unknown key 'hyphenation.capital'; did you mean 'hyphenation.capitals'?"#)
    }
}

// MARK: - Encoding

@Suite struct FlowEncodeTests {
    // The flow keys are written after footer, exactly so, before headings.
    @Test func written() {
        let text = TemplateLoader.encode(.default)
        #expect(
            text.contains(
                #"""
                  "lineBreaking": "total-fit",
                  "hyphenation": {"enabled": true, "minWord": 6, "leftMin": 2, "rightMin": 3, "capitals": false, "maxConsecutive": 2, "acrossColumns": false, "narrowMeasure": 20, "narrowMinWord": 5, "narrowMaxConsecutive": 3},
                  "widows": 2,
                  "orphans": 2,
                  "keepWithNext": 2,
                  "baselineGrid": true,
                  "balance": true,
                  "blockImages": "defer",
                  "dropcap": {"lines": 3, "face": "DejaVu Serif", "color": "#222222", "after": "none"},
                  "headings": {
                """#))
    }
    // Non-default flow values survive encode then decode.
    @Test func roundTrip() {
        var t = Template.builtin(named: "pocket")!
        t.lineBreaking = .greedy
        t.hyphenation = HyphenationSpec(
            enabled: false, minWord: 50, leftMin: 1, rightMin: 10, capitals: true, maxConsecutive: 10, acrossColumns: false)
        (t.hyphenation.narrowMeasure, t.hyphenation.narrowMinWord, t.hyphenation.narrowMaxConsecutive) = (0, 2, 1)
        t.widows = 1
        t.orphans = 10
        t.keepWithNext = 0
        t.baselineGrid = false
        t.balance = false
        t.blockImages = .inOrder
        t.dropCap = DropCapSpec(lines: 10, face: "P052", color: .black, after: 2)
        t.headings.h1.span = true
        let text = TemplateLoader.encode(t)
        #expect(decoded(text) == t)
        #expect(
            text.contains(
                #""hyphenation": {"enabled": false, "minWord": 50, "leftMin": 1, "rightMin": 10, "capitals": true, "maxConsecutive": 10, "acrossColumns": false, "narrowMeasure": 0, "narrowMinWord": 2, "narrowMaxConsecutive": 1}"#
            ))
        #expect(text.contains(#""lineBreaking": "greedy""#) && text.contains(#""baselineGrid": false"#))
        #expect(text.contains(#""balance": false"#) && text.contains(#""blockImages": "inOrder""#) && text.contains(#""after": 6, "span": "all"}"#))
        #expect(text.contains(#""dropcap": {"lines": 10, "face": "P052", "color": "black", "after": "h2"}"#))
    }
    // Overrides of every flow key survive encode then decode.
    @Test func overriddenRoundTrip() {
        let t = overridden([
            "lineBreaking=greedy", "hyphenation.capitals=true", "widows=4", "orphans=3", "keepWithNext=5", "baselineGrid=false",
        ])!
        #expect(decoded(TemplateLoader.encode(t)) == t)
    }
}

// MARK: - The README's table

@Suite struct TemplateKeyTableTests {
    // The README's table of template keys lists every key the schema takes, and no other:
    // `headings.hN.…` stands for h1, h2 and h3, and `margins` takes one length as well as sides.
    @Test func readmeTableIsTheSchema() throws {
        let readme = try String(contentsOfFile: repoPath("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Template keys").dropFirst().first?.components(separatedBy: "\n#").first)
        var listed: [String] = []
        for row in section.split(separator: "\n") where row.hasPrefix("| `") {
            let key = String(row.dropFirst(3).prefix { $0 != "`" })
            if key.contains(".hN.") {
                listed += ["h1", "h2", "h3"].map { key.replacingOccurrences(of: ".hN.", with: ".\($0).") }
            } else {
                listed.append(key)
            }
        }
        let schema = TemplateSchema.allPaths.filter { TemplateSchema.objectKeys[$0] == nil || $0 == "margins" }
        #expect(Set(listed) == Set(schema), "missing: \(Set(schema).subtracting(listed).sorted()), extra: \(Set(listed).subtracting(schema).sorted())")
        #expect(listed.count == Set(listed).count)
    }
}
