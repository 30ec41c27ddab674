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

    mutating func write(_ string: String) {
        if let buffer {
            buffer.text += string
            return
        }
        var string = string
        string.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(
                    descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }  // a closed pipe: nothing more can be said
                offset += written
            }
        }
    }
}
