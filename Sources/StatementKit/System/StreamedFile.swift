#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written in pieces that appears whole or not at all: the bytes go to
/// `.NAME.PID.statements-tmp` beside it, renamed over it by `commit` (a reader never sees half
/// an export); `discard` removes them.
package final class StreamedFile {
    package let path: String
    private let temporary: String
    private var descriptor: Int32

    /// Creates the temporary file beside `path`.
    ///
    /// - Throws: `StorageError.io` when it cannot be created.
    package init(path: String) throws(StorageError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporary = "\(folder).\(name).\(getpid()).statements-tmp"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw .io(path: path, operation: "write", reason: String(cString: strerror(errno)))
        }
    }

    deinit { discard() }

    /// Appends bytes.
    package func write(_ bytes: [UInt8]) throws(StorageError) {
        if let code = POSIXIO.writeAll(descriptor, bytes) {
            discard()
            throw .io(path: path, operation: "write", reason: POSIXErrno(code: code).description)
        }
    }

    /// Gives the file its name, replacing any file there.
    package func commit() throws(StorageError) {
        let failed = close(descriptor) != 0 || rename(temporary, path) != 0
        descriptor = -1
        if failed {
            let reason = String(cString: strerror(errno))
            _ = unlink(temporary)
            throw .io(path: path, operation: "write", reason: reason)
        }
    }

    /// Removes what was written, when the file was not committed.
    package func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        _ = unlink(temporary)
    }
}
