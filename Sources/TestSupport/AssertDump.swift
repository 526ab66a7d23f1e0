import Foundation
import GalleySupport
import Testing

/// Compares a dump with its expected text. On a mismatch the issue shows a line diff (`-` lines
/// are expected, `+` lines actual). With `GALLEY_RECORD=1` in the environment it also prints the
/// actual text as a Swift literal ready to paste, and fails anyway: new baselines are reviewed
/// by a human, never accepted silently.
///
/// Multi-line string literals have no final newline while dumps end with one: when `expected`
/// lacks it and `actual` has it, it is supplied.
public func assertDump(
    _ actual: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    var expected = expected
    if actual.hasSuffix("\n") && !expected.hasSuffix("\n") { expected += "\n" }
    let record = ProcessInfo.processInfo.environment["GALLEY_RECORD"] == "1"
    if record {
        print("GALLEY_RECORD: actual text at \(sourceLocation):\n" + literal(actual))
        Issue.record("GALLEY_RECORD=1: recorded the actual dump instead of comparing (review and paste it)", sourceLocation: sourceLocation)
        return
    }
    guard actual != expected else { return }
    Issue.record(Comment(rawValue: "dump differs (- expected, + actual):\n" + lineDiff(expected, actual)), sourceLocation: sourceLocation)
}

/// `text` as a raw multi-line Swift literal (without the final newline the literal adds).
func literal(_ text: String) -> String {
    var body = text
    if body.hasSuffix("\n") { body.removeLast() }
    let indented = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }
    return "#\"\"\"\n" + indented.joined(separator: "\n") + "\n    \"\"\"#"
}

/// A unified-style line diff from `a` to `b`: common lines ` `, removed `-`, added `+`, with
/// runs of more than 3 unchanged lines between changes folded to `…`.
public func lineDiff(_ a: String, _ b: String) -> String {
    let x = a.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let y = b.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Longest common subsequence, after trimming the common prefix and suffix.
    var prefix = 0
    while prefix < x.count, prefix < y.count, x[prefix] == y[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < x.count - prefix, suffix < y.count - prefix, x[x.count - 1 - suffix] == y[y.count - 1 - suffix] {
        suffix += 1
    }
    let xs = Array(x[prefix..<(x.count - suffix)])
    let ys = Array(y[prefix..<(y.count - suffix)])
    var lcs = [[Int]](repeating: [Int](repeating: 0, count: ys.count + 1), count: xs.count + 1)
    if !xs.isEmpty && !ys.isEmpty {
        for i in stride(from: xs.count - 1, through: 0, by: -1) {
            for j in stride(from: ys.count - 1, through: 0, by: -1) {
                lcs[i][j] = xs[i] == ys[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
    }
    var ops: [(Character, String)] = x[..<prefix].map { (" ", $0) }
    var i = 0
    var j = 0
    while i < xs.count || j < ys.count {
        if i < xs.count, j < ys.count, xs[i] == ys[j] {
            ops.append((" ", xs[i]))
            i += 1
            j += 1
        } else if i < xs.count, j == ys.count || lcs[i + 1][j] >= lcs[i][j + 1] {
            ops.append(("-", xs[i]))
            i += 1
        } else {
            ops.append(("+", ys[j]))
            j += 1
        }
    }
    ops += x[(x.count - suffix)...].map { (" ", $0) }
    // Keep 3 lines of context around changes.
    let changed = ops.indices.filter { ops[$0].0 != " " }
    var out: [String] = []
    var skipping = false
    for (k, op) in ops.enumerated() {
        let near = changed.contains { abs($0 - k) <= 3 }
        if near {
            out.append("\(op.0) \(op.1)")
            skipping = false
        } else if !skipping {
            out.append("  …")
            skipping = true
        }
    }
    return out.joined(separator: "\n")
}
