#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The exit statuses of every command.
enum ExitCode {
    static let success: Int32 = 0
    /// The data had errors.
    static let dataError: Int32 = 1
    /// The command line was wrong.
    static let usage: Int32 = 2
    /// A path could not be read or written.
    static let environment: Int32 = 3
}

@main
struct Statements {
    static let version = "0.1.0"

    static let usage = """
        statements \(version): bank statement files to a validated ledger and monthly statements.

        USAGE: statements <command> [options]

        COMMANDS:
          validate PATH...   check statement files and folders, like a compiler
          import PATH...     add new transactions to the ledger, each exactly once
          accounts           list the ledger's accounts and balances
          report             write monthly statements as text, CSV and HTML
          process PATH...    the nightly job: import, then report the months that changed
          profile FILE       work out a bank export's dialect and print it as a profile
          check              verify the ledger against its checksums

        Run 'statements <command> --help' for a command's options.
        OPTIONS: -h, --help  show this help;  --version  print the version
        """

    static func main() {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs one command line and returns its exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var standardError = StandardStream.error
        guard let command = arguments.first else {
            print(usage, to: &standardError)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        let commands: [String: (help: String, run: ([String]) throws(UsageError) -> Int32)] = [
            "validate": (Validate.usage, Validate.run),
            "import": (Import.usage, Import.run),
            "accounts": (Accounts.usage, Accounts.run),
            "report": (Report.usage, Report.run),
            "process": (Process.usage, Process.run),
            "profile": (Profile.usage, Profile.run),
            "check": (Check.usage, Check.run),
        ]
        switch command {
        case "-h", "--help", "help":
            var standardOutput = StandardStream.output
            print(usage, to: &standardOutput)
            return ExitCode.success
        case "--version":
            var standardOutput = StandardStream.output
            print("statements \(version)", to: &standardOutput)
            return ExitCode.success
        default:
            guard let entry = commands[command] else {
                print(
                    "statements: error: unknown command '\(command)'\n\n\(usage)",
                    to: &standardError)
                return ExitCode.usage
            }
            if rest.contains("--help") || rest.contains("-h") {
                var standardOutput = StandardStream.output
                print(entry.help, to: &standardOutput)
                return ExitCode.success
            }
            do {
                return try entry.run(rest)
            } catch {
                print(
                    "statements \(command): error: \(error)\n\n\(error.usage)", to: &standardError)
                return ExitCode.usage
            }
        }
    }
}
