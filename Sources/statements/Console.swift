/// Where a command writes: results to standard output, diagnostics to standard error; or, in
/// tests that run commands in-process, to text buffers.
struct Console {
    let output: StandardStream
    let error: StandardStream

    /// The process's standard output and standard error.
    static let standard = Console(output: .output, error: .error)

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
