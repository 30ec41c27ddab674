import Foundation

/// The words of the text and HTML statements and the month index, in the language of the
/// report's locale: English, German, French, Spanish, Italian, Dutch or Japanese, else
/// English. Every language fills every label (the initializer takes them all), so that no
/// page mixes languages; `languageCode` is what the HTML's `lang` says.
package struct ReportLabels: Hashable, Sendable {
    package let languageCode: String
    let openingBalance: String
    let closingBalance: String
    let date: String
    let beneficiary: String
    let description: String
    let reference: String
    let amount: String
    let balance: String
    let account: String
    let accountID: String
    let statements: String
    let files: String
    /// `1 transaction` and `N transactions`, `%@` standing for the number.
    let transactionOne: String
    let transactionMany: String
    let moneyIn: String
    let moneyOut: String
    let monthIndex: String
    let allMonths: String
    let previousMonth: String
    let nextMonth: String
    let chartTitle: String
    let lowest: String
    let highest: String
    let kinds: [Account.Kind: String]

    /// The labels of a locale's language, or English.
    package init(locale: Locale) {
        self = Self.all[locale.language.languageCode?.identifier ?? "en"] ?? Self.english
    }

    private init(
        _ languageCode: String, openingBalance: String, closingBalance: String, date: String,
        beneficiary: String, description: String, reference: String, amount: String,
        balance: String, account: String, accountID: String, statements: String, files: String,
        transactionOne: String, transactionMany: String, moneyIn: String, moneyOut: String,
        monthIndex: String, allMonths: String, previousMonth: String, nextMonth: String,
        chartTitle: String,
        lowest: String, highest: String,
        kinds: (checking: String, savings: String, investment: String, creditCard: String)
    ) {
        self.languageCode = languageCode
        self.openingBalance = openingBalance
        self.closingBalance = closingBalance
        self.date = date
        self.beneficiary = beneficiary
        self.description = description
        self.reference = reference
        self.amount = amount
        self.balance = balance
        self.account = account
        self.accountID = accountID
        self.statements = statements
        self.files = files
        self.transactionOne = transactionOne
        self.transactionMany = transactionMany
        self.moneyIn = moneyIn
        self.moneyOut = moneyOut
        self.monthIndex = monthIndex
        self.allMonths = allMonths
        self.previousMonth = previousMonth
        self.nextMonth = nextMonth
        self.chartTitle = chartTitle
        self.lowest = lowest
        self.highest = highest
        self.kinds = [
            .checking: kinds.checking, .savings: kinds.savings, .investment: kinds.investment,
            .creditCard: kinds.creditCard,
        ]
    }

    /// `3 transactions`, the number grouped as the report's amounts are not: plainly.
    func transactions(_ count: Int) -> String {
        // Each `%@` replaced over the UTF-8 bytes: Foundation's `replacingOccurrences` went
        // through the generic collection algorithms (1 % of a report's time, called for every
        // statement).
        let template = Array((count == 1 ? transactionOne : transactionMany).utf8)
        let number = count.groupedText.utf8
        var out: [UInt8] = []
        var index = 0
        while index < template.count {
            if template[index] == UInt8(ascii: "%"), index + 1 < template.count,
                template[index + 1] == UInt8(ascii: "@")
            {
                out += number
                index += 2
            } else {
                out.append(template[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What an account's id is called: `IBAN`, or the language's word for the other schemes.
    func name(of id: AccountID) -> String { id.iban == nil ? accountID : "IBAN" }

    /// The kind of an account in the language.
    func kind(_ kind: Account.Kind) -> String { kinds[kind] ?? kind.rawValue }

    static let english = ReportLabels(
        "en", openingBalance: "Opening balance", closingBalance: "Closing balance",
        date: "Date", beneficiary: "Beneficiary", description: "Description",
        reference: "Reference", amount: "Amount", balance: "Balance", account: "Account",
        accountID: "Account id", statements: "Statements", files: "Files",
        transactionOne: "%@ transaction", transactionMany: "%@ transactions", moneyIn: "in",
        moneyOut: "out", monthIndex: "All statements of the month", allMonths: "All months",
        previousMonth: "Previous month", nextMonth: "Next month",
        chartTitle: "Daily closing balance", lowest: "lowest", highest: "highest",
        kinds: ("checking", "savings", "investment", "credit card"))

    /// Every language there are labels for, by language code.
    package static let all: [String: ReportLabels] = [
        "en": english,
        "de": ReportLabels(
            "de", openingBalance: "Anfangssaldo", closingBalance: "Endsaldo", date: "Datum",
            beneficiary: "Empfänger/Auftraggeber", description: "Verwendungszweck",
            reference: "Referenz", amount: "Betrag", balance: "Saldo", account: "Konto",
            accountID: "Kontokennung", statements: "Kontoauszüge", files: "Dateien",
            transactionOne: "%@ Umsatz", transactionMany: "%@ Umsätze", moneyIn: "Eingänge",
            moneyOut: "Ausgänge", monthIndex: "Alle Kontoauszüge des Monats",
            allMonths: "Alle Monate",
            previousMonth: "Vormonat", nextMonth: "Folgemonat",
            chartTitle: "Tagesendsaldo", lowest: "Tiefststand", highest: "Höchststand",
            kinds: ("Girokonto", "Sparkonto", "Depotkonto", "Kreditkarte")),
        "fr": ReportLabels(
            "fr", openingBalance: "Solde initial", closingBalance: "Solde final", date: "Date",
            beneficiary: "Bénéficiaire", description: "Libellé", reference: "Référence",
            amount: "Montant", balance: "Solde", account: "Compte",
            accountID: "Identifiant du compte", statements: "Relevés", files: "Fichiers",
            transactionOne: "%@ opération", transactionMany: "%@ opérations",
            moneyIn: "crédits", moneyOut: "débits", monthIndex: "Tous les relevés du mois",
            allMonths: "Tous les mois",
            previousMonth: "Mois précédent", nextMonth: "Mois suivant",
            chartTitle: "Solde de fin de journée", lowest: "plus bas", highest: "plus haut",
            kinds: ("compte courant", "épargne", "placement", "carte de crédit")),
        "es": ReportLabels(
            "es", openingBalance: "Saldo inicial", closingBalance: "Saldo final", date: "Fecha",
            beneficiary: "Beneficiario", description: "Concepto", reference: "Referencia",
            amount: "Importe", balance: "Saldo", account: "Cuenta",
            accountID: "Identificador de cuenta", statements: "Extractos", files: "Archivos",
            transactionOne: "%@ movimiento", transactionMany: "%@ movimientos",
            moneyIn: "ingresos", moneyOut: "cargos", monthIndex: "Todos los extractos del mes",
            allMonths: "Todos los meses",
            previousMonth: "Mes anterior", nextMonth: "Mes siguiente",
            chartTitle: "Saldo al cierre de cada día", lowest: "mínimo", highest: "máximo",
            kinds: ("cuenta corriente", "ahorro", "inversión", "tarjeta de crédito")),
        "it": ReportLabels(
            "it", openingBalance: "Saldo iniziale", closingBalance: "Saldo finale", date: "Data",
            beneficiary: "Beneficiario", description: "Causale", reference: "Riferimento",
            amount: "Importo", balance: "Saldo", account: "Conto",
            accountID: "Identificativo del conto", statements: "Estratti conto", files: "File",
            transactionOne: "%@ movimento", transactionMany: "%@ movimenti", moneyIn: "entrate",
            moneyOut: "uscite", monthIndex: "Tutti gli estratti conto del mese",
            allMonths: "Tutti i mesi",
            previousMonth: "Mese precedente", nextMonth: "Mese successivo",
            chartTitle: "Saldo di fine giornata", lowest: "minimo", highest: "massimo",
            kinds: ("conto corrente", "risparmio", "investimento", "carta di credito")),
        "nl": ReportLabels(
            "nl", openingBalance: "Beginsaldo", closingBalance: "Eindsaldo", date: "Datum",
            beneficiary: "Begunstigde", description: "Omschrijving", reference: "Kenmerk",
            amount: "Bedrag", balance: "Saldo", account: "Rekening",
            accountID: "Rekeningnummer", statements: "Afschriften", files: "Bestanden",
            transactionOne: "%@ transactie", transactionMany: "%@ transacties",
            moneyIn: "bij", moneyOut: "af", monthIndex: "Alle afschriften van de maand",
            allMonths: "Alle maanden",
            previousMonth: "Vorige maand", nextMonth: "Volgende maand",
            chartTitle: "Saldo aan het eind van de dag", lowest: "laagste", highest: "hoogste",
            kinds: ("betaalrekening", "spaarrekening", "beleggingsrekening", "creditcard")),
        "ja": ReportLabels(
            "ja", openingBalance: "期首残高", closingBalance: "期末残高", date: "日付",
            beneficiary: "取引先", description: "摘要", reference: "参照番号", amount: "金額",
            balance: "残高", account: "口座", accountID: "口座ID", statements: "取引明細",
            files: "ファイル", transactionOne: "%@件の取引", transactionMany: "%@件の取引",
            moneyIn: "入金", moneyOut: "出金", monthIndex: "当月の明細一覧", allMonths: "全期間",
            previousMonth: "前月", nextMonth: "翌月", chartTitle: "日末残高", lowest: "最低",
            highest: "最高", kinds: ("普通預金", "貯蓄預金", "投資口座", "クレジットカード")),
    ]
}

extension ReportLabels {
    /// The words for a balance the bank stated that the ledger does not hold, by language.
    private static let bankWords: [String: (bankBalance: String, difference: String)] = [
        "en": ("Bank balance", "difference"), "de": ("Saldo laut Bank", "Differenz"),
        "fr": ("Solde selon la banque", "écart"), "es": ("Saldo según el banco", "diferencia"),
        "it": ("Saldo secondo la banca", "differenza"), "nl": ("Saldo volgens de bank", "verschil"),
        "ja": ("銀行の残高", "差額"),
    ]

    /// `Bank balance`: what the bank stated at the end of a day.
    var bankBalance: String { Self.bankWords[languageCode]?.bankBalance ?? "Bank balance" }
    /// `difference`: the ledger's balance minus the bank's.
    var difference: String { Self.bankWords[languageCode]?.difference ?? "difference" }
}
