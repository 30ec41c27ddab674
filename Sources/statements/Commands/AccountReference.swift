import StatementKit

/// An `--account` value that names an account of the ledger: its id (an IBAN or
/// scheme:value) or its name (`-a Household`).
enum AccountReference {
    /// The account `text` names among a ledger's accounts.
    ///
    /// An id of one of the accounts wins; else a name, matched exactly, else ignoring case.
    /// - Parameter ledger: how the message names the ledger, such as `'ledger'`.
    /// - Throws: a usage error saying that no account has that id or name, or that the name
    ///   is shared by several accounts.
    static func resolve(_ text: String, among accounts: [Account], ledger: String)
        throws(CommandError) -> AccountID
    {
        let id = try? AccountID(parsing: text)
        if let id, accounts.contains(where: { $0.id == id }) { return id }
        if let named = try named(text, among: accounts) { return named }
        if id != nil || !looksLikeAnID(text) {
            let what = id.map { "no account \($0.text)" } ?? "no account named '\(text)'"
            throw .usage(
                "\(what) in the ledger at \(ledger) ('statements accounts' lists them)")
        }
        // Neither an account's name nor an id: say what is wrong with it as an id.
        _ = try Arguments.accountID(text)
        throw .usage("no account \(text) in the ledger at \(ledger)")
    }

    /// The id of the one account named `text`, matched exactly, else ignoring case.
    static func named(_ text: String, among accounts: [Account]) throws(CommandError)
        -> AccountID?
    {
        var named = accounts.filter { $0.name == text }
        if named.isEmpty {
            named = accounts.filter { $0.name?.lowercased() == text.lowercased() }
        }
        guard named.count < 2 else {
            let ids = named.map(\.id.text).joined(separator: ", ")
            throw .usage(
                "\(named.count) accounts are named '\(text)' (\(ids)): give the account's id")
        }
        return named.first?.id
    }

    /// Whether `text` reads as an attempt at an id rather than a name: a scheme (`aba:…`),
    /// or an IBAN's country code and check digits (`DE89…`).
    static func looksLikeAnID(_ text: String) -> Bool {
        let characters = Array(text.filter { $0 != " " }.prefix(4))
        if text.contains(":") { return true }
        return characters.count == 4 && characters[0...1].allSatisfy(\.isLetter)
            && characters[2...3].allSatisfy(\.isNumber)
    }
}
