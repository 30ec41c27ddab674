/// The settings of a configuration file (`.statements.json`): a JSON object of keys and
/// values, each with where it stands, for the command line to check and apply.
package struct ConfigurationFile: Sendable {
    /// A setting's value: a string, a whole number's text, a Boolean or a list of strings.
    package enum Value: Hashable, Sendable {
        case string(String)
        case number(String)
        case bool(Bool)
        case strings([String])
    }

    /// One key of the file, where it stands, and its value.
    package struct Entry: Hashable, Sendable {
        package let key: String
        package let line: Int
        package let column: Int
        package let value: Value
    }

    /// Why a configuration file cannot be used, at a line and column of it.
    package struct Problem: Error, Hashable, Sendable {
        package let line: Int
        package let column: Int
        package let message: String
    }

    /// The keys in the order the file gives them.
    package let entries: [Entry]

    /// Reads the JSON of a configuration file; an empty file (or one of white space only)
    /// has no settings.
    ///
    /// - Throws: `Problem` for invalid JSON, a top level that is not an object, a key given
    ///   twice, or a value that is an object, null, or a list of anything but strings.
    package init(parsing bytes: [UInt8]) throws(Problem) {
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            entries = []
            return
        }
        let root: JSONNode
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw Problem(
                line: error.position.line, column: error.position.column, message: error.message)
        }
        guard case .object(let members) = root.value else {
            throw Problem(
                line: root.position.line, column: root.position.column,
                message: "a configuration file is a JSON object, not \(root.value.kindName)")
        }
        var entries: [Entry] = []
        for member in members {
            let (line, column) = (member.keyPosition.line, member.keyPosition.column)
            if entries.contains(where: { $0.key == member.key }) {
                throw Problem(
                    line: line, column: column, message: "\"\(member.key)\" appears twice")
            }
            entries.append(
                Entry(key: member.key, line: line, column: column, value: try Self.value(member)))
        }
        self.entries = entries
    }

    private static func value(_ member: JSONMember) throws(Problem) -> Value {
        let node = member.node
        let wrong = Problem(
            line: node.position.line, column: node.position.column,
            message:
                "\"\(member.key)\" must be a string, a number, true or false or a list of strings, not \(node.value.kindName)"
        )
        switch node.value {
        case .string(let text): return .string(text)
        case .number(let text): return .number(text)
        case .bool(let value): return .bool(value)
        case .array(let elements):
            var texts: [String] = []
            for element in elements {
                guard case .string(let text) = element.value else { throw wrong }
                texts.append(text)
            }
            return .strings(texts)
        case .object, .null: throw wrong
        }
    }
}
