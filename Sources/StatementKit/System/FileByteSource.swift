#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file could not be opened or read.
package struct FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operating system's explanation, such as `Permission denied`.
    package let reason: String

    init(errno code: Int32) {
        reason = String(cString: strerror(code))
    }

    init(reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}

/// Reads a regular file, or a range of one, with plain `pread(2)` calls, for the streaming
/// parsers.
final class FileByteSource: ByteSource {
    private let descriptor: Int32
    /// The offset of the next byte to read.
    private var offset: Int
    /// The offset at which the source ends, if before the end of the file.
    private let end: Int
    /// The hash of the bytes read so far, kept while every read went on from where the one
    /// before ended, from the file's start: `nil` when not asked for, or once a read skipped.
    private var hasher: ContentHasher?
    /// How many bytes `hasher` has taken.
    private var hashedCount = 0

    /// Opens a regular file for reading, from `offset` up to `end` (the end of the file by
    /// default). Anything else (a device such as `/dev/zero`, a FIFO, a folder) is refused:
    /// it may never end. With `hashing`, the bytes are hashed as they are read
    /// (`contentHashOfWhole`), so that a file read once is not read again for its hash.
    init(path: String, from offset: Int = 0, to end: Int = .max, hashing: Bool = false)
        throws(FileReadError)
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileReadError(errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileReadError(reason: "not a regular file")
        }
        self.descriptor = descriptor
        self.offset = offset
        self.end = end
        if hashing && offset == 0 && end == .max { hasher = ContentHasher() }
    }

    deinit { close(descriptor) }

    /// The size of the file in bytes.
    func size() throws(FileReadError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileReadError(errno: errno) }
        return Int(status.st_size)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = min(buffer.count, end - offset)
        guard wanted > 0 else { return 0 }
        switch POSIXIO.read(
            descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(wanted)),
            at: offset)
        {
        case .success(let count):
            if hasher != nil {
                if offset == hashedCount {
                    hasher!.feed(UnsafeRawBufferPointer(rebasing: buffer.prefix(count)))
                    hashedCount += count
                } else {
                    hasher = nil
                }
            }
            offset += count
            return count
        case .failure(let error): throw FileReadError(errno: error.code)
        }
    }

    /// The hash of the whole file, leaving the read position as it is: from the bytes hashed
    /// while they were read (`hashing`) and the rest of the file, or from all of them.
    func contentHashOfWhole() throws -> ContentHash {
        guard let hasher else { return try contentHash() }
        return try contentHash(continuing: hasher, from: hashedCount)
    }

    /// The hash of the whole file, leaving the read position as it is.
    func contentHash() throws -> ContentHash {
        try contentHash(continuing: ContentHasher(), from: 0)
    }

    /// `hasher`, which has taken the file's bytes up to `position`, fed the rest.
    private func contentHash(continuing hasher: ContentHasher, from position: Int) throws
        -> ContentHash
    {
        var hasher = hasher
        var position = position
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let result = chunk.withUnsafeMutableBytes {
                POSIXIO.readFully(descriptor, into: $0, at: position)
            }
            switch result {
            case .success(0): return hasher.finish()
            case .success(let count):
                chunk.withUnsafeBytes {
                    hasher.feed(UnsafeRawBufferPointer(rebasing: $0[..<count]))
                }
                position += count
            case .failure(let error): throw FileReadError(errno: error.code)
            }
        }
    }

    /// Reads up to `count` bytes from the start of the file, leaving the read position as it is.
    func readHead(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        switch POSIXIO.readFully(descriptor, into: &bytes, 0..<count, at: 0) {
        case .success(let total): return Array(bytes[0..<total])
        case .failure(let error): throw FileReadError(errno: error.code)
        }
    }

    /// Reads the whole file from an offset into memory, leaving the read position as it is.
    func readAll(from start: Int) throws -> [UInt8] {
        let saved = offset
        defer { offset = saved }
        offset = start
        return try readAll()
    }

    /// Reads the whole rest of the file into memory.
    func readAll() throws -> [UInt8] {
        // The size the file has now, read straight into an array of that size: no array
        // grown and copied on the way, and no spare capacity kept.
        let expected = max(0, min(end, try size()) - offset)
        var bytes = try [UInt8](unsafeUninitializedCapacity: expected) { buffer, filled in
            while filled < expected {
                let rest = UnsafeMutableBufferPointer(rebasing: buffer[filled...])
                let count = try read(into: UnsafeMutableRawBufferPointer(rest))
                if count == 0 { break }
                filled += count
            }
        }
        // A file that grows while it is read: the rest in chunks.
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }
}

extension FileByteSource {
    /// Whether this file holds the same bytes as `other`, compared a piece at a time from
    /// their read positions.
    func hasSameBytes(as other: FileByteSource) throws -> Bool {
        let size = 1 << 16
        let buffers = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * size, alignment: 16)
        defer { buffers.deallocate() }
        let (left, right) = (
            UnsafeMutableRawBufferPointer(rebasing: buffers[..<size]),
            UnsafeMutableRawBufferPointer(rebasing: buffers[size...])
        )
        guard try self.size() == other.size() else { return false }
        while true {
            let count = try fill(left)
            guard try other.fill(right) == count,
                memcmp(left.baseAddress!, right.baseAddress!, count) == 0
            else { return false }
            if count < size { return true }
        }
    }

    /// Reads until the buffer is full or the file ends; how many bytes it holds.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var count = 0
        while count < buffer.count {
            let read = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            if read == 0 { break }
            count += read
        }
        return count
    }
}
