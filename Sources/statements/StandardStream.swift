import StatementKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output or standard error as a `TextOutputStream`, written with `write(2)`; or a
/// text buffer that stands for one in a test.
///
/// A write that fails is remembered (every copy of the stream shares the record) and the
/// stream writes nothing more: the root then ends the command with exit 3, or quietly when
/// the reader closed the pipe.
struct StandardStream: TextOutputStream {
    static var output: StandardStream { StandardStream(descriptor: STDOUT_FILENO) }
    static var error: StandardStream { StandardStream(descriptor: STDERR_FILENO) }

    let descriptor: Int32
    private let buffer: TextBuffer?
    private let failure = WriteFailure()

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = nil
    }

    init(buffer: TextBuffer) {
        descriptor = -1
        self.buffer = buffer
    }

    /// The `errno` of the first write that failed, if one did.
    var writeError: Int32? { failure.code }

    /// The width of the terminal the stream writes to (80 when it cannot tell).
    var columns: Int {
        var size = winsize()
        guard buffer == nil, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0
        else { return 80 }
        return Int(size.ws_col)
    }

    mutating func write(_ string: String) {
        if let buffer {
            buffer.text += string
            return
        }
        guard failure.code == nil else { return }
        failure.code = POSIXIO.writeAll(descriptor, string)
    }
}

/// The first failed write of a standard stream, shared by its copies.
private final class WriteFailure: @unchecked Sendable {
    var code: Int32?
}
