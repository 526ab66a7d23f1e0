import GalleyFuzz

// What libFuzzer calls with each input it makes (through FuzzMain when built for fuzzing).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { FuzzMain.test(.markup, data, size) }

@main enum FuzzMarkup {
    static func main() { FuzzMain.main(.markup, testOneInput: testOneInput) }
}
