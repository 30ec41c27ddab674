import Foundation

extension SniffEvidence {
    /// Refuses a column of account names or cards (`Account Name`, `Card No.`) that holds
    /// several: their rows are several accounts' rows, which only a profile's `accounts` tells
    /// apart, whatever account is given.
    func refuseSeveralAccounts(in dialect: Dialect) throws(DialectSniffer.Refusal) {
        let named: [(column: String?, values: [String: Sample])] = [
            (dialect.columns[.accountName]?.first.map(Self.columnText), accountNames),
            (header.cardColumn?.text, cardTexts),
        ]
        for (column, values) in named where values.count > 1 {
            let example = values.values.min { $0.line < $1.line }
            throw refuse(
                example, .severalAccountsNamed(column: column ?? "", values.values.map(\.text)))
        }
    }

    /// How a column is named in a message: by its header text, or by its number.
    static func columnText(_ reference: Dialect.ColumnReference) -> String {
        switch reference {
        case .name(let name): name
        case .number(let number): "column \(number)"
        }
    }

    /// The national currencies of the IBAN countries; the euro for those not listed.
    static let ibanCurrencies: [String: String] = [
        "CH": "CHF", "LI": "CHF", "GB": "GBP", "GI": "GBP", "SE": "SEK", "DK": "DKK",
        "FO": "DKK", "GL": "DKK", "NO": "NOK", "PL": "PLN", "CZ": "CZK", "HU": "HUF",
        "RO": "RON", "BG": "BGN", "IS": "ISK", "TR": "TRY", "IL": "ILS", "AE": "AED",
        "SA": "SAR", "BR": "BRL", "RS": "RSD", "UA": "UAH", "BA": "BAM", "MK": "MKD",
        "AL": "ALL", "MD": "MDL", "GE": "GEL", "AZ": "AZN", "KZ": "KZT", "JO": "JOD",
        "KW": "KWD", "QA": "QAR", "BH": "BHD", "LB": "LBP", "EG": "EGP", "PK": "PKR",
        "MU": "MUR", "TN": "TND", "MR": "MRU", "GT": "GTQ", "CR": "CRC", "DO": "DOP",
        "BY": "BYN", "IQ": "IQD", "LC": "XCD", "SC": "SCR", "ST": "STN", "TL": "USD",
        "VG": "USD", "SV": "USD", "PS": "ILS", "LY": "LYD", "SD": "SDG", "BI": "BIF",
        "DJ": "DJF", "RU": "RUB", "SO": "SOS", "NI": "NIO", "MN": "MNT", "OM": "OMR",
        "YE": "YER", "HN": "HNL", "FK": "FKP",
    ]

    /// The national currency of the account's IBAN (given, in the account column or in the
    /// preamble): the euro for a country not in `ibanCurrencies`. IBANs are not American,
    /// whatever order their dates are written in.
    func accountCountryCurrency(_ dialect: Dialect) -> Currency? {
        let preamble = header.preamble.lazy.flatMap(\.fields).compactMap(HeaderVocabulary.iban)
        let texts =
            [dialect.accountID?.iban?.electronic].compactMap { $0 }
            + accountTexts.values.map(\.text).filter(Self.isIBANShaped)
            + preamble.prefix(1).map(\.electronic)
        guard let country = texts.first.map({ String($0.prefix(2)).uppercased() }) else {
            return nil
        }
        return Self.ibanCurrencies[country].flatMap { Currency(code: $0) } ?? .eur
    }

    /// The British account that a column of account numbers names on every row as its sort
    /// code and number (`600000-12345678`, `60-00-00 12345678`, as NatWest writes it), with
    /// where it first stands.
    var sortCodeAccount: (id: AccountID, sample: Sample)? {
        guard header.accountNumberColumn != nil, accountNumbers.count == 1,
            let sample = accountNumbers.values.first
        else { return nil }
        let groups = sample.text.trimmingCharacters(in: CharacterSet(charactersIn: "' "))
            .split(whereSeparator: { $0 == "-" || $0 == " " })
        guard groups.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            groups.map(\.count) == [6, 8] || groups.map(\.count) == [2, 2, 2, 8],
            let id = try? AccountID(
                parsing: "sort-code:\(groups.dropLast().joined())/\(groups.last!)")
        else { return nil }
        return (id, sample)
    }

    /// The IBANs of the lines above the header, with where each stands and the text before
    /// it on its line.
    var preambleIBANs: [(iban: IBAN, position: Dialect.PreamblePosition, label: String)] {
        header.preamble.flatMap { line, fields in
            fields.indices.compactMap { index in
                HeaderVocabulary.iban(in: fields[index]).map {
                    (
                        $0, Dialect.PreamblePosition(line: line, field: index + 1),
                        fields[...index].joined(separator: " ").lowercased()
                    )
                }
            }
        }
    }

    /// Words that label another account than the statement's above its header: the
    /// reference account of a savings account, a settlement account.
    static let otherAccountLabels = [
        "referenz", "reference", "gegenkonto", "verrechnung", "settlement", "linked",
        "compte de référence", "tegenrekening", "abrechnungskonto", "abrechnung",
        "compte de prélèvement", "charged to", "debited from", "appoggio", "asociada",
        "auszahlungskonto", "nominated", "associé", "gekoppelde", "bezugskonto",
        "zahlungsverkehrskonto", "verknüpft", "vinculada", "collegato", "referentie",
    ]

    static func isOtherAccountLabel(_ label: String) -> Bool {
        otherAccountLabels.contains { label.contains($0) }
    }

    /// Where the lines above the header name the account: the given account's IBAN where
    /// they name it, else the one IBAN not labelled as another account's; refused when they
    /// name several that nothing tells apart.
    func preambleIBAN(given: AccountID?) throws(DialectSniffer.Refusal)
        -> Dialect.PreamblePosition?
    {
        let ibans = preambleIBANs
        guard Set(ibans.map(\.iban)).count > 1 else {
            // One IBAN labelled as another account's (a card statement's `Abrechnungskonto`,
            // the current account it is settled from) is not the statement's.
            guard let only = ibans.first, !Self.isOtherAccountLabel(only.label) else {
                return nil
            }
            return only.position
        }
        if let given = given?.iban, let named = ibans.first(where: { $0.iban == given }) {
            return named.position
        }
        let own = ibans.filter { !Self.isOtherAccountLabel($0.label) }
        if Set(own.map(\.iban)).count == 1 { return own[0].position }
        let second = ibans.first { $0.iban != ibans[0].iban }!
        throw refuse(
            Sample(
                text: second.iban.electronic, line: second.position.line,
                column: second.position.field),
            .severalPreambleIBANs(ibans.map { $0.iban.electronic }))
    }
}
