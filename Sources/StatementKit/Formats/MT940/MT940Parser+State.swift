import Foundation

/// The state of an MT940 parse: lines gathered into fields, each field read in turn.
extension MT940Parser {
    struct State: StatementParseState {
        var diagnostics = DiagnosticCollector(file: "")
        var summary = ParseSummary()
        var field: Field?
        var statement: Statement?
        /// The entry of the statement waiting for its `:86:`.
        var entry: Entry?
        var fieldText = FieldText()
        var entryText = FieldText()
        var informationText = FieldText()
        var sawStatement = false
        var lineCount = 0
        /// The ids of the statement being read (a checker per statement).
        var transactionIDs = TransactionIDChecker()
        /// The closing balance of each account's last statement, for the next one's opening.
        var lastClosing: [AccountID: Money] = [:]

        let buildsRows: Bool
        /// The most lines a field keeps (`:86:` has at most 6 of 65 characters).
        static let maximumFieldLines = 1000

        init(buildsRows: Bool) { self.buildsRows = buildsRows }

        /// Reads a line: as it is when it is ASCII, else as UTF-8, or as Windows-1252 when it
        /// is not valid UTF-8.
        mutating func read(line raw: Span<UInt8>, number: Int, _ onRow: (ParsedRow) -> Void) {
            lineCount += 1
            if raw.isASCII || raw.isValidUTF8 {
                read(text: raw, number: number, onRow)
            } else {
                let converted = TextEncoding.windows1252.utf8(from: raw.array)
                read(text: converted.span, number: number, onRow)
            }
        }

        /// Reads a line of UTF-8 text.
        mutating func read(text: Span<UInt8>, number: Int, _ onRow: (ParsedRow) -> Void) {
            var line = text
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) {
                line = line.extracting(droppingFirst: 3)
            }
            // The envelope: `{1:…}{2:…}{4:` before the fields, `-}` after them.
            if line.first == UInt8(ascii: "{") {
                guard
                    let block4 = (0..<line.count).first(where: {
                        line.starts(with: "{4:".utf8, at: $0)
                    })
                else { return }
                line = line.extracting(droppingFirst: block4 + 3)
                if line.isEmpty { return }
            }
            // `-` ends a statement; `-}` ends the envelope, a trailer `{5:…}` may follow.
            if line.first == UInt8(ascii: "-"),
                line.count == 1 || line[1] == UInt8(ascii: "}") || line[1] == UInt8(ascii: " ")
            {
                flushField(onRow)
                endStatement(onRow)
                return
            }
            if line.first == UInt8(ascii: ":") {
                guard let (tag, valueStart) = Self.tag(line) else {
                    flushField(onRow)
                    diagnostics.report(
                        .mt940Syntax(
                            "\(Diagnostic.quote(bytes: line.extracting(first: 8))) is not a field tag such as :61:"
                        ),
                        line: number, column: 1)
                    if statement != nil { statement!.isValid = false }
                    return
                }
                flushField(onRow)
                field = Field(tag: tag, line: number)
                fieldText.removeAll()
                fieldText.append(line.extracting(droppingFirst: valueStart))
                return
            }
            // A line of the field before (the supplementary details of a :61:, :86: text),
            // or, outside a field, a header line of the bank's (`ABNANL2A`, `940`). A field
            // keeps at most `maximumFieldLines` lines, so that memory stays bounded.
            guard let current = field else { return }
            if fieldText.lineCount == Self.maximumFieldLines && !current.isCut {
                field!.isCut = true
                diagnostics.report(
                    .mt940Syntax(
                        ":\(current.tag): more than \(Self.maximumFieldLines) lines; the rest is not read"
                    ), line: number, column: 1)
                if statement != nil { statement!.isValid = false }
            }
            if fieldText.lineCount < Self.maximumFieldLines {
                fieldText.append(line)
            }
        }

        /// Input bytes quoted for a message.
        static func quoted(_ bytes: some Collection<UInt8>) -> String {
            Diagnostic.quote(bytes: Array(bytes).span)
        }

        /// The tag of a field line `:61:…` and where its value starts.
        static func tag(_ line: Span<UInt8>) -> (Tag, Int)? {
            var index = 1
            while index < line.count, index <= 4,
                line[index] &- 48 < 10 || (line[index] >= 0x41 && line[index] <= 0x5A)
            {
                index += 1
            }
            guard index >= 3, index < line.count, line[index] == UInt8(ascii: ":"),
                line[1] &- 48 < 10, line[2] &- 48 < 10
            else { return nil }
            return (Tag(line.extracting(1..<index)), index + 1)
        }

        mutating func flushField(_ onRow: (ParsedRow) -> Void) {
            guard let field else { return }
            self.field = nil
            let value = fieldText.line(0)
            let valueColumn = field.tag.count + 3
            switch field.tag {
            case .statement:
                endStatement(onRow)
                statement = Statement(line: field.line)
                transactionIDs = TransactionIDChecker()
                sawStatement = true
            case .account:
                openStatement(field)
                // One account per statement: a second `:25:` would move the entries after it
                // to another account without a word.
                guard !statement!.hasAccountField else {
                    return report(
                        .mt940Syntax(
                            ":25: a second account in the statement of line \(statement!.line)"),
                        line: field.line, column: 1)
                }
                statement!.hasAccountField = true
                account(String(decoding: value, as: UTF8.self), field, column: valueColumn)
            case .openingFinal, .openingInterim, .closingFinal, .closingInterim:
                openStatement(field)
                if field.tag.isClosing { flushEntry(onRow) }
                balance(field, value, column: valueColumn)
            case .entry:
                openStatement(field)
                flushEntry(onRow)
                entry(field, column: valueColumn)
            case .information:
                guard entry != nil else { return }  // a statement's own information
                swap(&informationText, &fieldText)
                entry!.hasInformation = true
            case .floorLimit:
                // An MT942's floor limit, `EUR0,`: the currency of its entries.
                openStatement(field)
                statement!.isInterim = true
                statement!.currency = Currency(
                    code: String(decoding: value.prefix(3), as: UTF8.self))
            case .dateTime, .debitCount, .creditCount:
                statement?.isInterim = true
            default:
                break  // :21:, :28C:, :64:, :65: carry no transactions
            }
        }

        /// Opens a statement for a field before any `:20:`.
        mutating func openStatement(_ field: Field) {
            if statement == nil {
                statement = Statement(line: field.line)
                transactionIDs = TransactionIDChecker()
                sawStatement = true
            }
        }

        mutating func report(_ message: DiagnosticMessage, line: Int, column: Int) {
            diagnostics.report(message, line: line, column: column)
            if message.code.defaultSeverity == .error { statement?.isValid = false }
        }
    }
}
