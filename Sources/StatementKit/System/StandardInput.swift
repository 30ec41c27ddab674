import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input (`-` on the command line) as a file: copied once, in chunks, to a file in
/// a private temporary folder, so that the readers read it (again, or in parts) as any other
/// file, with memory flat. The copy carries the extension of the name it is shown by, which
/// decides between CSV and JSON as a file name does; it is removed with this object.
package final class StandardInput: Sendable {
    /// The name standard input is shown by, such as `<stdin>` or `oct.json`.
    let name: String
    /// The path of the copy, or why standard input could not be read.
    let copy: Result<String, FileReadError>

    init(name: String, descriptor: Int32 = STDIN_FILENO) {
        self.name = name
        copy = Self.copy(descriptor, named: name)
    }

    deinit {
        guard case .success(let path) = copy else { return }
        Self.remove(path)
    }

    /// Removes the copy (if it was made) and its private folder.
    private static func remove(_ path: String) {
        unlink(path)
        rmdir(String(path[..<path.lastIndex(of: "/")!]))
    }

    private static func copy(_ input: Int32, named name: String) -> Result<String, FileReadError> {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
        var template = Array("\(base ?? "/tmp")/statements-stdin-XXXXXX".utf8CString)
        guard
            let folder = template.withUnsafeMutableBufferPointer({
                mkdtemp($0.baseAddress!).map { String(cString: $0) }
            })
        else { return .failure(FileReadError(errno: errno)) }
        let fileName = name.split(separator: "/").last.map(String.init) ?? "stdin"
        let path = folder + "/" + (fileName.hasPrefix(".") ? "stdin" : fileName)
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            let error = FileReadError(errno: errno)
            remove(path)
            return .failure(error)
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            var failure: FileReadError?
            if count < 0 {
                failure = FileReadError(errno: errno)
            } else if count == 0 {
                return .success(path)
            } else if let code = buffer.withUnsafeBytes({
                POSIXIO.writeAll(output, UnsafeRawBufferPointer(rebasing: $0.prefix(count)))
            }) {
                failure = FileReadError(errno: code)
            }
            if let failure {
                remove(path)
                return .failure(failure)
            }
        }
    }
}
