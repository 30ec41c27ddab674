import Foundation

/// The state of a camt parse: the open elements, each value kept where it belongs.
extension CamtParser {
    struct State: MarkupParserState {
        static func syntax(_ reason: String) -> DiagnosticMessage { .xmlSyntax(reason) }
        static var noStatement: DiagnosticMessage {
            .noStatement(format: "camt", first: "<Stmt>, <Rpt> or <Ntfctn>")
        }

        var diagnostics = DiagnosticCollector(file: "")
        var summary = ParseSummary()
        /// An open element: its name (`nil` for one not looked for), and the slots
        /// (`Element.slot(in:)`) of its children seen so far.
        struct Open {
            let element: Element?
            var seen: UInt64 = 0
        }

        /// The open elements, outermost first.
        var path: [Open] = []
        /// The depth of a misplaced element whose content is not read (its error said
        /// enough).
        var ignoredDepth: Int?
        /// Where the element that ends last started, for an empty value.
        var startLine = 0
        var startColumn = 0
        var sawStatement = false
        var isReport = false
        var statement: Statement?
        var entry: Entry?
        var details: Details?
        /// The `TxDtls` of the entry being read (their room kept from one entry to the next).
        var entryDetails: [Details] = []
        var balance: Balance?
        /// The ids of the statement being read (a checker per statement).
        var transactionIDs = TransactionIDChecker()

        let buildsRows: Bool

        init(buildsRows: Bool) { self.buildsRows = buildsRows }

        @inline(__always)
        mutating func handle<S>(
            _ event: XMLReader<S>.Event, _ reader: inout XMLReader<S>,
            _ onRow: (ParsedRow) -> Void
        ) {
            if let depth = ignoredDepth {
                if case .start(let number) = event {
                    path.append(Open(element: Element.numbered(number)))
                } else {
                    path.removeLast()
                    if path.count == depth { ignoredDepth = nil }
                }
                return
            }
            switch event {
            case .start(let number):
                let element = Element.numbered(number)
                (startLine, startColumn) = (reader.eventLine, reader.eventColumn)
                if let element {
                    if let parent = path.last?.element, let slot = element.slot(in: parent) {
                        let bit =
                            slot == element
                            ? UInt64(1) << number
                            : slot == .iban ? Element.choiceBits.iban : Element.choiceBits.dt
                        if path[path.count - 1].seen & bit != 0 {
                            report(
                                .elementDuplicate(element.spelling, in: parent.spelling),
                                line: startLine, column: startColumn)
                        }
                        path[path.count - 1].seen |= bit
                    }
                    start(element, &reader, line: reader.eventLine, column: reader.eventColumn)
                }
                // A misplaced element (at this depth) is not read, its end included.
                path.append(Open(element: element))
            case .end(let number):
                if let element = Element.numbered(number) {
                    end(element, &reader, onRow)
                }
                path.removeLast()
            }
        }

        /// The text of the element ending, where it starts (where the element starts when
        /// it is empty).
        static func value<S>(_ reader: inout XMLReader<S>, start: (line: Int, column: Int))
            -> PlacedText
        {
            let text = reader.text
            return text.isEmpty
                ? PlacedText(text: text, line: start.line, column: start.column)
                : PlacedText(text: text, line: reader.textLine, column: reader.textColumn)
        }

        /// Whether the open elements end with `parent` and `name` (the element just started
        /// or ended being the last).
        func within(_ parent: Element, _ name: Element) -> Bool {
            let count = path.count
            return count >= 2 && path[count - 1].element == name
                && path[count - 2].element == parent
        }

        func within(_ grandparent: Element, _ parent: Element, _ name: Element) -> Bool {
            let count = path.count
            return count >= 3 && path[count - 1].element == name
                && path[count - 2].element == parent && path[count - 3].element == grandparent
        }

        func within(_ first: Element, _ second: Element, _ third: Element, _ name: Element)
            -> Bool
        {
            let count = path.count
            return count >= 4 && path[count - 1].element == name
                && path[count - 2].element == third && path[count - 3].element == second
                && path[count - 4].element == first
        }

        var attributeCurrency: String?

        mutating func start<S>(
            _ element: Element, _ reader: inout XMLReader<S>, line: Int, column: Int
        ) {
            switch element {
            case .bkToCstmrAcctRpt:
                isReport = true
            case .stmt, .rpt, .ntfctn:
                guard statement == nil else {
                    misplaced(element, line: line, column: column)
                    break
                }
                guard let parent = path.last?.element, Element.statements.contains(parent)
                else { break }
                sawStatement = true
                statement = Statement(
                    start: SourcePosition(line: line, column: column), isInterim: isReport)
                transactionIDs = TransactionIDChecker()
            case .bal, .ntry:
                // Directly in a statement, and nowhere else: a booking inside another, or
                // outside any statement, would be read as another's or lost.
                guard statement != nil, entry == nil, balance == nil,
                    let parent = path.last?.element,
                    parent == .stmt || parent == .rpt || parent == .ntfctn
                else {
                    misplaced(element, line: line, column: column)
                    break
                }
                if element == .bal {
                    balance = Balance(line: line)
                } else {
                    entry = Entry(line: line, errorsBefore: diagnostics.errorCount)
                    entryDetails.removeAll(keepingCapacity: true)
                }
            case .txDtls:
                guard entry != nil, details == nil, path.last?.element == .ntryDtls else {
                    misplaced(element, line: line, column: column)
                    break
                }
                details = Details()
            case .amt:
                attributeCurrency = reader.attribute("Ccy")
            default:
                break
            }
        }

        /// Reports an element where the schema does not allow it.
        mutating func misplaced(_ element: Element, line: Int, column: Int) {
            ignoredDepth = path.count
            let parent =
                path.last.map { $0.element.map { "<\($0.spelling)>" } ?? "an element not read" }
                ?? "no element"
            let allowed =
                switch element {
                case .stmt, .rpt, .ntfctn:
                    "<BkToCstmrStmt>, <BkToCstmrAcctRpt> or <BkToCstmrDbtCdtNtfctn>"
                case .txDtls: "<NtryDtls> of an <Ntry>"
                default: "<Stmt>, <Rpt> or <Ntfctn>"
                }
            report(
                .elementMisplaced(element.spelling, in: parent, allowed: allowed), line: line,
                column: column)
        }

        /// A value kept for a row, reported when it is longer than `maximumKeptText`; when
        /// rows are not built, only its length is checked, and no string made.
        mutating func kept<S>(
            _ reader: inout XMLReader<S>, _ start: (Int, Int), _ name: String,
            isNeeded: Bool = false
        ) -> String? {
            guard buildsRows || isNeeded else {
                let (length, line, column) = (reader.textLength, reader.textLine, reader.textColumn)
                if length > CamtParser.maximumKeptText {
                    report(
                        .textTooLong(name, length: length, limit: CamtParser.maximumKeptText),
                        line: line, column: column)
                }
                return nil
            }
            let placed = Self.value(&reader, start: start)
            let length = placed.text.utf8.count
            if length > CamtParser.maximumKeptText {
                report(
                    .textTooLong(name, length: length, limit: CamtParser.maximumKeptText),
                    at: placed)
            }
            // An empty or blank element (`<Nm></Nm>`, `<Nm> </Nm>`) says nothing: the row
            // falls back as when it is absent, and never gets a blank name.
            return placed.text.isBlank ? nil : placed.text
        }

        mutating func end<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ onRow: (ParsedRow) -> Void
        ) {
            switch element {
            case .stmt, .rpt, .ntfctn:
                guard statement != nil, path.count >= 2, let parent = path[path.count - 2].element,
                    Element.statements.contains(parent)
                else { return }
                endStatement()
                return
            default:
                break
            }
            let start = (startLine, startColumn)
            if details != nil {
                endInDetails(element, &reader, start)
            } else if entry != nil {
                endInEntry(element, &reader, start, onRow)
            } else if balance != nil {
                endInBalance(element, &reader, start)
            } else if statement != nil {
                endInStatement(element, &reader, start)
            }
        }

        // The reader is passed on, not a closure over it: closure arguments would keep these
        // from being specialised, and cost allocations at every end.

        mutating func endInStatement<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ start: (Int, Int)
        ) {
            switch element {
            case .iban where within(.acct, .id, .iban):
                statement!.stated.iban = Self.value(&reader, start: start)
            case .id where within(.acct, .id, .othr, .id):
                statement!.stated.otherID = Self.value(&reader, start: start)
            case .ccy where within(.acct, .ccy):
                statement!.stated.currency = Self.value(&reader, start: start)
            default: break
            }
        }

        mutating func endInBalance<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ start: (Int, Int)
        ) {
            switch element {
            case .cd where within(.tp, .cdOrPrtry, .cd):
                balance!.type = Self.value(&reader, start: start).text
            case .amt where within(.bal, .amt):
                balance!.amount.text = Self.value(&reader, start: start)
                balance!.amount.currency = attributeCurrency
            case .cdtDbtInd where within(.bal, .cdtDbtInd):
                balance!.amount.indicator = Self.value(&reader, start: start).text
            case .dt where within(.bal, .dt, .dt), .dtTm where within(.bal, .dt, .dtTm):
                balance!.date = String(Self.value(&reader, start: start).text.prefix(10))
            case .bal:
                statement!.balances.append(balance!)
                balance = nil
            default: break
            }
        }

        mutating func endInEntry<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ start: (Int, Int),
            _ onRow: (ParsedRow) -> Void
        ) {
            switch element {
            case .amt where within(.ntry, .amt):
                entry!.amount.text = Self.value(&reader, start: start)
                entry!.amount.currency = attributeCurrency
            case .cdtDbtInd where within(.ntry, .cdtDbtInd):
                entry!.amount.indicator = Self.value(&reader, start: start).text
            case .sts where within(.ntry, .sts):
                let status = Self.value(&reader, start: start).text
                if !status.isEmpty { entry!.status = status }
            case .cd where within(.ntry, .sts, .cd):
                entry!.status = Self.value(&reader, start: start).text
            case .dt where within(.bookgDt, .dt), .dtTm where within(.bookgDt, .dtTm):
                entry!.bookingDate = Self.value(&reader, start: start)
            case .acctSvcrRef where within(.ntry, .acctSvcrRef):
                // The transaction id is checked for conflicts when rows are not built, too.
                entry!.serviceReference = kept(&reader, start, "AcctSvcrRef", isNeeded: true)
            case .addtlNtryInf where within(.ntry, .addtlNtryInf):
                entry!.additional = kept(&reader, start, "AddtlNtryInf")
            case .ntry:
                if let entry = entry.take() { endEntry(entry, onRow) }
            default: break
            }
        }

        mutating func endInDetails<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ start: (Int, Int)
        ) {
            switch element {
            case .amt where within(.txDtls, .amt) || within(.amtDtls, .txAmt, .amt):
                let amount = Self.value(&reader, start: start)
                // `TxDtls/Amt` and `AmtDtls/TxAmt/Amt` may both be given, as one amount.
                if let first = details!.amount.text {
                    if first.text != amount.text || details!.amount.currency != attributeCurrency {
                        report(
                            .elementsDisagree("TxDtls/Amt", "TxDtls/AmtDtls/TxAmt/Amt"),
                            at: amount)
                    }
                    return
                }
                details!.amount.text = amount
                details!.amount.currency = attributeCurrency
            case .cdtDbtInd where within(.txDtls, .cdtDbtInd):
                details!.amount.indicator = Self.value(&reader, start: start).text
            case .nm where within(.dbtr, .nm) || within(.dbtr, .pty, .nm):
                details!.debtorName = kept(&reader, start, "Dbtr/Nm")
            case .nm where within(.cdtr, .nm) || within(.cdtr, .pty, .nm):
                details!.creditorName = kept(&reader, start, "Cdtr/Nm")
            case .iban where within(.dbtrAcct, .id, .iban):
                details!.debtorIBAN = Self.value(&reader, start: start)
            case .iban where within(.cdtrAcct, .id, .iban):
                details!.creditorIBAN = Self.value(&reader, start: start)
            case .ustrd where within(.rmtInf, .ustrd):
                let (length, line, column) = (reader.textLength, reader.textLine, reader.textColumn)
                guard length > 0 else { break }
                // The lines are joined with a space: together they are the description.
                let limit = CamtParser.maximumKeptText + 1
                let before = details!.unstructuredLength
                details!.unstructuredLength += length + 1
                if details!.unstructuredLength > limit && before <= limit {
                    report(
                        .textTooLong(
                            "RmtInf/Ustrd", length: details!.unstructuredLength - 1,
                            limit: CamtParser.maximumKeptText), line: line, column: column)
                }
                if buildsRows && details!.unstructuredLength <= limit {
                    let line = Self.value(&reader, start: start).text
                    if !line.isBlank { details!.unstructured.append(line) }
                }
            case .ref where within(.cdtrRefInf, .ref):
                details!.creditorReference = kept(&reader, start, "CdtrRefInf/Ref")
            case .endToEndId where within(.refs, .endToEndId):
                details!.endToEndID = kept(&reader, start, "EndToEndId")
            case .acctSvcrRef where within(.refs, .acctSvcrRef):
                details!.reference = kept(&reader, start, "Refs/AcctSvcrRef", isNeeded: true)
            case .addtlTxInf where within(.txDtls, .addtlTxInf):
                details!.additional = kept(&reader, start, "AddtlTxInf")
            case .txDtls:
                entryDetails.append(details.take()!)
            default: break
            }
        }

        mutating func report(_ message: DiagnosticMessage, at place: PlacedText) {
            report(message, line: place.line, column: place.column)
        }

        mutating func report(_ message: DiagnosticMessage, line: Int, column: Int) {
            diagnostics.report(message, line: line, column: column)
            if message.code.defaultSeverity == .error { statement?.isValid = false }
        }

    }
}
