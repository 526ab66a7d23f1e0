import Foundation
import GalleyMarkup
import TestSupport
import Testing

@testable import GalleyTemplate

// The running head (`header`), facing-page texts and mirrored margins.

@Suite struct RunningLineKeyTests {
    // Every built-in has a running head, off, in its footer's face and size.
    @Test func builtins() {
        for t in Template.builtins {
            #expect(!t.header.enabled && t.header.text == "{title}" && t.header.left == nil && t.header.right == nil, "\(t.name)")
            #expect(t.header.face == t.footer.face && t.header.size == t.footer.size && t.header.color == t.footer.color, "\(t.name)")
        }
    }
    // Every header key, with fields in each text.
    @Test func header() {
        let t = decoded(
            #"""
            {"header": {"enabled": true, "text": "{title}", "left": "{page} · {issue}", "right": "{section} · {page}",
             "face": "X", "size": 9, "color": "red"}}
            """#)
        #expect(
            t?.header
                == HeaderSpec(
                    enabled: true, text: "{title}", face: "X", size: 9, color: RGBA(1, 0, 0), left: "{page} · {issue}",
                    right: "{section} · {page}"))
    }
    // The footer takes the same keys; `null` takes a side's text away again.
    @Test func footerSides() {
        let t = decoded(#"{"footer": {"left": "{page} of {pages}", "right": "{title}"}}"#)
        #expect(t?.footer.left == "{page} of {pages}" && t?.footer.right == "{title}" && t?.footer.text == "{page}")
        var base = Template.default
        base.footer.left = "x"
        #expect(overridden(["footer.left=null"], base)?.footer.left == nil)
        #expect(overridden(["footer.right={issue}"])?.footer.right == "{issue}")
    }
    // An unknown field in any text is a located error naming the key.
    @Test func unknownField() {
        #expect(
            located(#"{"header": {"left": "{page} {titel}"}}"#)
                == "1:21 key 'header.left': unknown placeholder '{titel}'; did you mean '{title}'?")
        #expect(
            located(#"{"header": {"text": "{author}"}}"#)
                == "1:21 key 'header.text': unknown placeholder '{author}'; use {page}, {pages}, {title}, {section} or {issue}")
        #expect(
            located(#"{"footer": {"right": "{Issue}"}}"#)
                == "1:22 key 'footer.right': unknown placeholder '{Issue}'; did you mean '{issue}'?")
        #expect(
            overrideMessage(["header.right={sectoin}"])
                == "--set header.right={sectoin}: unknown placeholder '{sectoin}'; did you mean '{section}'?")
        #expect(located(#"{"header": {"left": 3}}"#) == "1:21 key 'header.left': expected a string, got 3")
    }
    // Which text a page shows: its side's own, flush to the outer edge, else `text` centred.
    @Test func sides() {
        var f = FooterSpec(enabled: true, text: "{page}", face: "X", size: 8, color: .black)
        #expect(f.text(onPage: 1) == ("{page}", .center) && f.text(onPage: 2) == ("{page}", .center))
        f.left = "L"
        #expect(f.text(onPage: 2) == ("L", .left) && f.text(onPage: 3) == ("{page}", .center))
        f.right = "R"
        #expect(f.text(onPage: 1) == ("R", .right) && f.text(onPage: 4) == ("L", .left))
        #expect(f.names("page") && !f.names("pages"))
    }
    // Fields are filled in one pass; a missing one is empty, and so is its separator; other
    // braces stay.
    @Test func fill() {
        let values = ["page": "3", "title": "{page} {x}"]
        #expect(RunningLineSpec.fill("{title} · {page} · {issue} {x} {", values) == "{page} {x} · 3 {x} {")
        // A header of "{issue} · {section}" without a section read "No. 12 ·", without either "·".
        #expect(RunningLineSpec.fill("{issue} · {section}", ["issue": "No. 12"]) == "No. 12")
        #expect(RunningLineSpec.fill("{issue} · {section}", ["section": "Notebook"]) == "Notebook")
        #expect(RunningLineSpec.fill("{issue} · {section}", [:]) == "")
        #expect(RunningLineSpec.fill("Page {page} of {pages}", ["page": "2", "pages": "9"]) == "Page 2 of 9")
    }
    // The header is written after the footer; sides only when given.
    @Test func encoded() {
        var t = Template.default
        t.header.enabled = true
        t.header.right = "{section}"
        let text = TemplateLoader.encode(t)
        #expect(
            text.contains(
                #"""
                  "footer": {"enabled": true, "text": "{page}", "face": "DejaVu Serif", "size": 8, "color": "gray"},
                  "header": {"enabled": true, "text": "{title}", "right": "{section}", "face": "DejaVu Serif", "size": 8, "color": "gray"},
                """#))
        #expect(decoded(text) == t)
    }
}

@Suite struct MirroredMarginTests {
    // Inner and outer make the margins mirrored: kept as a right-hand page has them.
    @Test func decode() throws {
        let t = try #require(decoded(#"{"margins": {"top": 30, "bottom": 40, "inner": 50, "outer": 20}}"#))
        #expect(t.margins == EdgeInsets(top: 30, inner: 50, bottom: 40, outer: 20))
        #expect(t.margins.mirrored && t.margins.left == 50 && t.margins.right == 20)
        #expect(t.margins.onPage(1) == t.margins && t.margins.onPage(3) == t.margins)
        let left = t.margins.onPage(2)
        #expect(left.left == 20 && left.right == 50 && left.top == 30 && left.bottom == 40)
    }
    // Fixed margins are the same on every page.
    @Test func fixed() {
        let m = EdgeInsets(top: 1, right: 2, bottom: 3, left: 4)
        #expect(m.onPage(2) == m && !m.mirrored)
    }
    // Partial objects keep the rest; left or right make the margins fixed again.
    @Test func partial() {
        let inner = overridden(["margins.inner=30"])
        #expect(inner?.margins.mirrored == true && inner?.margins.inner == 30 && inner?.margins.outer == Template.default.margins.right)
        let fixed = overridden(["margins.inner=30", "margins.left=10"])
        #expect(fixed?.margins.mirrored == false && fixed?.margins.left == 10 && fixed?.margins.right == Template.default.margins.right)
        #expect(overridden(["margins.inner=30", "margins=5"])?.margins == EdgeInsets(all: 5))
    }
    // One object cannot give both kinds of side.
    @Test func bothKinds() {
        #expect(
            located(#"{"margins": {"left": 10, "outer": 20}}"#)
                == "1:35 key 'margins.outer': give either 'margins.left' and 'margins.right' or 'margins.inner' and 'margins.outer', not both"
        )
    }
    // No room for text is blamed on inner or outer too.
    @Test func noRoom() {
        #expect(
            located(#"{"margins": {"inner": "103mm", "outer": "103mm"}}"#)
                == "1:23 template leaves no room for text: columns would be -2.8 pt wide")
    }
    // Mirrored margins are written as top, bottom, inner and outer, and read back the same.
    @Test func encoded() {
        var t = Template.default
        t.margins = EdgeInsets(top: 30, inner: 50, bottom: 40, outer: 20)
        let text = TemplateLoader.encode(t)
        #expect(text.contains(#""margins": {"top": 30, "bottom": 40, "inner": 50, "outer": 20},"#))
        #expect(decoded(text) == t)
    }
}
