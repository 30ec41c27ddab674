/// A parsed JSON value that remembers where it stood and keeps numbers as their text.
///
/// Numbers are never converted to `Double`: an amount such as `92233720368547758.07` keeps
/// every digit and is read exactly by `Money(parsing:)`.
enum JSONValue: Hashable, Sendable {
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    /// The number's text exactly as written, such as `-12.34` or `1e400`.
    case number(String)
    case bool(Bool)
    case null

    /// The kind of value, as a message names it.
    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A JSON value and the position where it starts.
struct JSONNode: Hashable, Sendable {
    let value: JSONValue
    let position: SourcePosition
}

/// One key and value of a JSON object.
struct JSONMember: Hashable, Sendable {
    let key: String
    let keyPosition: SourcePosition
    let node: JSONNode
}

/// Why a JSON text could not be parsed.
struct JSONSyntaxError: Error, Hashable, Sendable {
    let position: SourcePosition
    let message: String
    let isTooDeep: Bool
}
