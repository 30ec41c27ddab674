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
    /// `Bank balance`: what the bank stated at the end of a day.
    let bankBalance: String
    /// `difference`: the ledger's balance minus the bank's.
    let difference: String
    let kinds: [Account.Kind: String]

}

extension ReportLabels {
    /// The labels of a locale's language, or English.
    package init(locale: Locale) {
        self = Self.all[locale.language.languageCode?.identifier ?? "en"] ?? Self.english
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
        languageCode: "en", openingBalance: "Opening balance", closingBalance: "Closing balance",
        date: "Date", beneficiary: "Beneficiary", description: "Description",
        reference: "Reference", amount: "Amount", balance: "Balance", account: "Account",
        accountID: "Account id", statements: "Statements", files: "Files",
        transactionOne: "%@ transaction", transactionMany: "%@ transactions", moneyIn: "in",
        moneyOut: "out", monthIndex: "All statements of the month", allMonths: "All months",
        previousMonth: "Previous month", nextMonth: "Next month",
        chartTitle: "Daily closing balance", lowest: "lowest", highest: "highest",
        bankBalance: "Bank balance", difference: "difference",
        kinds: [
            .checking: "checking", .savings: "savings", .investment: "investment",
            .creditCard: "credit card",
        ])

    /// Every language there are labels for, by language code.
    package static let all: [String: ReportLabels] = [
        "en": english,
        "de": ReportLabels(
            languageCode: "de", openingBalance: "Anfangssaldo", closingBalance: "Endsaldo",
            date: "Datum",
            beneficiary: "Empfänger/Auftraggeber", description: "Verwendungszweck",
            reference: "Referenz", amount: "Betrag", balance: "Saldo", account: "Konto",
            accountID: "Kontokennung", statements: "Kontoauszüge", files: "Dateien",
            transactionOne: "%@ Umsatz", transactionMany: "%@ Umsätze", moneyIn: "Eingänge",
            moneyOut: "Ausgänge", monthIndex: "Alle Kontoauszüge des Monats",
            allMonths: "Alle Monate",
            previousMonth: "Vormonat", nextMonth: "Folgemonat",
            chartTitle: "Tagesendsaldo", lowest: "Tiefststand", highest: "Höchststand",
            bankBalance: "Saldo laut Bank", difference: "Differenz",
            kinds: [
                .checking: "Girokonto", .savings: "Sparkonto", .investment: "Depotkonto",
                .creditCard: "Kreditkarte",
            ]),
        "fr": ReportLabels(
            languageCode: "fr", openingBalance: "Solde initial", closingBalance: "Solde final",
            date: "Date",
            beneficiary: "Bénéficiaire", description: "Libellé", reference: "Référence",
            amount: "Montant", balance: "Solde", account: "Compte",
            accountID: "Identifiant du compte", statements: "Relevés", files: "Fichiers",
            transactionOne: "%@ opération", transactionMany: "%@ opérations",
            moneyIn: "crédits", moneyOut: "débits", monthIndex: "Tous les relevés du mois",
            allMonths: "Tous les mois",
            previousMonth: "Mois précédent", nextMonth: "Mois suivant",
            chartTitle: "Solde de fin de journée", lowest: "plus bas", highest: "plus haut",
            bankBalance: "Solde selon la banque", difference: "écart",
            kinds: [
                .checking: "compte courant", .savings: "épargne", .investment: "placement",
                .creditCard: "carte de crédit",
            ]),
        "es": ReportLabels(
            languageCode: "es", openingBalance: "Saldo inicial", closingBalance: "Saldo final",
            date: "Fecha",
            beneficiary: "Beneficiario", description: "Concepto", reference: "Referencia",
            amount: "Importe", balance: "Saldo", account: "Cuenta",
            accountID: "Identificador de cuenta", statements: "Extractos", files: "Archivos",
            transactionOne: "%@ movimiento", transactionMany: "%@ movimientos",
            moneyIn: "ingresos", moneyOut: "cargos", monthIndex: "Todos los extractos del mes",
            allMonths: "Todos los meses",
            previousMonth: "Mes anterior", nextMonth: "Mes siguiente",
            chartTitle: "Saldo al cierre de cada día", lowest: "mínimo", highest: "máximo",
            bankBalance: "Saldo según el banco", difference: "diferencia",
            kinds: [
                .checking: "cuenta corriente", .savings: "ahorro", .investment: "inversión",
                .creditCard: "tarjeta de crédito",
            ]),
        "it": ReportLabels(
            languageCode: "it", openingBalance: "Saldo iniziale", closingBalance: "Saldo finale",
            date: "Data",
            beneficiary: "Beneficiario", description: "Causale", reference: "Riferimento",
            amount: "Importo", balance: "Saldo", account: "Conto",
            accountID: "Identificativo del conto", statements: "Estratti conto", files: "File",
            transactionOne: "%@ movimento", transactionMany: "%@ movimenti", moneyIn: "entrate",
            moneyOut: "uscite", monthIndex: "Tutti gli estratti conto del mese",
            allMonths: "Tutti i mesi",
            previousMonth: "Mese precedente", nextMonth: "Mese successivo",
            chartTitle: "Saldo di fine giornata", lowest: "minimo", highest: "massimo",
            bankBalance: "Saldo secondo la banca", difference: "differenza",
            kinds: [
                .checking: "conto corrente", .savings: "risparmio", .investment: "investimento",
                .creditCard: "carta di credito",
            ]),
        "nl": ReportLabels(
            languageCode: "nl", openingBalance: "Beginsaldo", closingBalance: "Eindsaldo",
            date: "Datum",
            beneficiary: "Begunstigde", description: "Omschrijving", reference: "Kenmerk",
            amount: "Bedrag", balance: "Saldo", account: "Rekening",
            accountID: "Rekeningnummer", statements: "Afschriften", files: "Bestanden",
            transactionOne: "%@ transactie", transactionMany: "%@ transacties",
            moneyIn: "bij", moneyOut: "af", monthIndex: "Alle afschriften van de maand",
            allMonths: "Alle maanden",
            previousMonth: "Vorige maand", nextMonth: "Volgende maand",
            chartTitle: "Saldo aan het eind van de dag", lowest: "laagste", highest: "hoogste",
            bankBalance: "Saldo volgens de bank", difference: "verschil",
            kinds: [
                .checking: "betaalrekening", .savings: "spaarrekening",
                .investment: "beleggingsrekening", .creditCard: "creditcard",
            ]),
        "ja": ReportLabels(
            languageCode: "ja", openingBalance: "期首残高", closingBalance: "期末残高", date: "日付",
            beneficiary: "取引先", description: "摘要", reference: "参照番号", amount: "金額",
            balance: "残高", account: "口座", accountID: "口座ID", statements: "取引明細",
            files: "ファイル", transactionOne: "%@件の取引", transactionMany: "%@件の取引",
            moneyIn: "入金", moneyOut: "出金", monthIndex: "当月の明細一覧", allMonths: "全期間",
            previousMonth: "前月", nextMonth: "翌月", chartTitle: "日末残高", lowest: "最低",
            highest: "最高", bankBalance: "銀行の残高", difference: "差額",
            kinds: [
                .checking: "普通預金", .savings: "貯蓄預金", .investment: "投資口座", .creditCard: "クレジットカード",
            ]),
    ]
}
