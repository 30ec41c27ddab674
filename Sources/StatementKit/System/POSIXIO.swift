#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reads and writes of the whole tool, with their retries after interruptions (`EINTR`)
/// and short transfers in one place.
package enum POSIXIO {
    /// Writes every byte to a descriptor at its current offset.
    ///
    /// - Returns: `nil` when all was written, else the `errno` of the failure (`EIO` when the
    ///   descriptor took nothing without saying why).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        transferAll(bytes) { start, count, _ in write(descriptor, start, count) }
    }

    /// Writes every byte of an array to a descriptor at its current offset (see above).
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    }

    /// Writes a text's UTF-8 to a descriptor at its current offset (see above).
    package static func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// Writes every byte of an array at a file offset (see below).
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int) -> Int32? {
        bytes.withUnsafeBytes { writeAll(descriptor, $0, at: offset) }
    }

    /// Writes every byte at a file offset with `pwrite`, leaving the descriptor's own offset
    /// alone (so no `lseek` is needed first).
    ///
    /// - Returns: `nil` when all was written, else the `errno` of the failure.
    package static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int
    ) -> Int32? {
        transferAll(bytes) { start, count, written in
            pwrite(descriptor, start, count, off_t(offset + written))
        }
    }

    /// Calls `transfer` with the bytes not yet written and how many were, until all are,
    /// retrying after an interruption; returns `nil`, or the `errno` of the failure (`EIO` when
    /// the descriptor took nothing without saying why).
    private static func transferAll(
        _ bytes: UnsafeRawBufferPointer,
        _ transfer: (_ start: UnsafeRawPointer, _ count: Int, _ written: Int) -> Int
    ) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = transfer(bytes.baseAddress! + written, bytes.count - written, written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EIO }
            written += count
        }
        return nil
    }

    /// Reads up to `buffer.count` bytes from a file offset with one `pread` (retried when
    /// interrupted): the count read, 0 at the end of the file, or the `errno` of the failure.
    package static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
    ) -> Result<Int, POSIXErrno> {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if count >= 0 { return .success(count) }
            if errno != EINTR { return .failure(POSIXErrno(code: errno)) }
        }
    }

    /// Fills `buffer` from a file offset, reading until it is full or the file ends: the count
    /// read, or the `errno` of the failure.
    package static func readFully(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
    ) -> Result<Int, POSIXErrno> {
        var total = 0
        while total < buffer.count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[total...])
            switch read(descriptor, into: rest, at: offset + total) {
            case .success(0): return .success(total)
            case .success(let count): total += count
            case .failure(let error): return .failure(error)
            }
        }
        return .success(total)
    }

    /// Fills `bytes[range]` from a file offset, as `readFully(_:into:at:)` does.
    package static func readFully(
        _ descriptor: Int32, into bytes: inout [UInt8], _ range: Range<Int>, at offset: Int
    ) -> Result<Int, POSIXErrno> {
        bytes.withUnsafeMutableBytes {
            readFully(
                descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[range]), at: offset)
        }
    }

    /// Copies every byte of one file to another descriptor, a megabyte at a time, and syncs
    /// the copy: `nil`, or the `errno` of the first failure.
    static func copyAll(from source: Int32, to target: Int32) -> POSIXErrno? {
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while true {
            switch read(source, into: buffer, at: offset) {
            case .failure(let error): return error
            case .success(0): return fsync(target) == 0 ? nil : POSIXErrno(code: errno)
            case .success(let count):
                if let code = writeAll(target, UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                    return POSIXErrno(code: code)
                }
                offset += count
            }
        }
    }
}

/// The step of a file write that failed (`create`, `write`, `sync`, `replace`), the file it
/// failed on, and why.
package struct WriteFailure: Error, Hashable, Sendable {
    package let operation: String
    package let path: String
    package let error: POSIXErrno
}

extension POSIXIO {
    /// Creates a file at `path` (replacing one there, unless `exclusive`: then one there is
    /// a failure), writes `bytes` into it and syncs it: `nil`, or the step that failed.
    static func writeSynced(_ bytes: [UInt8], to path: String, exclusive: Bool = false)
        -> WriteFailure?
    {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (exclusive ? O_EXCL : O_TRUNC)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            return WriteFailure(operation: "create", path: path, error: POSIXErrno(code: errno))
        }
        defer { close(descriptor) }
        if let code = writeAll(descriptor, bytes) {
            return WriteFailure(operation: "write", path: path, error: POSIXErrno(code: code))
        }
        guard fsync(descriptor) == 0 else {
            return WriteFailure(operation: "sync", path: path, error: POSIXErrno(code: errno))
        }
        return nil
    }

    /// Replaces the file at `path` whole or not at all: `bytes` are written and synced into
    /// `temporary` (a file left there by a killed run is removed first), which is then
    /// renamed over `path`; on a failure the temporary is removed. The caller syncs the
    /// folder when the rename is to last.
    static func replaceSynced(_ path: String, with bytes: [UInt8], through temporary: String)
        -> WriteFailure?
    {
        _ = unlink(temporary)
        var failure = writeSynced(bytes, to: temporary, exclusive: true)
        if failure == nil, rename(temporary, path) != 0 {
            failure = WriteFailure(operation: "replace", path: path, error: POSIXErrno(code: errno))
        }
        if failure != nil { _ = unlink(temporary) }
        return failure
    }

    /// Creates a folder and any missing folders above it, as `mkdir -p` does: `nil`, or the
    /// `errno` of the failure (such as "Not a directory" when a file stands in the way).
    package static func makeFolders(_ path: String) -> POSIXErrno? {
        var info = stat()
        if stat(path, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : POSIXErrno(code: ENOTDIR)
        }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            if let error = makeFolders(String(path[..<slash])) { return error }
        }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { return POSIXErrno(code: errno) }
        return nil
    }

    /// The hidden names in a folder (starting with `.`, other than `.` and `..`); none when
    /// it cannot be read. A string is made of those alone: a month of reports at a bank's
    /// scale holds 283,351 files, and listing them all as strings took 0.15–0.8 s.
    static func hiddenNames(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { name -> String? in
                    guard name[0] == 0x2E, strcmp(name, ".") != 0, strcmp(name, "..") != 0
                    else { return nil }
                    return String(cString: name)
                }
            }
            if let name { names.append(name) }
        }
        return names
    }
}

extension POSIXIO {
    /// What a file holds, compared with bytes to write.
    enum Comparison {
        /// Exactly the bytes.
        case same
        /// Something else, or something that cannot be read.
        case differs
        /// No file by that name.
        case missing
    }

    /// Whether the file at `path` holds exactly `bytes`: its size first (one `fstat`), then
    /// its content.
    static func compare(_ bytes: [UInt8], toFileAt path: String) -> Comparison {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? .missing : .differs }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            Int(info.st_size) == bytes.count
        else { return .differs }
        // Read and compared a piece at a time, into one buffer on the stack.
        return withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 16) { buffer in
            bytes.withUnsafeBytes { expected in
                var offset = 0
                while offset < expected.count {
                    let piece = UnsafeMutableRawBufferPointer(
                        rebasing: buffer[..<min(buffer.count, expected.count - offset)])
                    guard
                        (try? readFully(descriptor, into: piece, at: offset).get()) == piece.count,
                        memcmp(piece.baseAddress!, expected.baseAddress! + offset, piece.count) == 0
                    else { return .differs }
                    offset += piece.count
                }
                return .same
            }
        }
    }

    /// What `create(_:at:in:)` did.
    enum Creation: Equatable {
        case created
        /// The name is taken; the file written is dropped.
        case exists
        /// The file system has no unnamed files; nothing was written.
        case unsupported
        case failed(POSIXErrno)
    }

    /// Creates the file `path` in `folder` holding `bytes`, whole from the moment its name
    /// appears: written as an unnamed file of the folder (`O_TMPFILE`), then given its name
    /// (`linkat`). One name made and no name removed, where a file written beside and renamed
    /// costs two of each.
    static func create(_ bytes: [UInt8], at path: String, in folder: String) -> Creation {
        #if os(Linux)
            // `O_TMPFILE` is `__O_TMPFILE | O_DIRECTORY`; Swift sees neither macro's value.
            let descriptor = open(folder, 0o20_000_000 | O_DIRECTORY | O_WRONLY | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                return [EISDIR, EOPNOTSUPP, EINVAL].contains(errno)
                    ? .unsupported : .failed(POSIXErrno(code: errno))
            }
            defer { close(descriptor) }
            if let code = bytes.withUnsafeBytes({ writeAll(descriptor, $0) }) {
                return .failed(POSIXErrno(code: code))
            }
            guard
                linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW)
                    == 0
            else {
                switch errno {
                case EEXIST: return .exists
                case ENOENT where access("/proc/self/fd", F_OK) != 0: return .unsupported
                case let code: return .failed(POSIXErrno(code: code))
                }
            }
            return .created
        #else
            return .unsupported
        #endif
    }

    /// The stamp of a regular file, following symbolic links; `nil` when there is none.
    static func stamp(of path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStamp(info)
    }

    /// The absolute path of a file without symbolic links or `.` and `..`; `nil` when it
    /// cannot be resolved.
    static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The time now in nanoseconds since 1970, as file times are kept.
    static func nanosecondsNow() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

extension FileStamp {
    /// The stamp of what `stat(2)` or `fstat(2)` gave.
    init(_ info: stat) {
        self.init(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
            inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }
}

/// A system call's `errno`.
package struct POSIXErrno: Error, Hashable, Sendable, CustomStringConvertible {
    package let code: Int32

    /// The system's explanation, such as `Permission denied`.
    package var description: String { String(cString: strerror(code)) }
}
