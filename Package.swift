// swift-tools-version:6.0
// Galley: a magazine-style paginating typesetter. One target per pipeline stage:
// Markup (parse) → Story (build) → Layout (set) → Render (export), under a CLI library
// and a thin executable. C libraries come in as system-library targets.
import PackageDescription

let package = Package(
    name: "Galley",
    products: [
        .executable(name: "galley", targets: ["galley"])
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CPango", path: "Sources/CPango", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CPixbuf", path: "Sources/CPixbuf", pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .systemLibrary(
            name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHyphen", path: "Sources/CHyphen",
            providers: [.apt(["libhyphen-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CDeflate", path: "Sources/CDeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CQPDF", path: "Sources/CQPDF",
            providers: [.apt(["libqpdf-dev"])]),
        .systemLibrary(
            name: "CLCMS", path: "Sources/CLCMS",
            providers: [.apt(["liblcms2-dev"])]),

        // Hooks into libraries as Cairo calls them (C, by symbol interposition): PDF streams
        // compressed by igzip and libdeflate, glyphs loaded once, compact CFF tables. Linked into
        // the galley executable only, and on only for the library versions they were verified with.
        .target(
            name: "CGalleyHooks", dependencies: ["CFreeType"], path: "Sources/CGalleyHooks",
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("deflate"), .linkedLibrary("isal")]),
        // Removes temporary output files and folders, and stops the programs run, when a build is
        // interrupted or terminated (C: a signal handler).
        .target(name: "CGalleySignals", path: "Sources/CGalleySignals"),
        // Pixel loops the compiler vectorises (C): the box blur of shadow masks.
        .target(name: "CGalleyPixels", path: "Sources/CGalleyPixels"),

        // What every stage uses: whole-descriptor reads and writes, file paths and identities,
        // trimming, threads and locks, binary search (FoundationEssentials has none of these
        // or only through Foundation's heavier parts).
        .target(name: "GalleySupport", dependencies: ["CGalleySignals"]),

        // The pipeline.
        .target(name: "GalleyMarkup", dependencies: ["GalleySupport"], linkerSettings: [.linkedLibrary("m")]),
        // Templates: the JSON reader, the schema and its decoder with located diagnostics, the
        // built-in templates (issue manifests will be read here too).
        .target(name: "GalleyTemplate", dependencies: ["GalleyMarkup"]),
        .target(name: "GalleyStory", dependencies: ["GalleyMarkup", "GalleyTemplate"]),
        .target(name: "GalleyLayout", dependencies: ["GalleyStory", "CPango", "CHyphen", "CPixbuf"]),
        .target(
            name: "GalleyRender",
            dependencies: ["GalleyLayout", "CCairo", "CPango", "CPNG", "CPixbuf", "CZlib", "CQPDF", "CLCMS", "CGalleySignals", "CGalleyPixels"]),
        .target(name: "GalleyCLI", dependencies: ["GalleyRender", "CDeflate"]),
        .executableTarget(name: "galley", dependencies: ["GalleyCLI", "GalleySupport", "GalleyLayout", "GalleyRender", "CGalleyHooks"]),

        // Fuzzing (`make fuzz`): the targets as functions of bytes, in a library the tests replay
        // the corpora through, and one thin executable per target for libFuzzer.
        .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
        .target(name: "GalleyFuzz", dependencies: ["GalleyRender", "CLibFuzzer"]),
        .executableTarget(name: "GalleyFuzzMarkup", dependencies: ["GalleyFuzz"]),
        .executableTarget(name: "GalleyFuzzTemplate", dependencies: ["GalleyFuzz"]),
        .executableTarget(name: "GalleyFuzzEmoticons", dependencies: ["GalleyFuzz"]),
        .executableTarget(name: "GalleyFuzzLayout", dependencies: ["GalleyFuzz"]),
        .executableTarget(name: "GalleyFuzzManifest", dependencies: ["GalleyFuzz"]),

        // Tests.
        .target(name: "TestSupport", dependencies: ["GalleyCLI", "GalleyRender"], path: "Sources/TestSupport"),
        .testTarget(name: "SupportTests", dependencies: ["GalleySupport"]),
        .testTarget(name: "MarkupTests", dependencies: ["GalleyMarkup", "TestSupport"]),
        .testTarget(name: "StoryTests", dependencies: ["GalleyStory", "TestSupport"]),
        .testTarget(name: "LayoutTests", dependencies: ["GalleyLayout", "GalleyRender", "TestSupport"]),
        .testTarget(name: "RenderTests", dependencies: ["GalleyRender", "TestSupport", "CGalleyPixels"]),
        .testTarget(name: "CLITests", dependencies: ["GalleyCLI", "TestSupport", "CLCMS", "CZlib"]),
        .testTarget(name: "FuzzTests", dependencies: ["GalleyFuzz"]),
    ],
    swiftLanguageModes: [.v6]
)
