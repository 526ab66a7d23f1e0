import GalleyMarkup
import GalleySupport

/// A command-line option a command accepts.
struct OptionSpec {
    /// Long name without dashes ("output"), and a one-letter short name if any.
    var name: String
    var short: Character?
    /// Placeholder of the value ("FILE"); nil for a flag.
    var value: String?
    var help: String
    /// May be given more than once (values accumulate).
    var repeats = false
}

/// What a command takes, for parsing and for `--help`.
struct CommandSpec {
    var name: String
    var summary: String
    /// Positional arguments as shown in the usage line, e.g. ["INPUT"].
    var positionals: [String]
    var options: [OptionSpec]
    var discussion: String = ""

    var usage: String {
        let opts = options.isEmpty ? "" : " [options]"
        return "galley \(name)\(opts)" + positionals.map { " " + $0 }.joined()
    }

    var help: String {
        var s = "\(summary)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { s += "\n\(discussion)\n" }
        if !options.isEmpty {
            s += "\nOptions:\n"
            let all = options + [OptionSpec(name: "help", short: "h", value: nil, help: "Show this help.")]
            let left = all.map { o -> String in
                var l = o.short.map { "-\($0), " } ?? "    "
                l += "--\(o.name)"
                if let v = o.value { l += " \(v)" }
                return l
            }
            let width = (left.map(\.count).max() ?? 0) + 2
            for (l, o) in zip(left, all) {
                s += "  " + l + String(repeating: " ", count: width - l.count) + o.help + "\n"
            }
        }
        return s
    }
}

/// A mistake in how a command was called (exit status 2).
struct UsageError: Error {
    var message: String
}

/// The parsed command line of one command.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var help = false
    /// The `PATH` the command runs with (where `--cmyk` looks for Ghostscript).
    var searchPath: String?

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// Scans arguments against a spec: `--name value`, `--name=value`, `-x value`, flags, `--` to end
/// options, and `-` as a positional (standard input or output).
func parseArguments(_ args: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var i = 0
    var onlyPositionals = false
    func find(_ name: String) throws(UsageError) -> OptionSpec {
        if let o = spec.options.first(where: { $0.name == name }) { return o }
        var message = "unknown option '--\(name)' for 'galley \(spec.name)'"
        if let s = closest(name, spec.options.map(\.name)) { message += "; did you mean '--\(s)'?" }
        throw UsageError(message: message)
    }
    while i < args.count {
        let a = args[i]
        i += 1
        if onlyPositionals || a == "-" || !a.hasPrefix("-") {
            parsed.positionals.append(a)
            continue
        }
        if a == "--" {
            onlyPositionals = true
            continue
        }
        if a == "--help" || a == "-h" {
            parsed.help = true
            continue
        }
        var option: OptionSpec
        var inline: String?
        if a.hasPrefix("--") {
            let body = a.dropFirst(2)
            let name: String
            if let eq = body.firstIndex(of: "=") {
                name = String(body[..<eq])
                inline = String(body[body.index(after: eq)...])
            } else {
                name = String(body)
            }
            option = try find(name)
        } else {
            let c = a.dropFirst().first!
            guard let o = spec.options.first(where: { $0.short == c }) else {
                throw UsageError(message: "unknown option '-\(c)' for 'galley \(spec.name)'")
            }
            option = o
            if a.count > 2 { inline = String(a.dropFirst(2)) }
        }
        if option.value == nil {
            if inline != nil { throw UsageError(message: "option '--\(option.name)' takes no value") }
            parsed.flags.insert(option.name)
            continue
        }
        let value: String
        if let inline {
            value = inline
        } else if i < args.count {
            value = args[i]
            i += 1
            // `-o -q` wrote a PDF named "-q", the option lost: an option's value that is
            // another option is taken only as `--output=-q`.
            if value.hasPrefix("--") && value.count > 2 || value.count == 2 && value.hasPrefix("-") && value.last!.isLetter {
                throw UsageError(
                    message: "option '--\(option.name)' needs a value (\(option.value!)), not the option '\(value)'; "
                        + "for a value beginning with '-', write --\(option.name)=\(value)")
            }
        } else {
            throw UsageError(message: "option '--\(option.name)' needs a value (\(option.value!))")
        }
        if !option.repeats, parsed.values[option.name] != nil {
            throw UsageError(message: "option '--\(option.name)' given twice")
        }
        parsed.values[option.name, default: []].append(value)
    }
    return parsed
}

/// The candidate nearest a misspelt word, if close.
func closest(_ word: String, _ candidates: [String]) -> String? {
    Suggestion.closest(to: word, in: candidates)
}
