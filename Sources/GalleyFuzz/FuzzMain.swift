import GalleySupport
import Glibc

#if FUZZING
    import CLibFuzzer
#endif

/// The main of each fuzz target's executable. Built for fuzzing (`make fuzz`: -DFUZZING and
/// -sanitize=fuzzer), it hands over to libFuzzer's driver; otherwise it replays the files and
/// folders named on its command line through the target, to reproduce what a fuzzer found.
public enum FuzzMain {
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// One input as libFuzzer hands it over.
    public static func test(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        target.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }

    public static func main(_ target: FuzzTarget, testOneInput: TestOneInput) -> Never {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
            let paths = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }
            if paths.isEmpty {
                say("usage: \(CommandLine.arguments[0]) FILE|FOLDER…  (replays inputs through the \(target) target)")
                exit(2)
            }
            var count = 0
            for path in paths {
                for file in files(at: path) {
                    say(file)
                    switch RawIO.readFile(file) {
                    case .success(let bytes): target.run(bytes)
                    case .failure(let e): say("cannot read \(file): \(e.message)")
                    }
                    count += 1
                }
            }
            say("\(count) inputs replayed through the \(target) target")
            exit(0)
        #endif
    }

    static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = RawIO.writeAll(2, $0) }
    }

    /// The files of a folder in name order, or the file itself.
    public static func files(at path: String) -> [String] {
        guard let dir = opendir(path) else { return [path] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(FilePath.join(path, name)) }
        }
        return names.sorted()
    }
}
