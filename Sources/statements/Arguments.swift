import StatementKit

/// The options and positional arguments of one command line.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The configuration file's values of the options the command knows, below the
    /// command line's.
    private var configured: [String: [String]] = [:]
    private var configuredFlags: Set<String> = []

    /// The short forms of common options, where a command takes the long one.
    static let shortOptions: [Character: String] = [
        "q": "quiet", "v": "verbose", "j": "jobs", "o": "out", "f": "format", "s": "state",
        "a": "account", "p": "profile", "m": "month", "n": "dry-run",
    ]

    /// Flags that may take a value after `=` (`--wait`, `--wait=60`).
    static let optionalValues: Set = ["wait"]
    /// The options every command takes, whatever else it knows.
    static let commonValueOptions: Set = ["color", "config"]
    static let commonFlagOptions: Set = ["no-config"]

    /// Splits `arguments` by the options the command knows.
    ///
    /// `--name value` and `--name=value` both work, and the short forms of `shortOptions`,
    /// bundled as POSIX utilities take them: `-qv` is `-q -v`, and a letter that takes a
    /// value takes the rest of its word or the next argument (`-j4`, `-j 4`, `-nj4`); `--`
    /// ends the options. Any other argument that starts with `-` is an unknown option, not a
    /// path; `-` alone is a path (standard input). Every command takes `--color`, `--config`
    /// and `--no-config`; the configuration file's settings of the options the command knows
    /// come below the command line's (see `Configuration`).
    init(
        _ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>,
        console: Console
    ) throws(CommandError) {
        let valueOptions = valueOptions.union(Self.commonValueOptions)
        let flagOptions = flagOptions.union(Self.commonFlagOptions)
        let known = valueOptions.union(flagOptions).sorted().map { "--" + $0 }
        var arguments = arguments
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if !argument.hasPrefix("--") {
                // `-qv` is `--quiet --verbose`; `-j4` is `--jobs=4`.
                let expanded = try Self.expand(
                    argument, valueOptions: valueOptions, flagOptions: flagOptions, known: known)
                arguments.replaceSubrange((index - 1)..<index, with: expanded)
                index -= 1
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
                if let value, Self.optionalValues.contains(name) {
                    values[name, default: []].append(value)
                } else if value != nil {
                    throw .usage("--\(name) takes no value")
                }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                if value == nil {
                    guard index < arguments.count else {
                        throw .usage("--\(name) needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
                values[name, default: []].append(value!)
            } else {
                throw .usage(
                    "unknown option '\(argument)'"
                        + Suggestion.hint(for: "--" + name, among: known))
            }
        }
        if has("no-config") && value("config") != nil {
            throw .usage("give --config FILE or --no-config, not both")
        }
        if !has("no-config"),
            let path = Configuration.locate(
                given: value("config"), environment: console.environment,
                folder: console.currentDirectory)
        {
            let file = try Configuration(path: path)
            configured = file.values.filter { valueOptions.contains($0.key) }
            configuredFlags = file.flags.intersection(flagOptions)
        }
        _ = try choice("color", default: Output.ColorChoice.auto)
    }

    /// The long options a word of short ones stands for: `-qv` is `--quiet --verbose`, and
    /// the first letter that takes a value ends the word, with the rest as its value
    /// (`-fjson` is `--format=json`) or, when nothing is left, the next argument.
    private static func expand(
        _ word: String, valueOptions: Set<String>, flagOptions: Set<String>, known: [String]
    ) throws(CommandError) -> [String] {
        var letters = word.dropFirst()
        var expanded: [String] = []
        while let letter = letters.first {
            letters = letters.dropFirst()
            guard let long = shortOptions[letter],
                valueOptions.contains(long) || flagOptions.contains(long)
            else {
                let option = "-\(letter)"
                let within = word.count > 2 ? " (in '\(word)')" : ""
                throw .usage(
                    "unknown option '\(option)'\(within)"
                        + Suggestion.hint(for: word.count > 2 ? "-" + word : option, among: known))
            }
            guard valueOptions.contains(long) else {
                expanded.append("--" + long)
                continue
            }
            expanded.append("--" + long + (letters.isEmpty ? "" : "=" + letters))
            break
        }
        return expanded
    }

    /// The PATH arguments of a command that needs at least one.
    func paths(of command: String) throws(CommandError) -> [String] {
        guard !positionals.isEmpty else { throw .usage("\(command) needs at least one PATH") }
        return positionals
    }

    /// Reads the `--currency` option, which only `--account` may carry.
    func accountCurrency() throws(CommandError) -> Currency? {
        guard let text = value("currency") else { return nil }
        guard value("account") != nil else {
            throw .usage("--currency is the currency of the account given with --account")
        }
        guard let currency = Currency(code: text.uppercased()) else {
            throw .usage("--currency \(Diagnostic.quote(text)) is not an ISO 4217 currency code")
        }
        return currency
    }

    /// Reads the value of an `--account` option.
    static func accountID(_ text: String) throws(CommandError) -> AccountID {
        do throws(AccountIDParseError) {
            return try AccountID(parsing: text)
        } catch {
            throw .usage(
                DiagnosticMessage.accountID("--account", Diagnostic.quote(text), error).text)
        }
    }

    /// Requires that no PATH was given, for a command that takes none.
    func expectNoPaths(_ command: String) throws(CommandError) {
        guard positionals.isEmpty else { throw .usage("\(command) takes no PATH") }
    }

    /// Whether a flag such as `--strict` was given, or set by the configuration file.
    func has(_ flag: String) -> Bool { flags.contains(flag) || configuredFlags.contains(flag) }

    /// Every value of an option that may be repeated, in order: the command line's, else
    /// the configuration file's.
    func values(_ option: String) -> [String] { values[option] ?? configured[option] ?? [] }

    /// The last value of an option, or `nil` when it was not given: the command line's, else
    /// the configuration file's.
    func value(_ option: String) -> String? { values(option).last }

    /// The values of an option given on the command line, without the configuration file's:
    /// for an option whose environment variable comes between the two.
    func commandLineValues(_ option: String) -> [String] { values[option] ?? [] }

    /// The configuration file's last value of an option.
    func configuredValue(_ option: String) -> String? { configured[option]?.last }

    /// The value of an option that must be a whole number of at least `minimum`.
    func number(_ option: String, minimum: Int) throws(CommandError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), number >= minimum else {
            let kind = minimum > 0 ? "a positive number" : "a number of 0 or more"
            throw .usage("--\(option) must be \(kind), not '\(text)'")
        }
        return number
    }

    /// The value of an option that must be one of an enumeration's raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ option: String, default defaultValue: T)
        throws(CommandError) -> T
    where T.RawValue == String {
        guard let text = value(option) else { return defaultValue }
        guard let choice = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("--\(option) must be one of \(allowed), not '\(text)'")
        }
        return choice
    }
}
