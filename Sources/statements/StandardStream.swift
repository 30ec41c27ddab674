#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output or standard error as a `TextOutputStream`, written with `write(2)`.
struct StandardStream: TextOutputStream {
    static var output: StandardStream { StandardStream(descriptor: STDOUT_FILENO) }
    static var error: StandardStream { StandardStream(descriptor: STDERR_FILENO) }

    let descriptor: Int32

    mutating func write(_ string: String) {
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
