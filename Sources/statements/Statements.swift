import Foundation
import StatementKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@main
struct Statements {
    static let version = "0.1.0"

    /// Every command, in the order the help lists them.
    static let commands: [any Command.Type] = [
        Validate.self, Import.self, Accounts.self, Register.self, Report.self, Export.self,
        Process.self, Undo.self, Forget.self, Profile.self, Check.self, Completions.self,
        Manual.self,
    ]

    /// What the program does, in one line.
    static let tagline = "bank statement files to a validated ledger and monthly statements"

    /// Every command's help, read for completions and the man page.
    static var commandHelp: [CommandHelp] {
        commands.map { CommandHelp(name: $0.name, summary: $0.summary, usage: $0.usage) }
    }

    /// The top-level help, built from the command table.
    static var usage: String {
        let width = commands.map { $0.summaryName.count }.max() ?? 0
        let lines = commands.map { command in
            let name = command.summaryName
            return
                "  \(name)\(String(repeating: " ", count: width - name.count + 3))\(command.summary)"
        }
        return """
            statements \(version): \(tagline).

            USAGE: statements <command> [options]

            COMMANDS:
            \(lines.joined(separator: "\n"))

            Run 'statements <command> --help' for a command's options.
            OPTIONS: -h, --help  show this help;  -V, --version  print the version
            Every command takes --color auto|always|never, and -f json where it prints a
            result (a usage or environment error is then a JSON object on stdout too), and
            --config FILE or --no-config: settings come from the command line, then
            $STATEMENTS_STATE, then the first .statements.json in this folder or a parent (else
            $XDG_CONFIG_HOME/statements/config.json), then the defaults.
            """
    }

    static func main() {
        // A reader that closes the pipe (`| head`) makes writes fail with EPIPE, handled
        // below, instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        let console = Console.standard
        let status = run(Array(CommandLine.arguments.dropFirst()), console: console)
        exit(outputStatus(console, status: status))
    }

    /// The exit status once the output is written: a write to standard output or error that
    /// failed (a full disk, a closed file) is exit 3 with a message on standard error (when
    /// it can still take one); a closed pipe ends the command quietly with its own status.
    static func outputStatus(_ console: Console, status: Int32) -> Int32 {
        let failures = [("standard output", console.output), ("standard error", console.error)]
        for (name, stream) in failures {
            guard let code = stream.writeError, code != EPIPE else { continue }
            var standardError = console.error
            print(
                "statements: error: cannot write \(name): \(String(cString: strerror(code)))",
                to: &standardError)
            return ExitCode.environment
        }
        return status
    }

    /// Runs one command line, writing to `console`, and returns its exit status: the one
    /// place where errors are printed and mapped to exit statuses.
    static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        var standardOutput = console.output
        var standardError = console.error
        guard let name = arguments.first else {
            print(usage, to: &standardError)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "-h", "--help":
            print(usage, to: &standardOutput)
            return ExitCode.success
        case "help" where rest.isEmpty:
            print(usage, to: &standardOutput)
            return ExitCode.success
        case "help":
            // `statements help validate` is `statements validate --help`.
            return run([rest[0], "--help"], console: console)
        case "--version", "-V":
            print("statements \(version)", to: &standardOutput)
            return ExitCode.success
        default:
            guard let command = commands.first(where: { $0.name == name }) else {
                let hint = Suggestion.hint(for: name, among: commands.map { $0.name })
                print(
                    """
                    statements: error: unknown command '\(name)'\(hint)
                    Run 'statements --help' for the list of commands.
                    """, to: &standardError)
                if ErrorDocument.isRequested(by: rest) {
                    let error = CommandError.usage("unknown command '\(name)'\(hint)")
                    print(ErrorDocument.json(error), to: &standardOutput)
                }
                return ExitCode.usage
            }
            if rest.contains("--help") || rest.contains("-h") {
                print(command.usage, to: &standardOutput)
                return ExitCode.success
            }
            do {
                return try command.run(rest, console: console)
            } catch {
                switch error {
                case .usage:
                    // A short usage error: the message, the usage line, where the help is.
                    let synopsis = command.usage.components(separatedBy: "\n\n")[0]
                    print(
                        """
                        statements \(name): error: \(error)
                        \(synopsis)
                        Run 'statements \(name) --help' for its options.
                        """, to: &standardError)
                case .environment, .configuration:
                    print("statements \(name): error: \(error)", to: &standardError)
                }
                if ErrorDocument.isRequested(by: rest) {
                    print(ErrorDocument.json(error), to: &standardOutput)
                }
                return error.exitCode
            }
        }
    }
}

extension Command {
    /// The name with its arguments, as the top-level help lists it.
    static var summaryName: String {
        let words = usage.split(separator: "\n").first?.split(separator: " ") ?? []
        let paths =
            words.contains { $0.hasPrefix("PATH") }
            ? " PATH..." : words.contains("FILE") ? " FILE" : ""
        return name + paths
    }
}
