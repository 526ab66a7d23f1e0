import CPango
import GalleyLayout
import GalleyStory
import TestSupport
import Testing

/// Resolves `names` as the faces of one story, through fontconfig with the pinned fonts (those
/// `make setup` installs): the plan, its warnings, and the engine that resolved them.
private func resolve(_ names: [String]) -> (FontPlan, [String], TextEngine) {
    TestFonts.pin()
    let markup = names.map { "<font face=\"\($0)\">x</font>" }.joined(separator: " ")
    let engine = TextEngine(plan: .empty)
    let story = buildStory(markup).story
    let (plan, diagnostics) = FontPlan.resolve(story: story, fallbackFaces: [], language: "en", file: "t.txt", engine: engine)
    return (plan, diagnostics.map(\.message), engine)
}

/// The fontconfig pattern of the font Pango loads for the style whose face is `name`.
private func loadedPattern(_ plan: FontPlan, _ engine: TextEngine, face name: String) -> (family: String, weight: Int32, width: Int32)? {
    guard let style = plan.styles.firstIndex(where: { $0.face == name }) else { return nil }
    let d = plan.makeDescription(style: style)
    defer { pango_font_description_free(d) }
    guard let font = pango_font_map_load_font(engine.fontMap, engine.context, d), let p = galley_font_pattern(font) else { return nil }
    defer { galley_object_unref(font) }
    var weight: Int32 = 0
    var width: Int32 = 0
    FcPatternGetInteger(p, FC_WEIGHT, 0, &weight)
    FcPatternGetInteger(p, FC_WIDTH, 0, &width)
    return (galley_font_family(font).map { String(cString: $0) } ?? "?", weight, width)
}

@Suite struct FaceClassTests {
    // The table is as large as the issue asks, names each family once, and covers every class.
    @Test func tableCoversEveryClass() {
        #expect(FaceClasses.table.count >= 80)
        let names = FaceClasses.table.map { FaceClasses.normalized($0.family) }
        #expect(Set(names).count == names.count)
        #expect(Set(FaceClasses.table.map(\.kind)) == Set(FaceClass.allCases))
        #expect(FaceClasses.rulesLoaded)
    }

    // Every family of the table resolves, through fontconfig, to an installed face of its own
    // class (a serif to a serif, a monospace to a monospace): its clone or its class's stand-in.
    // The one stand-in not of its class, Century for a didone, is said so in the warning.
    @Test func everyFamilyResolvesToItsClass() {
        let (plan, warnings, _) = resolve(FaceClasses.table.map(\.family))
        for entry in FaceClasses.table {
            let used = plan.faces[entry.family]?.family ?? "?"
            let kind = FaceClasses.kind(ofFamily: used)
            #expect(kind == entry.kind || used == entry.kind.standIn, "\(entry.family) (\(entry.kind)) resolved to \(used) (\(String(describing: kind)))")
            if let clone = entry.clone, clone != "Nimbus Sans Narrow" {
                #expect(used == clone, "\(entry.family) should use its clone \(clone), got \(used)")
            }
        }
        #expect(warnings.count == FaceClasses.table.count)
        #expect(warnings.allSatisfy { !$0.contains("'DejaVu Sans'") || $0.contains("humanist") })
    }

    // The warnings name the substitute and say why, once per face.
    @Test func warningsSayTheClass() {
        let (_, warnings, _) = resolve(["Didot", "American Typewriter", "Arial", "Kaiti SC", "No Such Face"])
        #expect(
            warnings == [
                "face 'Didot' is not installed; using 'C059' (for a didone serif: a Century, the nearest Debian packages)",
                "face 'American Typewriter' is not installed; using 'Roboto Slab' (a slab serif)",
                "face 'Arial' is not installed; using 'Liberation Sans' (a grotesque sans, metric-compatible)",
                "face 'Kaiti SC' is not installed; using 'AR PL UKai CN' (a CJK Kai)",
                "face 'No Such Face' is not installed; using 'DejaVu Sans'",
            ])
    }

    // Weights, widths and styles in the name pick that face of the substitute, or the nearest.
    @Test func weightsAndWidthsFollow() throws {
        let names = [
            "Helvetica Neue Light", "Avenir Next Demi Bold", "Futura Condensed Medium", "Helvetica Condensed Bold",
            "American Typewriter Light", "Didot Bold Italic", "Helvetica Neue",
        ]
        let (plan, _, engine) = resolve(names)
        let light = try #require(loadedPattern(plan, engine, face: "Helvetica Neue Light"))
        #expect(light.family == "Nimbus Sans" && light.weight == FC_WEIGHT_REGULAR)  // its lightest
        let demi = try #require(loadedPattern(plan, engine, face: "Avenir Next Demi Bold"))
        #expect(demi.family == "URW Gothic" && demi.weight == FC_WEIGHT_DEMIBOLD)
        let futura = try #require(loadedPattern(plan, engine, face: "Futura Condensed Medium"))
        #expect(futura.width < FC_WIDTH_NORMAL)
        let narrow = try #require(loadedPattern(plan, engine, face: "Helvetica Condensed Bold"))
        #expect(narrow.family == "Nimbus Sans Narrow" && narrow.weight == FC_WEIGHT_BOLD)
        let slab = try #require(loadedPattern(plan, engine, face: "American Typewriter Light"))
        #expect(slab.family == "Roboto Slab" && slab.weight == FC_WEIGHT_LIGHT)
        let didot = try #require(plan.faces["Didot Bold Italic"])
        #expect(didot.family == "C059" && didot.weight == 700 && didot.italic)
        let regular = try #require(loadedPattern(plan, engine, face: "Helvetica Neue"))
        #expect(regular.width == FC_WIDTH_NORMAL && regular.weight == FC_WEIGHT_REGULAR)
    }

    // A known family whose name says its weight ("Arial Black") keeps that weight in its
    // stand-in when it is not installed: a heavy headline stays heavy.
    @Test func aWeightInAKnownFamilysNameFollows() throws {
        let (plan, _, engine) = resolve(["Arial Black", "Arial"])
        let black = try #require(loadedPattern(plan, engine, face: "Arial Black"))
        #expect(black.weight == FC_WEIGHT_BOLD, "the heaviest installed: \(black)")
        #expect(plan.faces["Arial Black"]?.weight == 900)
        let arial = try #require(loadedPattern(plan, engine, face: "Arial"))
        #expect(arial.weight == FC_WEIGHT_REGULAR)
    }

    // A family whose name holds a width word is that family, not a width of a shorter name.
    @Test func widthNamedFamilyIsItself() {
        let (plan, warnings, _) = resolve(["Nimbus Sans Narrow", "DejaVu Sans Condensed"])
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(plan.faces["Nimbus Sans Narrow"]?.family == "Nimbus Sans Narrow")
    }
}
