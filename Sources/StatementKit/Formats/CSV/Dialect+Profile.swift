/// Why a profile file cannot be used: named with `--profile`, a usage error (exit 2); a
/// folder's own, a `PROFILE_INVALID` diagnostic that rejects the folder's files (exit 1).
package struct ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The profile's path as the user named it.
    package let path: String
    package let message: String
    /// Where in the profile the problem is (1-based); 0 when it concerns the whole file.
    package var line = 0
    package var column = 0
    /// Whether the profile could not be read at all (an environment problem, exit 3).
    package var isUnreadable = false

    package init(path: String, message: String, line: Int = 0, column: Int = 0) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    package var description: String {
        let place = line > 0 ? "line \(line), column \(column): " : ""
        return "profile '\(Diagnostic.sanitized(path))': \(place)\(message)"
    }
}

extension Dialect {
    /// Reads a profile: a JSON object whose keys the README documents.
    ///
    /// - Throws: `ProfileError` for invalid JSON, an unknown key, a value of the wrong type
    ///   or range, or a mapping that cannot describe a statement (no date, no amount, no
    ///   account), at the line and column of the key or value concerned.
    package init(profile bytes: [UInt8], path: String) throws(ProfileError) {
        let root: JSONNode
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw ProfileError(
                path: path, message: error.message, line: error.position.line,
                column: error.position.column)
        }
        let reader = ProfileReader(path: path, root: root)
        self = try reader.dialect(root)
    }
}
