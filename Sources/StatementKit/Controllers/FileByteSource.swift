#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file could not be opened or read.
public struct FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operating system's explanation, such as `Permission denied`.
    public let reason: String

    init(errno code: Int32) {
        reason = String(cString: strerror(code))
    }

    init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// Reads a regular file with plain `read(2)` calls, for the streaming parsers.
final class FileByteSource: ByteSource {
    private let descriptor: Int32

    /// Opens a file for reading.
    init(path: String) throws(FileReadError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(errno: errno) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw FileReadError(errno: errno) }
        }
    }

    /// Reads up to `count` bytes from the start of the file, leaving the read position as it is.
    func readHead(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let read = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + total, count - total, off_t(total))
            }
            if read == 0 { break }
            if read < 0 {
                if errno == EINTR { continue }
                throw FileReadError(errno: errno)
            }
            total += read
        }
        return Array(bytes[0..<total])
    }

    /// Reads the whole rest of the file into memory.
    func readAll() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }
}
