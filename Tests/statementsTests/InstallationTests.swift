import Foundation
import Testing

/// Shell completions and the man page, generated from the commands' help.
@Suite struct InstallationTests {
    static let commands = [
        "validate", "import", "accounts", "report", "process", "profile", "check", "register",
        "export", "undo", "completions", "man",
    ]

    /// Runs bash with the generated completions loaded, completing `words` at the last one.
    static func complete(_ words: [String]) throws -> [String] {
        let script = try StatementsRunner.run(["completions", "bash"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "completion-\(UUID().uuidString).bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c",
            "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _statements; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ]
        process.currentDirectoryURL = StatementsRunner.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func `completes commands, options and their values in bash`() throws {
        #expect(try Self.complete(["statements", "val"]) == ["validate"])
        #expect(try Self.complete(["statements", "re"]) == ["register", "report"])
        #expect(try Self.complete(["statements", "validate", "--str"]) == ["--strict"])
        #expect(
            try Self.complete(["statements", "validate", "-f", ""]) == ["text", "json", "github"])
        #expect(
            try Self.complete(["statements", "process", "--report-format", ""])
                == ["text", "csv", "html"])
        #expect(
            try Self.complete(["statements", "import", "--color", "a"]) == ["auto", "always"])
        #expect(
            try Self.complete(["statements", "validate", "SampleData/go"]) == ["SampleData/good"])
        #expect(try Self.complete(["statements", "completions", ""]).isEmpty)
        #expect(
            try Self.complete(["statements", "export", "-f", ""])
                == ["hledger", "ledger", "beancount"])
    }

    @Test func `writes zsh and fish completions with every command's options`() throws {
        let zsh = try StatementsRunner.run(["completions", "zsh"])
        #expect(zsh.status == 0)
        #expect(zsh.stdout.hasPrefix("#compdef statements\n"))
        #expect(
            zsh.stdout.contains(
                "'(-f --format)'{-f,--format}'[text  diagnostics on stderr, summary on stdout (default)]:FORMAT:(text json github)'"
            ))
        #expect(zsh.stdout.contains("'(-s --state)'{-s,--state}'[the ledger folder"))
        let fish = try StatementsRunner.run(["completions", "fish"])
        #expect(
            fish.stdout.contains(
                "complete -c statements -n '__fish_seen_subcommand_from validate' -s f -l format -x -a 'text json github'"
            ))
        for command in Self.commands {
            #expect(zsh.stdout.contains("'\(command):"), "\(command)")
            #expect(fish.stdout.contains("-a \(command) -d"), "\(command)")
        }
        let bad = try StatementsRunner.run(["completions", "tcsh"])
        #expect(bad.status == 2)
        #expect(
            bad.stderr.hasPrefix("statements completions: error: give one shell: bash, zsh or fish")
        )
    }

    @Test func `accepts every option its help lists`() throws {
        for command in Self.commands {
            let help = try StatementsRunner.run([command, "--help"]).stdout
            let options = help.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.drop { $0 == " " }
                guard trimmed.hasPrefix("-") else { return nil }
                let spec = trimmed.prefix { $0 != " " || false }
                // `--wait[=SECONDS]` is given as `--wait`.
                return spec.hasSuffix(",")
                    ? String(trimmed.split(separator: " ")[1])
                    : String(spec.split(separator: "/")[0].prefix { $0 != "[" })
            }
            #expect(!options.isEmpty, "\(command)")
            for option in options where option != "--help" {
                let result = try StatementsRunner.run([command, option])
                #expect(!result.stderr.contains("unknown option"), "\(command) \(option)")
            }
        }
    }

    @Test func `writes a man page that groff renders without warnings`() throws {
        let page = try StatementsRunner.run(["man"])
        #expect(page.status == 0)
        #expect(
            page.stdout.hasPrefix(".TH STATEMENTS 1 \"\" \"statements 0.1.0\" \"User Commands\"\n"))
        for command in Self.commands {
            #expect(page.stdout.contains(".SH \"STATEMENTS \(command.uppercased())\"\n"))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "statements-\(UUID().uuidString).1")
        try page.stdout.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = ["-man", "-Tutf8", "-ww", file.path]
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = String(
            decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(warnings == "")
        #expect(text.contains("--max-diagnostics N"))
        #expect(text.contains("STATEMENTS_STATE"))
    }
}
