import StatementKit

/// A usage error: the command line does not say something the tool understands (exit 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    /// The help text of the command the error concerns.
    let usage: String
}

/// The options and positional arguments of one command line.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private let usage: String

    /// Splits `arguments` by the options the command knows.
    ///
    /// `--name value` and `--name=value` both work; `--` ends the options.
    init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>, usage: String)
        throws(UsageError)
    {
        self.usage = usage
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagOptions.contains(name) {
                guard value == nil else {
                    throw UsageError(description: "--\(name) takes no value", usage: usage)
                }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                if value == nil {
                    guard index < arguments.count else {
                        throw UsageError(description: "--\(name) needs a value", usage: usage)
                    }
                    value = arguments[index]
                    index += 1
                }
                values[name, default: []].append(value!)
            } else {
                throw UsageError(description: "unknown option '\(argument)'", usage: usage)
            }
        }
    }

    /// The PATH arguments of a command that needs at least one.
    func paths(of command: String) throws(UsageError) -> [String] {
        guard !positionals.isEmpty else {
            throw UsageError(description: "\(command) needs at least one PATH", usage: usage)
        }
        return positionals
    }

    /// The statement files of a command's PATH arguments, with their profiles; a profile
    /// that cannot be used (`--profile` or a folder's) is a usage error.
    func statementFiles(of command: String) throws(UsageError) -> StatementFiles {
        let paths = try paths(of: command)
        do {
            return try StatementFiles.find(paths, profile: value("profile"))
        } catch {
            throw UsageError(description: error.description, usage: usage)
        }
    }

    /// Whether a flag such as `--strict` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Every value of an option that may be repeated, in order.
    func values(_ option: String) -> [String] { values[option] ?? [] }

    /// The last value of an option, or `nil` when it was not given.
    func value(_ option: String) -> String? { values[option]?.last }

    /// The value of an option that must be one of an enumeration's raw values.
    func choice<T: RawRepresentable & CaseIterable>(
        _ option: String, default defaultValue: T, usage: String
    ) throws(UsageError) -> T
    where T.RawValue == String {
        guard let text = value(option) else { return defaultValue }
        guard let choice = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(
                description: "--\(option) must be one of \(allowed), not '\(text)'", usage: usage)
        }
        return choice
    }
}
