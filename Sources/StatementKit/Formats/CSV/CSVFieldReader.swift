/// Reads the fields of one CSV record into model values, reporting each problem.
struct CSVFieldReader {
    let record: CSVRecord
    var diagnostics: DiagnosticCollector
    private(set) var isValid = true

    /// Whether text fields become `String`s; when not, a valid required text reads as "".
    let buildsText: Bool
    /// The amount layout of a dialect; `nil` for the canonical one.
    let amountFormat: AmountFormat?
    /// The ids of the accounts the account column names, when the profile maps them.
    let accountsByName: [String: AccountID]?

    init(
        record: CSVRecord, diagnostics: DiagnosticCollector, buildsText: Bool,
        amountFormat: AmountFormat?, accountsByName: [String: AccountID]? = nil
    ) {
        self.record = record
        self.diagnostics = diagnostics
        self.buildsText = buildsText
        self.amountFormat = amountFormat
        self.accountsByName = accountsByName
    }

    mutating func report(_ message: DiagnosticMessage, at field: Int) {
        let place = record.place(
            ofOffset: record.offset(ofField: field), scanned: &diagnostics.locationWork)
        diagnostics.report(message, line: place.line, column: place.column)
        if message.code.defaultSeverity == .error || diagnostics.isStrict { isValid = false }
    }

    /// The field's text, quoted for a message.
    private func quoted(_ field: Int) -> String {
        record.withField(field) { $0.withSpan { Diagnostic.quote(bytes: $0) } }
    }

    /// Runs a byte parser over a field, keeping its typed error.
    private func parse<T, E: Error>(
        _ field: Int, _ parser: (UnsafeRawBufferPointer) throws(E) -> T
    ) -> Result<T, E> {
        record.withField(field) { bytes in Result { () throws(E) in try parser(bytes) } }
    }

    private func isBlank(_ field: Int) -> Bool {
        record.withField(field) {
            $0.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        }
    }

    /// Reads a date in a dialect's layout, or the canonical one when `format` is `nil`.
    mutating func day(_ field: Int, _ name: String, format dateFormat: DateFormat?) -> Day? {
        let result = parse(field) { (bytes) throws(DayError) in
            guard let format = dateFormat else {
                return try bytes.withSpan { (bytes) throws(DayError) in try Day(parsing: bytes) }
            }
            return try bytes.trimmingSpaces.withSpan { (bytes) throws(DayError) in
                try format.day(parsing: bytes)
            }
        }
        switch result {
        case .success(let day): return day
        case .failure(let error):
            report(
                isBlank(field)
                    ? .required(name) : .date(name, quoted(field), error, format: dateFormat),
                at: field)
            return nil
        }
    }

    /// The currency of a row: its cell, or `fallback` when the cell is blank; `nil` when the
    /// cell names no active currency or is blank without fallback (reported).
    mutating func currency(_ field: Int, _ name: String, default fallback: Currency?)
        -> Currency?
    {
        guard !isBlank(field) else {
            if fallback == nil {
                report(.blankCurrencyWithoutDefault(name), at: field)
            }
            return fallback
        }
        if let currency = record.withField(field, { $0.withSpan { Currency(codeBytes: $0) } }) {
            return currency
        }
        report(.currency(name, quoted(field)), at: field)
        return nil
    }

    mutating func money(_ field: Int, _ name: String, currency: Currency) -> Money? {
        // A local, so that the closure does not capture (and copy) the whole record.
        let amountFormat = amountFormat
        let result = parse(field) { (bytes) throws(AmountError) in
            try bytes.withSpan { (bytes) throws(AmountError) in
                guard let format = amountFormat else {
                    return try Money(parsing: bytes, currency: currency)
                }
                return try format.money(parsing: bytes, currency: currency)
            }
        }
        switch result {
        case .success(let money): return money
        case .failure(let error):
            report(
                .amount(
                    name, quoted(field), error, currency: currency,
                    example: amountFormat?.example), at: field)
            return nil
        }
    }

    /// Reads an amount split into a debit and a credit column, one of them filled (a zero in
    /// the other is allowed), or either or both when `bothFilled` (the amount is then credit
    /// less debit). Signs in either column are ignored: a debit always takes money out.
    mutating func debitCredit(
        _ debitField: Int, _ creditField: Int, currency: Currency, bothFilled: Bool = false
    ) -> Money? {
        guard !isBlank(debitField) || !isBlank(creditField) else {
            report(.debitOrCreditRequired, at: debitField)
            return nil
        }
        let debit = optionalMoney(debitField, "debit", currency: currency)
        let credit = optionalMoney(creditField, "credit", currency: currency)
        guard isValid else { return nil }
        let out = debit?.minorUnits.magnitude ?? 0
        let into = credit?.minorUnits.magnitude ?? 0
        if bothFilled {
            // Each magnitude fits in Int64 as the amounts were read; their difference too.
            return Money(minorUnits: Int64(into) - Int64(out), currency: currency)
        }
        guard out == 0 || into == 0 else {
            report(.debitAndCredit, at: creditField)
            return nil
        }
        return Money(minorUnits: into > 0 ? Int64(into) : -Int64(out), currency: currency)
    }

    /// Reads an unsigned amount whose sign an indicator column gives, such as `D`/`C`.
    mutating func indicated(
        _ amountField: Int, _ indicatorField: Int, currency: Currency, debit: [[UInt8]],
        credit: [[UInt8]]
    ) -> Money? {
        let (isDebit, isCredit) = record.withField(indicatorField) { field in
            let text = field.trimmingSpaces
            let isDebit = debit.contains(where: text.equalsUppercased)
            return (isDebit, !isDebit && credit.contains(where: text.equalsUppercased))
        }
        if !isDebit && !isCredit {
            let allowed = (debit + credit).map { String(decoding: $0, as: UTF8.self) }
            report(.indicator(quoted(indicatorField), allowed: allowed), at: indicatorField)
        }
        guard let amount = money(amountField, "amount", currency: currency), isValid else {
            return nil
        }
        if amount.minorUnits < 0 && !isDebit {
            report(.negativeCredit, at: amountField)
            return nil
        }
        let magnitude = Int64(amount.minorUnits.magnitude)
        return Money(minorUnits: isDebit ? -magnitude : magnitude, currency: currency)
    }

    mutating func optionalMoney(_ field: Int, _ name: String, currency: Currency) -> Money? {
        isBlank(field) ? nil : money(field, name, currency: currency)
    }

    /// The amount with the fee of the `fee` column taken from it (or, `signed`, added with
    /// its own sign); `nil` when the fee cannot be read or the sum overflows, reported.
    mutating func withFee(_ amount: Money, _ field: Int, sign: Dialect.FeeSign) -> Money? {
        let name = Dialect.Field.fee.rawValue
        guard !isBlank(field) else { return amount }
        guard let fee = money(field, name, currency: amount.currency) else { return nil }
        do {
            return try sign == .deducted ? amount.subtracting(fee) : amount.adding(fee)
        } catch {
            report(
                .invalid(
                    .amountOverflow, name, quoted(field),
                    "with the amount exceeds the range of a 64-bit amount"), at: field)
            return nil
        }
    }

    /// Reads the account id: an IBAN (see `knownOrValidatedIBAN`), or `scheme:value`, which
    /// an id already validated in this file and written canonically skips validating again.
    mutating func accountID(_ field: Int, _ state: inout StatementCSVParser.RowState)
        -> AccountID?
    {
        let name = Dialect.Field.account.rawValue
        if let byName = accountsByName {
            let text = record.withField(field) { String(decoding: $0, as: UTF8.self) }
            if let id = byName[Dialect.accountNameKey(text)] { return id }
            report(.unmappedAccount(name, quoted(field), known: byName.keys.sorted()), at: field)
            return nil
        }
        // The hot path: an id already validated in this file, written canonically.
        if let known = record.withField(field, { $0.withSpan { AccountID(knownBytes: $0) } }),
            state.validAccounts.contains(known)
        {
            return known
        }
        guard record.withField(field, { $0.contains(UInt8(ascii: ":")) }) else {
            return knownOrValidatedIBAN(field, name, required: true, &state).map(AccountID.init)
        }
        do throws(AccountIDParseError) {
            let id = try AccountID(
                parsing: record.withField(field) { String(decoding: $0, as: UTF8.self) })
            state.validAccounts.insert(id)
            return id
        } catch {
            report(.accountID(name, quoted(field), error), at: field)
            return nil
        }
    }

    /// Reads an optional IBAN such as the beneficiary's; see `knownOrValidatedIBAN`.
    mutating func optionalIBAN(
        _ field: Int, _ name: String, _ state: inout StatementCSVParser.RowState
    ) -> IBAN? {
        isBlank(field) ? nil : knownOrValidatedIBAN(field, name, required: false, &state)
    }

    /// Reads an IBAN: one already validated in this file and written in electronic form is
    /// found by its bytes without validating it again (so a national check warning is given
    /// once per file and IBAN, not once per row).
    private mutating func knownOrValidatedIBAN(
        _ field: Int, _ name: String, required: Bool, _ state: inout StatementCSVParser.RowState
    ) -> IBAN? {
        if let known = record.withField(field, { $0.withSpan { IBAN(electronicBytes: $0) } }),
            state.validAccounts.contains(AccountID(known))
        {
            return known
        }
        guard let iban = iban(field, name, required: required) else { return nil }
        if !iban.nationalCheckDigitsAreValid {
            report(.nationalCheck(name, quoted(field)), at: field)
            state.nationalCheckWarnings.insert(AccountID(iban))
        }
        state.validAccounts.insert(AccountID(iban))
        return iban
    }

    private mutating func iban(_ field: Int, _ name: String, required: Bool) -> IBAN? {
        if required && isBlank(field) {
            report(.required(name), at: field)
            return nil
        }
        let result = parse(field) { (bytes) throws(IBANError) in
            try bytes.withSpan { (bytes) throws(IBANError) in try IBAN(parsing: bytes) }
        }
        switch result {
        case .success(let iban):
            return iban
        case .failure(let error):
            report(.iban(name, quoted(field), error), at: field)
            return nil
        }
    }

    /// Reads a required text; blank means only white space of any kind, as `Transaction` has it.
    mutating func requiredText(_ field: Int, _ name: String) -> String? {
        // Printable ASCII other than a space is never white space: no need to decode first.
        let isSurelyText = record.withField(field) { $0.contains { $0 > 0x20 && $0 < 0x7F } }
        if isSurelyText && !buildsText { return "" }
        let text = record.withField(field) { String(decoding: $0, as: UTF8.self) }
        guard isSurelyText || !text.allSatisfy(\.isWhitespace) else {
            report(.required(name), at: field)
            return nil
        }
        return text
    }

    /// Joins the non-blank texts of several fields, without their surrounding spaces, with a
    /// space; `nil` when all are blank. When texts are not built, a non-blank one reads as "".
    func joinedText(_ fields: [Int]) -> String? {
        // Printable ASCII other than a space is never white space: no need to decode first.
        let isSurelyText = fields.contains { field in
            record.withField(field) { $0.contains { $0 > 0x20 && $0 < 0x7F } }
        }
        if isSurelyText && !buildsText { return "" }
        var text = ""
        for field in fields {
            record.withField(field) { bytes in
                let part = bytes.trimmingSpaces
                guard !part.isEmpty else { return }
                if !text.isEmpty { text += " " }
                text += String(decoding: part, as: UTF8.self)
            }
        }
        return text.isEmpty || (!isSurelyText && text.allSatisfy(\.isWhitespace)) ? nil : text
    }

    /// Reads a required text joined from `fields`, or from `fallback` when those are blank.
    mutating func joinedText(_ fields: [Int], else fallback: [Int], _ name: String) -> String? {
        if let text = joinedText(fields) ?? joinedText(fallback) { return text }
        report(.required(name), at: (fields + fallback)[0])
        return nil
    }

    func optionalText(_ field: Int) -> String? {
        optionalBytes(field).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of `optionalText`, valid while the record is lent.
    func optionalBytes(_ field: Int) -> UnsafeRawBufferPointer? {
        isBlank(field) ? nil : record.field(field)
    }

    /// A transaction id: the field without surrounding spaces, `nil` when blank. Read even
    /// when rows are not built, to find an id given to two bookings.
    func identifier(_ field: Int) -> String? {
        identifierBytes(field).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of `identifier`, valid while the record is lent.
    func identifierBytes(_ field: Int) -> UnsafeRawBufferPointer? {
        isBlank(field) ? nil : record.field(field).trimmingSpaces
    }

    mutating func accountKind(_ field: Int, _ name: String) -> Account.Kind? {
        guard let text = optionalText(field) else { return nil }
        if let kind = Account.Kind(parsing: text) { return kind }
        report(.accountKind(name, quoted(field)), at: field)
        return nil
    }
}

extension [UInt8] {
    /// The bytes with ASCII letters in upper case.
    var uppercasedASCII: [UInt8] {
        map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes without leading and trailing ASCII spaces.
    var trimmingSpaces: UnsafeRawBufferPointer {
        guard let first, let last, first == UInt8(ascii: " ") || last == UInt8(ascii: " ") else {
            return self
        }
        var (start, end) = (0, count)
        while start < end && self[start] == UInt8(ascii: " ") { start += 1 }
        while end > start && self[end - 1] == UInt8(ascii: " ") { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: self[start..<end])
    }
}
