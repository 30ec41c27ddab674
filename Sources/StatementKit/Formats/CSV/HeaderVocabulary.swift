import Foundation

/// The header texts by which banks name the canonical fields, in the languages of the
/// exports the sniffer knows (English, German, Dutch, French, Spanish, Italian).
enum HeaderVocabulary {
    /// Header texts in normal form (see `normalized`) and the field each names.
    static let fields: [String: Dialect.Field] = {
        var table: [String: Dialect.Field] = [:]
        let words: [(Dialect.Field, [String])] = [
            (
                .date,
                [
                    "date", "booking date", "transaction date", "posting date", "trans. date",
                    "buchungstag", "buchungsdatum", "datum", "date opération", "date operation",
                    "date de l'opération", "date comptable", "fecha", "fecha operación",
                    "fecha operacion", "f. operación", "boekdatum", "transactiedatum",
                    "data", "data operazione", "data contabile", "completed date", "posted date",
                    "dateop", "date op", "bokföringsdag", "bokføringsdato", "dato", "kirjauspäivä",
                    "fecha de operación", "data lançamento", "data mov.", "data movimento",
                    "f. operativa", "dato", "bokføringsdato", "kirjauspäivä",
                ]
            ),
            (
                .amount,
                [
                    "amount", "betrag", "umsatz", "montant", "importe", "bedrag",
                    "transaction amount", "importo", "net", "net amount", "montant operation",
                    "montant opération", "belopp", "beløb", "beløp", "summa", "määrä",
                    "montante", "kwota", "objem", "částka", "valor",
                ]
            ),
            (
                .debit,
                [
                    "debit", "débit", "soll", "debit amount", "paid out", "money out",
                    "withdrawals", "withdrawal", "cargo", "cargos", "ausgang", "dare",
                    "lastschrift", "belastung", "débit euros", "uscite", "addebiti",
                    "ut fra konto", "ut", "débito", "debito",
                ]
            ),
            (
                .credit,
                [
                    "credit", "crédit", "haben", "credit amount", "paid in", "money in",
                    "deposits", "deposit", "abono", "abonos", "eingang", "avere", "gutschrift",
                    "crédit euros", "entrate", "accrediti",
                    "inn på konto", "inn", "crédito", "credito",
                ]
            ),
            (
                .indicator,
                [
                    "af bij", "af/bij", "soll/haben", "s/h", "debit/credit", "credit/debit",
                    "cr/dr", "dr/cr", "d/c", "c/d", "credit debit indicator",
                    "credit/debit indicator", "debit credit indicator", "dbit/crdt", "cdtdbtind",
                    "soll/haben-kennzeichen", "s/h-kennzeichen",
                ]
            ),
            (
                .beneficiary,
                [
                    "beneficiary", "counterparty", "payee", "name", "payee name",
                    "counter party", "other party", "merchant", "auftraggeber/empfänger",
                    "auftraggeber / empfänger", "empfänger", "zahlungsempfänger",
                    "zahlungsempfänger*in", "begünstigter/zahlungspflichtiger",
                    "beguenstigter/zahlungspflichtiger", "name zahlungsbeteiligter",
                    "naam / omschrijving", "naam tegenpartij", "tegenpartij",
                    "bénéficiaire", "beneficiaire", "tiers", "beneficiario",
                    "ordenante/beneficiario", "beneficiario/ordinante", "operazione", "namn",
                    "mottagare", "modtager", "partner name",
                ]
            ),
            (
                .beneficiaryIBAN,
                [
                    "beneficiary iban", "counterparty iban", "iban",
                    "iban zahlungsbeteiligter", "kontonummer/iban", "gegenkonto",
                    "tegenrekening", "tegenrekening iban/bban", "iban tegenpartij",
                    "iban contrepartie", "iban beneficiario", "payee iban", "partner iban",
                ]
            ),
            (
                .description,
                [
                    "description", "verwendungszweck", "omschrijving", "mededelingen",
                    "libellé", "libelle", "libellé opération", "concepto", "descripción",
                    "descripcion", "details", "memo", "transaction details",
                    "transaction description", "narrative", "particulars", "causale",
                    "descrizione", "buchungstext", "avisierungstext", "omschrijving-1",
                    "omschrijving-2", "omschrijving-3", "label", "libelle operation",
                    "libellé opération", "dettagli", "rubrik", "beskrivning", "tekst", "teksti",
                    "text", "vorgang", "beskrivelse", "forklaring", "descrição", "descricao",
                    "opis operacji", "opis transakcji",
                ]
            ),
            (
                .currency,
                [
                    "currency", "währung", "waehrung", "devise", "moneda", "divisa", "munt",
                    "ccy", "valuta",
                ]
            ),
            (
                .reference,
                [
                    "reference", "referenz", "bank reference", "référence", "referencia",
                    "transactiereferentie", "kundenreferenz", "end-to-end-referenz",
                    "mandatsreferenz", "payment reference", "zahlungsreferenz",
                ]
            ),
            (
                // Only names that say the bank's unique id of the booking.
                .transactionID,
                ["transaction id", "transaction_id", "fitid", "transaktions-id", "buchungs-id"]
            ),
            (
                .balance,
                [
                    "balance", "saldo", "kontostand", "solde", "saldo na mutatie",
                    "running balance", "saldo nach buchung", "balance after", "running bal.",
                    "bokfört saldo", "saldo na trn", "saldo na transactie",
                    "balance after transaction", "solde après opération",
                ]
            ),
            (
                .account,
                [
                    "account iban", "account", "konto", "rekening", "iban/bban", "iban rekening",
                    "auftragskonto", "rekeningnummer", "nr v/d rekening", "iban auftragskonto",
                    "iban auftraggeberkonto",
                    "eigene iban", "own account", "compte", "numéro de compte", "cuenta",
                    "konto-nr", "konto-nr.", "kontonr", "rachunek", "numer rachunku",
                ]
            ),
            (.accountName, ["account name", "kontoname"]),
            (
                .status,
                [
                    "status", "state", "buchungsstatus", "umsatzstatus", "stato", "estado",
                    "statut", "contabilizzazione", "info", "transaction status",
                    "booking status", "status transakcji", "pending",
                ]
            ),
        ]
        for (field, names) in words {
            for name in names { table[name] = field }
        }
        for field in Dialect.Field.allCases where field.isCanonicalColumn {
            table[field.rawValue] = field
            table[field.rawValue.replacingOccurrences(of: "_", with: " ")] = field
        }
        table["counterparty_iban"] = .beneficiaryIBAN
        return table
    }()

    /// How banks label a statement's opening and closing balances, in a preamble or footer
    /// line or in a row of their own (`Beginning balance as of 10/01/2026`), in lower case:
    /// a label is matched at the start of a text.
    static let balanceLabels: [(label: String, item: Dialect.PreambleItem)] = [
        ("beginning balance", .openingBalance), ("opening balance", .openingBalance),
        ("alter kontostand", .openingBalance), ("anfangssaldo", .openingBalance),
        ("saldo alt", .openingBalance), ("solde initial", .openingBalance),
        ("saldo inicial", .openingBalance), ("saldo iniziale", .openingBalance),
        ("beginsaldo", .openingBalance), ("startsaldo", .openingBalance),
        ("ancien solde", .openingBalance), ("solde précédent", .openingBalance),
        ("solde precedent", .openingBalance),
        ("saldo anterior", .openingBalance), ("saldo precedente", .openingBalance),
        ("previous balance", .openingBalance), ("balance brought forward", .openingBalance),
        ("brought forward", .openingBalance),
        ("ending balance", .closingBalance), ("closing balance", .closingBalance),
        ("neuer kontostand", .closingBalance), ("endsaldo", .closingBalance),
        ("saldo neu", .closingBalance), ("solde final", .closingBalance),
        ("saldo final", .closingBalance), ("saldo finale", .closingBalance),
        ("eindsaldo", .closingBalance), ("slutsaldo", .closingBalance),
        ("nouveau solde", .closingBalance), ("solde au ", .closingBalance),
        ("kontostand am ", .closingBalance), ("kontostand vom ", .closingBalance),
        ("saldo contabile", .closingBalance), ("saldo al ", .closingBalance),
    ]

    /// How banks label a row of totals (`Summe der Umsätze`, `Total for March 2026`), in
    /// lower case, matched at the start of a row's text: never a booking.
    static let totalLabels = [
        "total for ", "totals for ", "total des ", "total of ", "summe der ", "summe aller",
        "summe soll", "summe haben", "gesamtsumme", "totale movimenti", "total movimientos",
    ]

    /// The balance a text labels, such as `Beginning balance as of …`.
    static func balanceLabel(_ text: String) -> Dialect.PreambleItem? {
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        return balanceLabels.first { lower.hasPrefix($0.label) }?.item
    }

    /// Names of a column that holds which card a row was paid with: several values are several
    /// accounts.
    static let cardNames: Set<String> = [
        "card", "card no.", "card no", "card number", "card #", "kartennummer", "karte",
        "numéro de carte", "carte", "tarjeta", "número de tarjeta", "kaart", "kaartnummer",
    ]

    /// Whether a header has a transaction date and a posting date (`Trans. Date`, `Post
    /// Date`), as card issuers' exports do (and some current accounts').
    static func hasTransactionAndPostDates(_ lower: [String]) -> Bool {
        lower.contains(where: ["trans. date", "transaction date", "trans date"].contains)
            && lower.contains(where: ["post date", "posted date", "posting date"].contains)
    }

    /// Names of the date columns of exports: a file with two (a booking and a value date)
    /// may list its rows by either.
    static let dateNames: Set<String> = [
        "date", "trans. date", "transaction date", "trans date", "post date", "posted date",
        "posting date", "value date", "valuta", "wertstellung", "wertstellung (valuta)",
        "valutadatum", "date de valeur", "date valeur", "fecha valor", "data valuta",
        "booking date", "buchungstag", "buchungsdatum", "belegdatum", "datum", "fecha",
        "data", "date opération", "date d'opération", "fecha operación", "data operazione",
    ]

    /// Names of a column of account numbers that may be the account's own or a
    /// counterparty's (N26's `Account number`), or of the product (Revolut's `Current`,
    /// `Savings`), so it is not taken as the account: it is refused when its values are a
    /// few accounts' whose rows it splits.
    static let accountNumberNames: Set<String> = [
        "account number", "account no", "account no.", "account #", "acct", "acct #",
        "acct no", "kontonummer", "product",
    ]

    /// Names of a column of fees charged beside each amount.
    static let feeNames: Set<String> = [
        "fee", "fees", "gebühr", "gebühren", "entgelt", "frais", "comisión", "comision",
        "commissione", "commissioni", "kosten", "provision", "avgift", "gebyr",
    ]

    /// Names of a column that may say debit or credit, or something else (`Type: Card
    /// payment`): it is taken as the indicator only when its values are a debit/credit pair.
    static let typeNames: Set<String> = [
        "type", "transaction type", "trans type", "entry type", "debit or credit", "typ",
        "buchungsart", "tipo", "sens", "soort", "mutatiesoort", "umsatzart",
    ]

    /// The field a column's normalized header name (`normalized`) says, at its index among
    /// the header's texts. `IBAN` heading the first column is the account's own where no
    /// other column is named as the account: an export of several accounts begins each row
    /// with its account (as ING's `Rekening` does); further right, `IBAN` is the
    /// counterparty's. (`DialectSniffer` also takes it as the counterparty's where an account
    /// is given or the preamble names an IBAN.)
    static func field(named name: String, at index: Int, among texts: [String]) -> Dialect.Field? {
        guard index == 0, name == "iban" else { return fields[name] }
        let namedAccount = texts.dropFirst().contains { fields[normalized($0).name] == .account }
        return namedAccount ? fields[name] : .account
    }

    /// A header text in the form the table holds: lower case, single spaces, without
    /// surrounding spaces, a trailing colon, or a currency such as `(EUR)`, `in CHF`, `€` or
    /// `euros` at the end, which is returned apart.
    static func normalized(_ text: String) -> (name: String, currency: Currency?) {
        // mBank marks each header text with `#` (`#Data operacji`).
        let text = text.hasPrefix("#") ? text.dropFirst() : text[...]
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        while words.last?.hasSuffix(":") == true {
            words[words.count - 1].removeLast()
            if words.last!.isEmpty { words.removeLast() }
        }
        guard words.count > 1, let last = words.last else {
            return (words.joined(separator: " "), nil)
        }
        let code = last.trimmingCharacters(in: CharacterSet(charactersIn: "()[]"))
        let currency =
            ["€", "eur", "euro", "euros"].contains(code)
            ? Currency.eur : Currency(code: code.uppercased())
        guard let currency else { return (words.joined(separator: " "), nil) }
        words.removeLast()
        if words.count > 1 && words.last == "in" { words.removeLast() }
        return (words.joined(separator: " "), currency)
    }

    /// The header that a row's texts make, when they name a date and an amount (signed, or
    /// as debit and credit).
    static func header(
        _ texts: [String], separator: UInt8, line: Int, preamble: [(line: Int, fields: [String])]
    ) -> DialectSniffer.Header? {
        var columns: [Dialect.Field: [Dialect.ColumnReference]] = [:]
        var indices: [Dialect.Field: Int] = [:]
        var currency: Currency?
        var typeColumn: (index: Int, text: String)?
        var otherAmounts: [Dialect.ColumnReference] = []
        let trimmed = texts.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for (index, text) in texts.enumerated() {
            let (name, named) = normalized(text)
            if typeColumn == nil && typeNames.contains(name) {
                typeColumn = (index, text.trimmingCharacters(in: .whitespaces))
            }
            guard let field = field(named: name, at: index, among: texts) else { continue }
            if let named, field == .amount || field == .debit || field == .credit {
                currency = named
            }
            // A name that two columns share (`Divisa` twice) is said by number.
            let reference =
                trimmed.count(where: { $0 == trimmed[index] }) > 1
                ? Dialect.ColumnReference.number(index + 1)
                : .name(text.trimmingCharacters(in: .whitespaces))
            if indices[field] == nil {
                indices[field] = index
                columns[field] = [reference]
            } else if field == .description {
                columns[field]!.append(reference)
            } else if field == .amount {
                // Two columns named as the amount (`Betrag` twice, in two currencies):
                // which one is, only the file's user can say.
                otherAmounts.append(reference)
            }
        }
        let hasAmount =
            indices[.amount] != nil || (indices[.debit] != nil && indices[.credit] != nil)
        guard indices[.date] != nil, hasAmount,
            indices[.beneficiary] != nil || indices[.description] != nil
        else { return nil }
        if indices[.amount] != nil {
            // Debit and credit columns beside an amount column stay, for rows whose amount
            // is blank (`SniffEvidence.decideAmountColumns`) .
            if indices[.debit] == nil || indices[.credit] == nil {
                for field in [Dialect.Field.debit, .credit] {
                    columns[field] = nil
                    indices[field] = nil
                }
            }
        } else {
            columns[.indicator] = nil
            indices[.indicator] = nil
        }
        var header = DialectSniffer.Header(
            separator: separator, line: line, columns: columns,
            indices: indices, currency: currency, preamble: preamble,
            typeColumn: indices[.amount] != nil && indices[.indicator] == nil ? typeColumn : nil)
        header.noteNamedColumns(lower: trimmed, texts: texts)
        if let amount = columns[.amount], !otherAmounts.isEmpty {
            header.openQuestions = SniffResult.OpenQuestions(
                amountColumns: (amount + otherAmounts).map { reference in
                    switch reference {
                    case .name(let name): name
                    case .number(let number): String(number)
                    }
                })
        }
        return header
    }

    /// The IBAN a preamble field holds, alone or after a label such as `IBAN:` or
    /// `Girokonto`, written in electronic form or in groups of four; `nil` where it holds two.
    static func iban(in text: String) -> IBAN? {
        let words = text.split(whereSeparator: { " :,;".contains($0) }).map(String.init)
        var found: IBAN?
        var start = 0
        while start < words.count {
            let end = stride(from: words.count, to: start, by: -1).first { end in
                (try? IBAN(parsing: words[start..<end].joined(separator: " "))) != nil
            }
            guard let end else {
                start += 1
                continue
            }
            let iban = try? IBAN(parsing: words[start..<end].joined(separator: " "))
            // Two accounts on one line (`Konten: DE89…, DE02…`): neither is the file's alone.
            if let found, found != iban { return nil }
            (found, start) = (iban, end)
        }
        return found
    }
}

extension DialectSniffer.Header {
    /// Notes the columns that no field reads but whose names say something of the file: a
    /// card member, a transaction and a posting date, a second date, the card, a fee and
    /// account numbers. `lower` holds the header's texts trimmed and in lower case, `texts`
    /// as written; a column a field reads is no fee or account-number column.
    mutating func noteNamedColumns(lower: [String], texts: [String]) {
        let named = { (index: Int) in (index, texts[index].trimmingCharacters(in: .whitespaces)) }
        let taken = Set(indices.values)
        let free = { (index: Int) in !taken.contains(index) }
        mentionsCard = lower.contains { ["card member", "cardmember"].contains($0) }
        hasTransactionAndPostDates = HeaderVocabulary.hasTransactionAndPostDates(lower)
        otherDateColumn = lower.indices.first {
            HeaderVocabulary.dateNames.contains(lower[$0]) && $0 != indices[.date]
        }
        cardColumn = lower.firstIndex(where: HeaderVocabulary.cardNames.contains).map(named)
        feeColumn = lower.indices.first { HeaderVocabulary.feeNames.contains(lower[$0]) }
            .flatMap { free($0) ? named($0) : nil }
        accountNumberColumn = lower.indices
            .first { HeaderVocabulary.accountNumberNames.contains(lower[$0]) }
            .flatMap { free($0) ? named($0) : nil }
    }
}
