/// One subcommand of `statements`: its name, help, and what it does.
protocol Command: Sendable {
    /// The name on the command line, such as `validate`.
    static var name: String { get }
    /// One line for the top-level help.
    static var summary: String { get }
    /// The command's help text, printed by `--help` and after a usage error.
    static var usage: String { get }
    /// Runs the command on its arguments (the command name removed).
    ///
    /// - Returns: the exit status: 0, or 1 when the data had errors.
    /// - Throws: `CommandError` for a usage error (exit 2) or an unusable environment (3);
    ///   the root prints it, once.
    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32
}

/// Why a command stopped: the one error the root maps to an exit status.
enum CommandError: Error, Equatable, CustomStringConvertible {
    /// The command line says something the tool does not understand (exit 2).
    case usage(String)
    /// A path, the state folder or the output folder cannot be used (exit 3).
    case environment(String)
    /// The configuration file says something the tool does not understand (exit 2, as a
    /// usage error, without the command's synopsis).
    case configuration(String)

    var description: String {
        switch self {
        case .usage(let message), .environment(let message), .configuration(let message):
            message
        }
    }

    /// The exit status the error gives.
    var exitCode: Int32 {
        switch self {
        case .usage, .configuration: ExitCode.usage
        case .environment: ExitCode.environment
        }
    }
}

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
