import Foundation
import Testing

/// Every option a command takes is in its help and offered by the completions, and every
/// option they offer is one the command takes: probed on the built executable, so that the
/// parser, the help and the completions cannot drift apart.
struct CompletionCoverageTests {
    static let commands = [
        "validate", "import", "accounts", "register", "report", "export", "process", "undo",
        "forget", "profile", "check", "completions", "man",
    ]

    /// Per command, the long and short options the fish completions offer.
    static func offered() throws -> [String: (long: Set<String>, short: Set<String>)] {
        let fish = try StatementsRunner.run(["completions", "fish"]).stdout
        var result: [String: (long: Set<String>, short: Set<String>)] = [:]
        for line in fish.split(separator: "\n") {
            guard
                let match = line.firstMatch(
                    of: /__fish_seen_subcommand_from ([a-z]+)'(?: -s (\w))? -l ([a-z-]+)/)
            else { continue }
            let command = String(match.1)
            result[command, default: ([], [])].long.insert(String(match.3))
            if let short = match.2 {
                result[command, default: ([], [])].short.insert(String(short))
            }
        }
        return result
    }

    /// The long options in the OPTIONS section of a command's help (`--from/--to` is two).
    static func inHelp(_ command: String) throws -> Set<String> {
        let help = try StatementsRunner.run([command, "--help"]).stdout
        let options = help.components(separatedBy: "OPTIONS:")[1]
            .components(separatedBy: "\n\n")[0]
        var names: Set<String> = []
        for line in options.split(separator: "\n") {
            let spec = line.drop { $0 == " " }
            guard spec.hasPrefix("-") else { continue }
            let words = spec.split(separator: "  ", maxSplits: 1)[0]
            for match in words.matches(of: /--([a-z][a-z-]*)/) { names.insert(String(match.1)) }
        }
        return names
    }

    @Test func `the completions offer what each command's help lists, and the common options`()
        throws
    {
        let offered = try Self.offered()
        #expect(Set(offered.keys) == Set(Self.commands))
        for command in Self.commands {
            let help = try Self.inHelp(command)
            #expect(
                offered[command]?.long == help.union(["color", "config", "no-config"]),
                "\(command)")
        }
    }

    /// Runs `statements COMMAND WORD --zz-probe` for each probe in one shell, and returns
    /// whether each was refused with `marker` (its option unknown). A known option is taken
    /// (`--name=x`, `-sx`: with `x` as its value, or as a flag followed by an unknown `-x`)
    /// and the command stops there, at `-x` or `--zz-probe`, without running.
    static func refused(_ probes: [(command: String, word: String, marker: String)]) throws
        -> [Bool]
    {
        let executable = StatementsRunner.executable.path
        let script = probes.map { command, word, _ in
            "\(executable) \(command) '\(word)' --zz-probe 2>&1 </dev/null | head -1 | tr -d '\\n'; echo"
        }.joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(
            decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == probes.count)
        return zip(probes, lines).map { probe, line in line.contains(probe.marker) }
    }

    @Test func `every command takes exactly the options its completions offer`() throws {
        let offered = try Self.offered()
        let longs = Set(offered.values.flatMap(\.long)).subtracting(["help"])
        let shorts = Set(offered.values.flatMap(\.short)).subtracting(["h"])
        var probes: [(command: String, word: String, marker: String)] = []
        for command in Self.commands {
            probes += longs.sorted().map { (command, "--\($0)=x", "unknown option '--\($0)=x'") }
            probes += shorts.sorted().map { (command, "-\($0)x", "unknown option '-\($0)'") }
        }
        var refused: Set<String> = []
        for (probe, isRefused) in zip(probes, try Self.refused(probes)) where isRefused {
            refused.insert(
                probe.command + " " + probe.marker.split(separator: "'")[1].prefix { $0 != "=" })
        }
        for command in Self.commands {
            for long in longs.sorted() {
                let isOffered = offered[command]!.long.contains(long)
                let isRefused = refused.contains("\(command) --\(long)")
                #expect(isOffered != isRefused, "\(command) --\(long): offered \(isOffered)")
            }
            for short in shorts.sorted() {
                let isOffered = offered[command]!.short.contains(short)
                let isRefused = refused.contains("\(command) -\(short)")
                #expect(isOffered != isRefused, "\(command) -\(short): offered \(isOffered)")
            }
        }
    }
}
