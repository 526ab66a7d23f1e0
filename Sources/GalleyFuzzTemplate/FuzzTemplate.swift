import GalleyFuzz

// What libFuzzer calls with each input it makes (through FuzzMain when built for fuzzing).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { FuzzMain.test(.template, data, size) }

@main enum FuzzTemplate {
    static func main() { FuzzMain.main(.template, testOneInput: testOneInput) }
}
