import StatementKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output or standard error as a `TextOutputStream`, written with `write(2)`; or a
/// text buffer that stands for one in a test.
struct StandardStream: TextOutputStream {
    static var output: StandardStream { StandardStream(descriptor: STDOUT_FILENO) }
    static var error: StandardStream { StandardStream(descriptor: STDERR_FILENO) }

    let descriptor: Int32
    private let buffer: TextBuffer?

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = nil
    }

    init(buffer: TextBuffer) {
        descriptor = -1
        self.buffer = buffer
    }

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
        var string = string
        // A closed pipe: nothing more can be said, and nothing to say it to.
        _ = string.withUTF8 { POSIXIO.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }
}
