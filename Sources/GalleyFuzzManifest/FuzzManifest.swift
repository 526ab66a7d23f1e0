import GalleyFuzz

// What libFuzzer calls with each input it makes (through FuzzMain when built for fuzzing).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { FuzzMain.test(.manifest, data, size) }

@main enum FuzzManifest {
    static func main() { FuzzMain.main(.manifest, testOneInput: testOneInput) }
}
