import Foundation

/// Where a command writes: results to standard output, diagnostics to standard error; or, in
/// tests that run commands in-process, to text buffers.
struct Console {
    let output: StandardStream
    let error: StandardStream
    /// Whether standard error is a terminal: progress and colour are drawn only there.
    var errorIsTerminal = false
    /// The environment (`NO_COLOR`, `TERM`, `STATEMENTS_STATE`).
    var environment: [String: String] = [:]
    /// The folder a configuration file is looked for from (`nil`: none is looked for).
    var currentDirectory: String?

    /// The process's standard output and standard error.
    static var standard: Console {
        Console(
            output: .output, error: .error, errorIsTerminal: isatty(STDERR_FILENO) == 1,
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// A console that keeps what is written, for tests.
    static func capturing() -> (console: Console, output: TextBuffer, error: TextBuffer) {
        let (output, error) = (TextBuffer(), TextBuffer())
        return (
            Console(output: StandardStream(buffer: output), error: StandardStream(buffer: error)),
            output, error
        )
    }
}

/// Text written to a captured stream.
final class TextBuffer: @unchecked Sendable {
    var text = ""
}
