import GalleyFuzz

// What libFuzzer calls with each input it makes (through FuzzMain when built for fuzzing).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { FuzzMain.test(.emoticons, data, size) }

@main enum FuzzEmoticons {
    static func main() { FuzzMain.main(.emoticons, testOneInput: testOneInput) }
}
