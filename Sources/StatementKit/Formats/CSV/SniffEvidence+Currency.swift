/// The account's currency, where no column gives each row's: the header's, the given one,
/// the preamble's, the one the amounts are written in, or the IBAN's country's.
extension SniffEvidence {
    /// Decides the account's currency, saying what it assumed.
    func decideCurrency(
        into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) {
        if dialect.columns[.currency] != nil {
            if let given = dialect.accountCurrency,
                let other = currencies.filter({ $0.key != given.code }).values
                    .min(by: { $0.line < $1.line })
            {
                throw refuse(other, .givenCurrencyDiffersFromColumn(given: given, quoted(other)))
            }
            // `Amount (EUR)` beside a currency column of another currency: the column is
            // another amount's (`Original Amount`), or the header is wrong; either way the
            // file does not say which currency the amounts are in.
            if let named = header.currency,
                let other = currencies.filter({ $0.key != named.code }).values
                    .min(by: { $0.line < $1.line })
            {
                throw refuse(other, .headerCurrencyDiffersFromColumn(header: named, quoted(other)))
            }
            return
        }
        if let currency = header.currency {
            if let given = dialect.accountCurrency, given != currency {
                throw refuse(nil, .givenCurrencyDiffers(given: given, header: currency))
            }
            dialect.accountCurrency = currency
        } else if dialect.accountCurrency != nil {
            return
        } else if let currency = dialect.accountID?.scheme?.currency {
            dialect.accountCurrency = currency
        } else if let found = header.preamble.lazy.compactMap({ line, fields in
            fields.indices.first { Self.isLabelledCurrency(fields, at: $0) }
                .map { Dialect.PreamblePosition(line: line, field: $0 + 1) }
        }).first {
            dialect.preamble[.currency] = found
        } else if let (currency, sample) = preambleCurrencyBesideIBAN {
            dialect.accountCurrency = currency
            assumptions.append(
                Diagnostic.Finding(
                    line: sample.line, column: sample.column,
                    message: .currencyBesideIBAN(currency, quoted(sample))))
        } else {
            // An IBAN's country says its national currency; month-first dates are American,
            // and their exports are in dollars.
            let guess =
                accountCountryCurrency(dialect)
                ?? (dialect.dateFormat.pattern.hasPrefix("M") ? Currency(code: "USD")! : nil)
            if let (currency, example) = try amountsCurrency(guess: guess) {
                dialect.accountCurrency = currency
                assumptions.append(
                    Diagnostic.Finding(
                        line: example.line, column: example.column,
                        message: .assumedCurrencyOfAmounts(currency, example: quoted(example))))
                return
            }
            let currency = guess ?? .eur
            dialect.accountCurrency = currency
            assumptions.append(
                Diagnostic.Finding(
                    line: header.line, column: 1, message: .assumedCurrency(currency)))
        }
    }

    /// The amounts' currency signs and codes that name currencies, with the first amount
    /// that shows each, and the currencies each may stand for.
    private var namedAmountMarkers: [(Sample, Set<String>)] {
        amountMarkers.compactMap { marker in
            CurrencyMarker.currencies(named: marker.text).map { (marker.sample, $0) }
        }
    }

    /// The codes of the currencies that every amount showing a currency (`£12.50`,
    /// `-45,20 PLN`) may be in, with the first such amount; `nil` when none shows one.
    var amountsCodes: (codes: Set<String>, example: Sample)? {
        guard let first = namedAmountMarkers.first else { return nil }
        return (namedAmountMarkers.dropFirst().reduce(first.1) { $0.intersection($1.1) }, first.0)
    }

    /// The currency the amounts are written in, when they show one, with the first amount
    /// that does. A sign of several currencies (`$`, `kr`) is the `guess` (the IBAN's
    /// country's currency, dollars for month-first dates) when it is one of them; else it is
    /// refused, and so are amounts in several currencies without a column to say which.
    private func amountsCurrency(guess: Currency?) throws(DialectSniffer.Refusal)
        -> (Currency, Sample)?
    {
        guard let (codes, example) = amountsCodes else { return nil }
        if codes.count == 1, let currency = Currency(code: codes.first!) {
            return (currency, example)
        }
        if let guess, codes.contains(guess.code) { return (guess, example) }
        guard codes.isEmpty else {
            throw refuse(example, .currencySignAmbiguous(example: quoted(example), codes.sorted()))
        }
        // The first amount whose sign or code cannot stand for the first one's currency.
        let named = namedAmountMarkers
        let other = named.first { $0.1.isDisjoint(with: named[0].1) } ?? named[named.count - 1]
        throw refuse(
            other.0, .amountsInSeveralCurrencies(quoted(example) + " and " + quoted(other.0)))
    }

    /// A currency written after the account's IBAN above the header
    /// (`Konto:;CH9300762011623852957 EUR`), with the field it is in.
    private var preambleCurrencyBesideIBAN: (Currency, Sample)? {
        for (line, fields) in header.preamble where !Self.isOtherAccountLine(fields) {
            for (index, field) in fields.enumerated() {
                let words = field.split(separator: " ")
                guard words.count >= 2, let code = words.last,
                    let currency = Currency(code: String(code)),
                    HeaderVocabulary.iban(in: words.dropLast().joined(separator: " ")) != nil
                else { continue }
                return (currency, Sample(text: field, line: line, column: index + 1))
            }
        }
        return nil
    }

    /// Whether field `index` of a line above the header is a currency's code, in capitals,
    /// right after a label such as `Währung:` or after the account's IBAN, on a line not
    /// about another account: a word such as `All` or `Bob` is no currency.
    static func isLabelledCurrency(_ fields: [String], at index: Int) -> Bool {
        let text = fields[index].trimmingCharacters(in: .whitespaces)
        guard text.utf8.count == 3, text == text.uppercased(), Currency(code: text) != nil else {
            return false
        }
        guard index > 0, !isOtherAccountLine(fields) else { return false }
        return HeaderVocabulary.fields[HeaderVocabulary.normalized(fields[index - 1]).name]
            == .currency || HeaderVocabulary.iban(in: fields[index - 1]) != nil
    }

    /// Whether a line above the header is about another account (`Referenzkonto`).
    static func isOtherAccountLine(_ fields: [String]) -> Bool {
        fields.contains { isOtherAccountLabel($0.lowercased()) }
    }
}
