import StatementKit

/// The options of every command that reads statement files (`validate`, `import`,
/// `process`): which files, in which dialect, how strictly, on how many cores, with how many
/// diagnostics shown.
struct ReadOptions {
    static let valueOptions: Set = [
        "profile", "account", "currency", "jobs", "max-diagnostics", "stdin-name",
    ]
    static let flagOptions: Set = ["strict"]

    /// The help lines of these options, shared by the commands' help texts, after
    /// `--color`, which the commands that read statement files all take.
    static let help = """
          --color auto|always|never  colour diagnostics (default auto: on a terminal,
                                     unless NO_COLOR is set)
          -p, --profile FILE         read every CSV file in this bank dialect (see
                                     'statements profile'); without it, a folder's
                                     statements-profile.json applies, else the dialect
                                     of a non-canonical file is sniffed
          -a, --account ID           the account of CSV files that do not name their
                                     own (an IBAN or scheme:value, such as
                                     aba:021000021/123456789, or the name of an
                                     account in the ledger); the layout is sniffed
          --currency CODE            the currency of that account, where the file
                                     names none (such as USD)
          --strict                   treat warnings as errors
          -j, --jobs N               cores to use (default: all)
          --max-diagnostics N        diagnostics printed per file (default: 100; 0: all);
                                     all are counted
          --stdin-name NAME          the name of standard input ('-') in diagnostics; its
                                     extension (.json, .csv) says the format where the
                                     content does not
        """

    let files: StatementFiles
    var settings = ReadSettings()

    /// Reads the options.
    ///
    /// - Parameter ledger: the state folder of a command that imports, where `--account`
    ///   may also name an account by its name.
    init(_ options: Arguments, command: String, ledger: String? = nil) throws(CommandError) {
        let paths = try options.paths(of: command)
        if paths.count(where: { $0 == "-" }) > 1 {
            throw .usage("standard input ('-') can be read only once")
        }
        let account = try options.value("account").map { (text) throws(CommandError) in
            try Self.account(text, ledger: ledger)
        }
        let currency = try options.accountCurrency()
        do {
            files = try StatementFiles.find(
                paths, profile: options.value("profile"), account: account,
                currency: currency,
                standardInputName: options.value("stdin-name"))
        } catch {
            throw .usage(error.description)
        }
        settings.isStrict = options.has("strict")
        settings.jobs = try options.number("jobs", minimum: 1) ?? settings.jobs
        settings.diagnosticLimit =
            try options.number("max-diagnostics", minimum: 0) ?? settings.diagnosticLimit
        settings.shard = try Self.shard(options)
    }

    /// The account of `--account`: an id, else the name of an account in the ledger.
    private static func account(_ text: String, ledger: String?) throws(CommandError)
        -> AccountID
    {
        do throws(CommandError) {
            return try Arguments.accountID(text)
        } catch {
            guard let ledger,
                let known = try? StateController(
                    storage: StorageController(folder: ledger)
                ).accounts()
            else { throw error }
            if let named = try AccountReference.named(text, among: known) { return named }
            guard AccountReference.looksLikeAnID(text) else {
                throw .usage(
                    "no account named '\(text)' in the ledger at '\(ledger)' (give an id: an IBAN or scheme:value)"
                )
            }
            throw error
        }
    }

    /// The part of `--shard K/N`, if given.
    static func shard(_ options: Arguments) throws(CommandError) -> Shard? {
        guard let text = options.value("shard") else { return nil }
        guard let shard = Shard(parsing: text) else {
            throw .usage(
                "--shard must be a part and a count like 2/4 (1 to \(Shard.maximumCount) parts), not '\(text)'"
            )
        }
        return shard
    }

    /// The help lines of `--shard` for `import` and `process`.
    static let shardHelp = """
          --shard K/N                keep only the accounts of part K of N (by a stable
                                     hash of the account id), for a ledger split over
                                     several state folders; files are still checked whole
        """
}
