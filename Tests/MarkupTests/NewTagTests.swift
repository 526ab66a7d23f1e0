import GalleyMarkup
import Testing

@Suite struct NewTagTests {
    /// Block, void and inline tags come through as nodes, void ones with or without the slash.
    @Test func tagNodes() {
        #expect(
            nodes(#"<p align="center">a<br>b<BR/></p><columnbreak><pagebreak/>"#)
                == lines(
                    #"""
                    1:1 <p align="center">
                    1:19 text "a"
                    1:20 <br>
                    1:24 text "b"
                    1:25 <br/>
                    1:30 </p>
                    1:34 <columnbreak>
                    1:47 <pagebreak/>
                    """#))
    }

    /// Tag names are lower-cased; attribute names keep their case as written.
    @Test func caseOfNames() {
        #expect(
            nodes(#"<H2 firstIndent="1em">x</H2><SPAN UnderlineColor="red">"#)
                == lines(
                    #"""
                    1:1 <h2 firstIndent="1em">
                    1:23 text "x"
                    1:24 </h2>
                    1:29 <span UnderlineColor="red">
                    """#))
    }

    /// Every short tag, <a>, <vertical> and the headings parse without a diagnostic.
    @Test func allKnown() {
        let text = #"<b><i><u><s><sup><sub><a href="x"><vertical><h1><h2><h3></h3></h2></h1></vertical></a></sub></sup></s></u></i></b>"#
        #expect(parse(text).diagnostics.isEmpty)
    }

    /// Attributes of one tag are unknown on another: href on span, align on span, kern on p.
    @Test func attributesBelongToTheirTags() {
        #expect(
            rendered(#"<span href="x" align="left"><p kern="1">"#)
                == lines(
                    #"""
                    t.txt:1:7: warning: unknown attribute 'href' on <span>
                    <span href="x" align="left"><p kern="1">
                          ^~~~
                    t.txt:1:16: warning: unknown attribute 'align' on <span>
                    <span href="x" align="left"><p kern="1">
                                   ^~~~~
                    t.txt:1:32: warning: unknown attribute 'kern' on <p>
                    <span href="x" align="left"><p kern="1">
                                                   ^~~~
                    """#))
    }
}
