"""The layouts of export-corpus-more.py: each bank's or app's published CSV columns."""


def define(layout, money, day, dc):
    E = lambda a, **kw: money(a, dec=",", thou=".", **kw)  # 1.234,56
    # United States
    layout("us-ally.csv", "account", "name:ally-savings", "USD",
           header=["Date", " Time", " Amount", " Type", " Description"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), " 00:00:00", " " + money(a),
                                    " Deposit" if a > 0 else " Withdrawal", " " + t])
    layout("us-schwab-checking.csv", "account", "name:schwab-checking", "USD",
           header=["Date", "Status", "Type", "CheckNumber", "Description", "Withdrawal",
                   "Deposit", "RunningBalance"], quote=True, newest=True,
           make=lambda d, t, a, b: [day(d, "MM/dd/yyyy"), "Posted", "ACH", "", t,
                                    *dc(a, symbol="$", thou=","), money(b, symbol="$", thou=",")])
    layout("us-usbank.csv", "account", "name:usbank-checking", "USD",
           header=["Date", "Transaction", "Name", "Memo", "Amount"], quote=True,
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), "CREDIT" if a > 0 else "DEBIT", t,
                                    "Download from usbank.com", money(a)])
    layout("us-pnc.csv", "account", "name:pnc-checking", "USD",
           header=["Date", "Description", "Withdrawals", "Deposits", "Balance"],
           make=lambda d, t, a, b: [day(d, "MM/dd/yyyy"), t, *dc(a), money(b)])
    layout("us-navy-federal.csv", "account", "name:navy-federal", "USD",
           header=["Posting Date", "Transaction Date", "Amount", "Credit Debit Indicator",
                   "type", "Type Group", "Reference", "Instructional Tribe Name",
                   "Description", "Category", "Balance"],
           make=lambda d, t, a, b: [day(d, "MM/dd/yyyy"), day(d, "MM/dd/yyyy"),
                                    money(abs(a)), "Credit" if a > 0 else "Debit", "ACH", "",
                                    "REF" + d.strftime("%m%d"), "", t, "General", money(b)])
    layout("us-venmo.csv", "account", "name:venmo", "USD",
           quote=True, header=["ID", "Datetime", "Type", "Status", "Note", "From", "To", "Amount (total)",
                   "Funding Source", "Destination"],
           make=lambda d, t, a, b: [f"39{d.day:02}00", day(d, "yyyy-MM-dd") + "T10:00:00",
                                    "Payment", "Complete", t, "Jane Doe", t,
                                    ("+ " if a > 0 else "- ") + money(abs(a), symbol="$",
                                                                      thou=","), "", ""])
    layout("us-apple-card.csv", "account", "card:apple/0001", "USD", card=True,
           header=["Transaction Date", "Clearing Date", "Description", "Merchant",
                   "Category", "Type", "Amount (USD)", "Purchased By"],
           make=lambda d, t, a, b: [day(d, "MM/dd/yyyy"), day(d, "MM/dd/yyyy"), t, t,
                                    "Other", "Payment" if a > 0 else "Purchase",
                                    money(-a), "Jane Doe"])
    layout("us-barclaycard.csv", "account", "card:barclays/7777", "USD", card=True,
           header=["Transaction Date", "Description", "Category", "Amount"],
           preamble=["Barclays Bank Delaware", "Account Number: XXXXXXXXXXXX7777",
                     "Account Balance as of October 31 2026:    $0.00", ""],
           make=lambda d, t, a, b: [day(d, "MM/dd/yyyy"), t, "DEBIT" if a < 0 else "CREDIT",
                                    money(a)])
    layout("us-fidelity-cash.csv", "account", "name:fidelity-cash", "USD",
           header=["Run Date", "Action", "Symbol", "Description", "Type", "Quantity",
                   "Price ($)", "Commission ($)", "Fees ($)", "Accrued Interest ($)",
                   "Amount ($)", "Settlement Date"],
           make=lambda d, t, a, b: [day(d, "MM/dd/yyyy"), t, "", t, "Cash", "", "", "", "",
                                    "", money(a), day(d, "MM/dd/yyyy")])
    layout("us-sofi.csv", "account", "name:sofi-checking", "USD",
           header=["Date", "Description", "Type", "Amount", "Current balance", "Status"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), t, "Direct Deposit" if a > 0
                                    else "Debit Card", money(a), money(b), "Posted"])
    layout("us-mercury.csv", "account", "name:mercury-checking", "USD",
           header=["Date (UTC)", "Description", "Amount", "Status", "Source Account",
                   "Bank Description", "Reference", "Note", "Last Four Digits",
                   "Name On Card", "Category", "GL Code", "Timestamp"],
           make=lambda d, t, a, b: [day(d, "MM-dd-yyyy"), t, money(a), "Sent" if a < 0
                                    else "Received", "Mercury Checking ••1234", t, "", "",
                                    "", "", "", "", day(d, "MM-dd-yyyy") + " 10:00:00"])
    layout("us-stripe-balance.csv", "account", "name:stripe-usd", "USD",
           header=["id", "Type", "Source", "Amount", "Fee", "Net", "Currency",
                   "Created (UTC)", "Available On (UTC)", "Description"],
           make=lambda d, t, a, b: [f"txn_1{d.day:02}AB", "charge" if a > 0 else "payout",
                                    f"ch_{d.day:02}", money(a), "0.00", money(a), "usd",
                                    day(d, "yyyy-MM-dd") + " 10:00", day(d, "yyyy-MM-dd")
                                    + " 10:00", t])
    # Canada
    layout("ca-scotiabank.csv", "account", "name:scotia-chequing", "CAD", header=None,
           make=lambda d, t, a, b: [day(d, "M/d/yyyy"), money(a), "-", "", t])
    layout("ca-bmo.csv", "account", "name:bmo-chequing", "CAD",
           header=["First Bank Card", "Transaction Type", "Date Posted", " Transaction Amount",
                   "Description"],
           preamble=["Following data is valid as of 20261031120000 (Year/Month/Day/Hour/Minute/Second)", ""],
           make=lambda d, t, a, b: ["'500766**********9876'", "CREDIT" if a > 0 else "DEBIT",
                                    day(d, "yyyyMMdd"), money(a), f"[CW]{t}"])
    layout("ca-cibc.csv", "refused", "-", "CAD", note="no header, no balance: debit and credit unknown", header=None,
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), t, *dc(a)])
    layout("ca-wealthsimple.csv", "account", "name:wealthsimple-cash", "CAD",
           header=["date", "transaction", "description", "amount", "balance", "currency"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), "DEP" if a > 0 else "SPEND", t,
                                    money(a), money(b), "CAD"])
    layout("ca-desjardins.csv", "account", "name:desjardins-eop", "CAD", header=None,
           make=lambda d, t, a, b: ["Caisse", "815-30001", "EOP", day(d, "yyyy/MM/dd"), "1", t,
                                    "", *dc(a), "", "", money(b)])
    # United Kingdom and Ireland
    layout("uk-lloyds.csv", "account", "sort-code:309634/12345678", "GBP",
           header=["Transaction Date", "Transaction Type", "Sort Code", "Account Number",
                   "Transaction Description", "Debit Amount", "Credit Amount", "Balance"],
           newest=True,
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), "FPI" if a > 0 else "DEB",
                                    "'30-96-34", "12345678", t, *dc(a), money(b)])
    layout("uk-natwest.csv", "account", "sort-code:600000/12345678", "GBP",
           header=["Date", "Type", "Description", "Value", "Balance", "Account Name",
                   "Account Number"],
           preamble=[""],
           make=lambda d, t, a, b: [day(d, "dd MMM yyyy"), "BAC" if a > 0 else "POS",
                                    f"'{t}", money(a), money(b), "'MR J DOE",
                                    "'600000-12345678"])
    layout("uk-santander.csv", "account", "sort-code:090128/12345678", "GBP",
           header=["Date", "Description", "Amount", "Balance"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, money(a), money(b)])
    layout("uk-first-direct.csv", "account", "sort-code:404784/12345678", "GBP",
           header=["Date", "Description", "Amount", "Balance"], newest=True,
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, money(a), money(b)])
    layout("uk-tsb.csv", "account", "sort-code:774926/12345678", "GBP",
           header=["Transaction date", "Transaction type", "Sort code", "Account number",
                   "Transaction description", "Debit amount", "Credit amount", "Balance"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), "FPI" if a > 0 else "DEB",
                                    "77-49-26", "12345678", t, *dc(a), money(b)])
    layout("uk-amex.csv", "account", "card:amex/2002", "GBP", card=True,
           header=["Date", "Description", "Amount"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, money(-a)])
    layout("uk-chase.csv", "account", "sort-code:608384/12345678", "GBP",
           header=["Date", "Time", "Transaction Type", "Description", "Amount", "Currency",
                   "Balance"],
           make=lambda d, t, a, b: [day(d, "dd MMM yyyy"), "10:00", "Payment" if a < 0
                                    else "Transfer", t, money(a), "GBP", money(b)])
    layout("uk-coop.csv", "account", "sort-code:089299/12345678", "GBP",
           header=["Date", "Transaction", "Money In", "Money Out", "Balance"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, *reversed(dc(a)), money(b)])
    layout("uk-halifax-card.csv", "account", "card:halifax/3003", "GBP", card=True,
           header=["Date", "Date entered", "Reference", "Description", "Amount"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"),
                                    f"12345{d.day:02}", t, money(-a)])
    layout("ie-aib.csv", "account", "name:aib-current", "EUR",
           header=["Posted Account", " Posted Transactions Date", " Description1",
                   " Description2", " Description3", " Debit Amount", " Credit Amount",
                   " Balance", " Posted Currency", " Transaction Type"],
           make=lambda d, t, a, b: ["938230-12345678", day(d, "dd/MM/yyyy"), t, "", "",
                                    *dc(a), money(b), "EUR", "Debit" if a < 0 else "Credit"])
    layout("ie-boi.csv", "account", "name:boi-current", "EUR",
           header=["Date", "Details", "Debit", "Credit", "Balance"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, *dc(a), money(b)])
    layout("ie-ptsb.csv", "account", "IE29AIBK93115212345678", "EUR",
           header=["IBAN", "Date", "Description", "Amount", "Balance", "Currency"],
           make=lambda d, t, a, b: ["IE29AIBK93115212345678", day(d, "dd/MM/yyyy"), t,
                                    money(a), money(b), "EUR"])
    # Australia and New Zealand
    layout("au-anz.csv", "account", "bsb:012003/123456789", "AUD", header=None,
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), money(a), t])
    layout("au-nab.csv", "account", "bsb:082001/123456789", "AUD",
           header=["Date", "Amount", "Account Number", "", "Transaction Type",
                   "Transaction Details", "Balance", "Category", "Merchant Name"],
           make=lambda d, t, a, b: [day(d, "dd MMM yy"), money(a), "123456789", "",
                                    "EFTPOS" if a < 0 else "CREDIT", t, money(b), "", t])
    layout("au-ing.csv", "account", "bsb:923100/12345678", "AUD",
           header=["Date", "Description", "Credit", "Debit", "Balance"], newest=True,
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, *reversed(dc(a)), money(b)])
    layout("au-up.csv", "account", "bsb:633123/123456789", "AUD",
           header=["Time", "BSB / Account Number", "Transaction Type", "Payee", "Description",
                   "Category", "Tags", "Subtotal (AUD)", "Currency", "Subtotal (Transaction Currency)",
                   "Round Up (AUD)", "Total (AUD)", "Payment Method", "Settled Date"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd") + "T09:00:00+10:00", "633-123 / 123456789",
                                    "Purchase" if a < 0 else "Salary", t, t, "", "", money(a),
                                    "AUD", money(a), "0.00", money(a), "EFTPOS",
                                    day(d, "yyyy-MM-dd")])
    layout("nz-asb.csv", "account", "name:asb-everyday", "NZD",
           header=["Date", "Unique Id", "Tran Type", "Cheque Number", "Payee", "Memo",
                   "Amount"],
           preamble=["Created date / time : 31 October 2026 / 12:00:00",
                     "Bank 12; Branch 3456; Account 0123456-00 (Streamline)",
                     "From date 20261001", "To date 20261031", "Avail Bal : 2212.95 as of 20261031",
                     "Ledger Balance : 2212.95 as of 20261031", ""],
           make=lambda d, t, a, b: [day(d, "yyyy/MM/dd"), f"2026{d.month:02}{d.day:02}1",
                                    "D/C" if a > 0 else "EFTPOS", "", t, "", money(a)])
    layout("nz-kiwibank.csv", "account", "name:kiwibank-everyday", "NZD",
           header=["Account number", "Date", "Memo/Description", "Source Code (payment type)",
                   "TP ref", "TP part", "TP code", "OP ref", "OP part", "OP code", "OP name",
                   "OP Bank Account Number", "Amount (credit)", "Amount (debit)", "Amount",
                   "Balance"],
           make=lambda d, t, a, b: ["38-9000-0123456-00", day(d, "dd-MM-yyyy"), t, "", "", "",
                                    "", "", "", "", "", "", *reversed(dc(a)), money(a), money(b)])
    layout("nz-westpac.csv", "account", "name:westpac-nz", "NZD",
           header=["Date", "Amount", "Other Party", "Description", "Reference", "Particulars",
                   "Analysis Code"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), money(a), t, "", "", "", ""])
    # Germany and Austria
    layout("de-ing.csv", "none", "-", "EUR", sep=";",
           preamble=["Umsatzanzeige;Datei erstellt am: 31.10.2026 12:00", "",
                     "IBAN;DE89 3704 0044 0532 0130 00", "Kontoname;Girokonto",
                     "Bank;ING", "Kunde;Jane Doe", "Zeitraum;01.10.2026 - 31.10.2026",
                     "Saldo;2.212,95;EUR", "", "Sortierung;Datum absteigend", "",
                     "In der CSV-Datei finden Sie alle bereits gebuchten Umsätze.", ""],
           header=["Buchung", "Valuta", "Auftraggeber/Empfänger", "Buchungstext",
                   "Verwendungszweck", "Saldo", "Währung", "Betrag", "Währung"], newest=True,
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), day(d, "dd.MM.yyyy"), t,
                                    "Gutschrift" if a > 0 else "Lastschrift", t, E(b), "EUR",
                                    E(a), "EUR"])
    layout("de-commerzbank.csv", "account", "DE89370400440532013000", "EUR", sep=";",
           header=["Buchungstag", "Wertstellung", "Umsatzart", "Buchungstext", "Betrag",
                   "Währung", "Auftraggeberkonto", "Bankleitzahl Auftraggeberkonto",
                   "IBAN Auftraggeberkonto", "Kategorie"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), day(d, "dd.MM.yyyy"),
                                    "Gutschrift" if a > 0 else "Lastschrift", t,
                                    money(a, dec=","), "EUR", "532013000", "37040044",
                                    "DE89370400440532013000", ""])
    layout("de-postbank.csv", "none", "-", "EUR", sep=";",
           preamble=["Umsätze", "Girokonto;DE89370400440532013000", ""],
           header=["Buchungstag", "Wert", "Umsatzart", "Begünstigter / Auftraggeber",
                   "Verwendungszweck", "IBAN / Kontonummer", "BIC", "Kundenreferenz",
                   "Mandatsreferenz", "Gläubiger ID", "Fremde Gebühren", "Betrag",
                   "Abweichender Empfänger", "Anzahl der Aufträge", "Anzahl der Schecks",
                   "Soll", "Haben", "Währung"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), day(d, "dd.MM.yyyy"),
                                    "Gutschrift" if a > 0 else "Kartenzahlung", t, t, "", "",
                                    "", "", "", "", E(a) + " €", "", "", "",
                                    E(a) if a < 0 else "", E(a) if a > 0 else "", "EUR"])
    layout("de-volksbank.csv", "none", "-", "EUR", sep=";",
           header=["Bezeichnung Auftragskonto", "IBAN Auftragskonto", "BIC Auftragskonto",
                   "Bankname Auftragskonto", "Buchungstag", "Valutadatum",
                   "Name Zahlungsbeteiligter", "IBAN Zahlungsbeteiligter",
                   "BIC (SWIFT-Code) Zahlungsbeteiligter", "Buchungstext", "Verwendungszweck",
                   "Betrag", "Waehrung", "Saldo nach Buchung", "Bemerkung", "Kategorie",
                   "Steuerrelevant", "Glaeubiger ID", "Mandatsreferenz"],
           newest=True,
           make=lambda d, t, a, b: ["Girokonto", "DE89370400440532013000", "GENODEF1XXX",
                                    "Volksbank", day(d, "dd.MM.yyyy"), day(d, "dd.MM.yyyy"), t,
                                    "", "", "Gutschrift" if a > 0 else "Lastschrift", t,
                                    money(a, dec=","), "EUR", money(b, dec=","), "", "", "",
                                    "", ""])
    layout("de-consorsbank.csv", "account", "DE89370400440532013000", "EUR", sep=";",
           header=["Buchung", "Valuta", "Sender / Empfänger", "IBAN", "BIC", "Buchungstext",
                   "Verwendungszweck", "Kategorie", "Stichwörter", "Umsatz geteilt",
                   "Betrag in EUR"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), day(d, "dd.MM.yyyy"), t, "", "",
                                    "GUTSCHRIFT" if a > 0 else "LASTSCHRIFT", t, "", "", "",
                                    E(a)])
    layout("de-sparkasse-mt940.csv", "none", "-", "EUR", sep=";", quote=True,
           header=["Auftragskonto", "Buchungstag", "Valutadatum", "Buchungstext",
                   "Verwendungszweck", "Beguenstigter/Zahlungspflichtiger", "Kontonummer",
                   "BLZ", "Betrag", "Waehrung", "Info"],
           make=lambda d, t, a, b: ["DE89370400440532013000", day(d, "dd.MM.yy"),
                                    day(d, "dd.MM.yy"), "GUTSCHR." if a > 0 else "LASTSCHRIFT",
                                    t, t, "0", "0", money(a, dec=","), "EUR", "Umsatz gebucht"])
    layout("de-c24.csv", "account", "DE89370400440532013000", "EUR",
           header=["Transaktionstyp", "Buchungsdatum", "Karteneinsatz", "Betrag",
                   "Zahlungsempfänger", "IBAN", "BIC", "Verwendungszweck",
                   "Beschreibung", "Kategorie", "Unterkategorie"],
           make=lambda d, t, a, b: ["Eingang" if a > 0 else "Ausgang", day(d, "dd.MM.yyyy"),
                                    "", money(a, dec=","), t, "", "", t, "", "", ""], sep=";")
    layout("de-trade-republic.csv", "account", "DE89370400440532013000", "EUR", sep=";",
           header=["Datum", "Typ", "Beschreibung", "Zahlungseingang", "Zahlungsausgang",
                   "Saldo"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), "Überweisung" if a > 0
                                    else "Kartentransaktion", t,
                                    *reversed(dc(a, dec=",", thou=".")), E(b)])
    layout("at-erste.csv", "account", "AT611904300234573201", "EUR", sep=";",
           header=["Buchungsdatum", "Partnername", "Partner IBAN", "BIC/SWIFT",
                   "Partner Kontonummer", "Bankleitzahl", "Betrag", "Währung",
                   "Buchungs-Info", "Buchungsreferenz", "Notiz", "Valutadatum"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), t, "", "", "", "", E(a), "EUR", t,
                                    f"1100{d.day:02}", "", day(d, "dd.MM.yyyy")])
    layout("at-raiffeisen.csv", "account", "AT611904300234573201", "EUR", sep=";",
           header=None,
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), t, day(d, "dd.MM.yyyy"),
                                    money(a, dec=",", plus=True), "EUR", day(d, "dd.MM.yyyy")
                                    + " 10:00:00:000"])
    layout("at-bawag.csv", "none", "AT611904300234573201", "EUR", sep=";", header=None,
           note="no header: the account from a column of one IBAN",
           make=lambda d, t, a, b: ["AT611904300234573201", t, day(d, "dd.MM.yyyy"),
                                    day(d, "dd.MM.yyyy"), money(a, dec=",", plus=True), "EUR"])
    # Switzerland
    layout("ch-ubs.csv", "account", "CH9300762011623852957", "CHF", sep=";",
           header=["Abschlussdatum", "Abschlusszeit", "Buchungsdatum", "Valutadatum",
                   "Währung", "Belastung", "Gutschrift", "Einzelbetrag", "Saldo",
                   "Transaktions-Nr.", "Beschreibung1", "Beschreibung2", "Beschreibung3",
                   "Fussnoten"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), "10:00:00", day(d, "yyyy-MM-dd"),
                                    day(d, "yyyy-MM-dd"), "CHF",
                                    money(a) if a < 0 else "", money(a) if a > 0 else "", "",
                                    money(b), f"99{d.day:02}", t, "", "", ""])
    layout("ch-zkb.csv", "account", "CH9300762011623852957", "CHF", sep=";",
           header=["Datum", "Buchungstext", "Whg", "Betrag Detail", "ZKB-Referenz",
                   "Referenznummer", "Belastung CHF", "Gutschrift CHF", "Valuta",
                   "Saldo CHF"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), t, "", "", f"Z{d.day:02}", "",
                                    *dc(a), day(d, "dd.MM.yyyy"), money(b)])
    layout("ch-raiffeisen.csv", "account", "CH9300762011623852957", "CHF", sep=";",
           header=["IBAN", "Booked At", "Text", "Credit/Debit Amount", "Balance",
                   "Valuta Date"],
           make=lambda d, t, a, b: ["CH9300762011623852957", day(d, "yyyy-MM-dd")
                                    + " 00:00:00.0", t, money(a), money(b),
                                    day(d, "yyyy-MM-dd") + " 00:00:00.0"])
    layout("ch-neon.csv", "account", "CH9300762011623852957", "CHF", sep=";", quote=True,
           header=["Date", "Amount", "Original amount", "Original currency", "Exchange rate",
                   "Description", "Subject", "Category", "Tags", "Wise", "Spaces"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), money(a), "", "", "", t, "",
                                    "", "", "no", "no"])
    # Netherlands and Belgium
    layout("nl-sns.csv", "refused", "-", "EUR", note="balance before each booking: no proof", header=None,
           make=lambda d, t, a, b: [day(d, "dd-MM-yyyy"), "NL91ABNA0417164300", "", t, "",
                                    "", "", "EUR", money(b - a), "EUR", money(a),
                                    day(d, "dd-MM-yyyy"), day(d, "dd-MM-yyyy"), "0", "OVB",
                                    f"{d.day:09}", "", t, "0"])
    layout("nl-triodos.csv", "none", "NL91ABNA0417164300", "EUR",
           note="no header: the account from a column of one IBAN, the sign from a Credit/Debet column",
           quote=True, header=None,
           make=lambda d, t, a, b: [day(d, "dd-MM-yyyy"), "NL91ABNA0417164300",
                                    money(abs(a), dec=",", thou="."),
                                    "Credit" if a > 0 else "Debet", t, "", "IC", "", t])
    layout("nl-knab.csv", "none", "-", "EUR", sep=";",
           preamble=["KNAB EXPORT"],
           header=["Rekeningnummer", "Transactiedatum", "Valutacode", "CreditDebet",
                   "Bedrag", "Tegenrekeningnummer", "Tegenrekeninghouder", "Valutadatum",
                   "Betaalwijze", "Omschrijving", "Type betaling", "Machtigingsnummer",
                   "Incassant ID", "Adres", "Referentie", "Boekdatum"],
           make=lambda d, t, a, b: ["NL91ABNA0417164300", day(d, "dd-MM-yyyy"), "EUR",
                                    "C" if a > 0 else "D", money(abs(a), dec=","), "", t,
                                    day(d, "dd-MM-yyyy"), "Overboeking", t, "", "", "", "",
                                    "", day(d, "dd-MM-yyyy")])
    layout("nl-asn.csv", "refused", "-", "EUR", note="balance before each booking: no proof", header=None,
           make=lambda d, t, a, b: [day(d, "dd-MM-yyyy"), "NL91ABNA0417164300", "", t, "",
                                    "", "", "EUR", money(b - a), "EUR", money(a),
                                    day(d, "dd-MM-yyyy"), day(d, "dd-MM-yyyy"), "9820", "IOB",
                                    f"{d.day:08}", "", t, "1"])
    layout("be-kbc.csv", "none", "-", "EUR", sep=";",
           header=["Rekeningnummer", "Rubrieknaam", "Naam", "Munt", "Afschriftnummer",
                   "Datum", "Omschrijving", "Valuta", "Bedrag", "Saldo", "credit", "debet",
                   "rekeningnummer tegenpartij", "BIC tegenpartij", "Naam tegenpartij",
                   "Adres tegenpartij", "gestructureerde mededeling", "Vrije mededeling"],
           make=lambda d, t, a, b: ["BE68539007547034", "Zichtrekening", "J DOE", "EUR",
                                    "00010", day(d, "dd/MM/yyyy"), t, day(d, "dd/MM/yyyy"),
                                    money(a, dec=","), money(b, dec=","),
                                    money(a, dec=",") if a > 0 else "",
                                    money(a, dec=",") if a < 0 else "", "", "", t, "", "", t])
    layout("be-belfius.csv", "none", "-", "EUR", sep=";",
           preamble=["Boekingsdatum vanaf;01/10/2026", "Boekingsdatum tot en met;31/10/2026",
                     "Bedrag vanaf;", "Bedrag tot en met;", "Rekeninguittrekselnummer vanaf;",
                     "Rekeninguittrekselnummer tot en met;", "Mededeling;",
                     "Naam tegenpartij bevat;", "Rekening tegenpartij;", "Laatste saldo;2.212,95 EUR",
                     "Datum/uur van het laatste saldo;31/10/2026 12:00:00", ""],
           header=["Rekening", "Boekingsdatum", "Rekeninguittrekselnummer",
                   "Transactienummer", "Rekening tegenpartij", "Naam tegenpartij bevat",
                   "Straat en nummer", "Postcode en plaats", "Transactie", "Valutadatum",
                   "Bedrag", "Devies", "BIC", "Landcode", "Mededelingen"],
           make=lambda d, t, a, b: ["BE68539007547034", day(d, "dd/MM/yyyy"), "10",
                                    f"{d.day}", "", t, "", "", t, day(d, "dd/MM/yyyy"),
                                    money(a, dec=","), "EUR", "", "BE", t])
    layout("be-argenta.csv", "none", "-", "EUR", sep=";",
           header=["Nr v/d rekening", "Datum", "Ref. v/d verrichting", "Beschrijving",
                   "Bedrag v/d verrichting", "Munt", "Datum v. verrichting",
                   "Rekening tegenpartij", "Naam v/d tegenpartij :", "Mededeling 1 :",
                   "Mededeling 2 :"],
           make=lambda d, t, a, b: ["BE68539007547034", day(d, "dd-MM-yyyy"),
                                    f"B6J{d.day:02}", t, money(a, dec=","), "EUR",
                                    day(d, "dd-MM-yyyy"), "", t, "", ""])
    # France, Luxembourg
    layout("fr-societe-generale.csv", "account", "FR1420041010050500013M02606", "EUR",
           sep=";", preamble=["=\"0123456789\";Compte courant;", ""],
           header=["Date de l'opération", "Libellé", "Détail de l'écriture",
                   "Montant de l'opération", "Devise"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, t, money(a, dec=","), "EUR"])
    layout("fr-lcl.csv", "account", "FR1420041010050500013M02606", "EUR", sep=";",
           header=None,
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), money(a, dec=","), "Carte" if a < 0
                                    else "Virement", "", t, "", "", ""])
    layout("fr-la-banque-postale.csv", "account", "FR1420041010050500013M02606", "EUR",
           sep=";",
           preamble=["Numéro Compte   ;0123456X020", "Type             ;CCP",
                     "Compte tenu en  ;euros", "Date             ;31/10/2026",
                     "Solde (EUROS)   ;2212,95", "Solde (FRANCS)   ;", ""],
           header=["Date", "Libellé", "Montant(EUROS)", "Montant(FRANCS)"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, money(a, dec=","), ""])
    layout("fr-hellobank.csv", "account", "FR1420041010050500013M02606", "EUR", sep=";",
           header=["Date operation", "Categorie operation", "Sous Categorie operation",
                   "Libelle operation", "Montant operation"],
           make=lambda d, t, a, b: [day(d, "dd-MM-yyyy"), "Divers", "", t, E(a)])
    layout("fr-fortuneo.csv", "account", "FR1420041010050500013M02606", "EUR", sep=";",
           header=["Date opération", "Date valeur", "libellé", "Débit", "Crédit"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"), t,
                                    money(a, dec=",") if a < 0 else "",
                                    money(a, dec=",") if a > 0 else ""])
    layout("fr-cic.csv", "account", "FR1420041010050500013M02606", "EUR", sep=";",
           header=["Date", "Date de valeur", "Débit", "Crédit", "Libellé", "Solde"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"),
                                    money(a, dec=",") if a < 0 else "",
                                    money(a, dec=",") if a > 0 else "", t, money(b, dec=",")])
    layout("fr-qonto.csv", "account", "FR1420041010050500013M02606", "EUR", sep=";",
           header=["Status", "Settlement date (UTC)", "Operation date (UTC)", "Total amount (incl. VAT)",
                   "Currency", "Counterparty name", "Payment method", "Transaction ID",
                   "IBAN", "Reference", "Category", "Balance"],
           make=lambda d, t, a, b: ["Settled", day(d, "dd-MM-yyyy") + " 10:00:00",
                                    day(d, "dd-MM-yyyy") + " 09:00:00", money(a, dec=","),
                                    "EUR", t, "Transfer", f"q-{d.day:02}",
                                    "FR1420041010050500013M02606", "", "", money(b, dec=",")])
    layout("lu-bgl.csv", "account", "LU280019400644750000", "EUR", sep=";",
           header=["Date comptable", "Description", "Montant", "Devise", "Date valeur"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, E(a), "EUR",
                                    day(d, "dd/MM/yyyy")])
    # Spain and Portugal
    layout("es-caixabank.csv", "account", "ES9121000418450200051332", "EUR", sep=";",
           header=["Concepto", "Fecha", "Importe", "Saldo"],
           make=lambda d, t, a, b: [t, day(d, "dd/MM/yyyy"), E(a) + "EUR", E(b) + "EUR"])
    layout("es-sabadell.csv", "account", "ES9121000418450200051332", "EUR", sep="|",
           header=["F. Operativa", "Concepto", "F. Valor", "Importe", "Saldo", "Referencia 1",
                   "Referencia 2"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, day(d, "dd/MM/yyyy"),
                                    money(a, dec=","), money(b, dec=","), "", ""])
    layout("es-ing.csv", "none", "-", "EUR", sep=";",
           preamble=["Número de cuenta:;ES91 2100 0418 4502 0005 1332", "Titular:;JANE DOE", ""],
           header=["F. VALOR", "CATEGORÍA", "SUBCATEGORÍA", "DESCRIPCIÓN", "COMENTARIO",
                   "IMAGEN", "IMPORTE (€)", "SALDO (€)"], newest=True,
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), "Otros", "", t, "", "",
                                    money(a, dec=","), money(b, dec=",")])
    layout("es-openbank.csv", "account", "ES9121000418450200051332", "EUR", sep=";",
           header=["Fecha Operación", "Fecha Valor", "Concepto", "Importe", "Saldo"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"), t, E(a), E(b)])
    layout("es-bankinter.csv", "account", "ES9121000418450200051332", "EUR", sep=";",
           header=["FECHA CONTABLE", "FECHA VALOR", "DESCRIPCIÓN", "IMPORTE", "SALDO"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"), t, E(a), E(b)])
    layout("pt-cgd.csv", "account", "PT50000201231234567890154", "EUR", sep=";",
           header=["Data mov.", "Data valor", "Descrição", "Débito", "Crédito",
                   "Saldo contabilístico", "Saldo disponível", "Categoria"],
           make=lambda d, t, a, b: [day(d, "dd-MM-yyyy"), day(d, "dd-MM-yyyy"), t,
                                    *dc(a, dec=",", thou="."), E(b), E(b), ""])
    layout("pt-millennium.csv", "account", "PT50000201231234567890154", "EUR", sep=";",
           header=["Data lançamento", "Data valor", "Descrição", "Montante", "Tipo", "Saldo"],
           make=lambda d, t, a, b: [day(d, "dd-MM-yyyy"), day(d, "dd-MM-yyyy"), t,
                                    money(abs(a), dec=","), "Crédito" if a > 0 else "Débito",
                                    money(b, dec=",")])
    # Italy
    layout("it-unicredit.csv", "account", "IT60X0542811101000000123456", "EUR", sep=";",
           header=["Data Registrazione", "Data Valuta", "Descrizione", "Importo (EUR)"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), day(d, "dd.MM.yyyy"), t, E(a)])
    layout("it-n26.csv", "account", "IT60X0542811101000000123456", "EUR",
           header=["Booking Date", "Value Date", "Partner Name", "Partner Iban", "Type",
                   "Payment Reference", "Account Name", "Amount (EUR)",
                   "Original Amount", "Original Currency", "Exchange Rate"], quote=True,
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), day(d, "yyyy-MM-dd"), t, "",
                                    "Credit Transfer" if a > 0 else "Presentment", "",
                                    "Main Account", money(a), "", "", ""])
    layout("it-bper.csv", "account", "IT60X0542811101000000123456", "EUR", sep=";",
           header=["Data contabile", "Data valuta", "Dare", "Avere", "Descrizione"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"),
                                    *dc(a, dec=",", thou="."), t])
    layout("it-hype.csv", "account", "IT60X0542811101000000123456", "EUR",
           header=["Data operazione", "Data contabile", "Tipologia", "Nome", "Descrizione",
                   "Importo ( € )"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"),
                                    "Bonifico" if a > 0 else "Pagamento", t, t, money(a)])
    # Nordic countries
    layout("no-dnb.csv", "account", "NO9386011117947", "NOK", sep=";",
           header=["Dato", "Forklaring", "Rentedato", "Ut fra konto", "Inn på konto"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), t, day(d, "dd.MM.yyyy"),
                                    *dc(a, dec=",")])
    layout("no-sparebank1.csv", "account", "NO9386011117947", "NOK", sep=";",
           header=["Dato", "Beskrivelse", "Rentedato", "Inn", "Ut", "Til konto", "Fra konto"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), t, day(d, "dd.MM.yyyy"),
                                    money(a, dec=",") if a > 0 else "",
                                    money(a, dec=",") if a < 0 else "", "", ""])
    layout("fi-op.csv", "account", "FI2112345600000785", "EUR", sep=";",
           header=["Kirjauspäivä", "Arvopäivä", "Määrä EUROA", "Laji", "Selitys",
                   "Saaja/Maksaja", "Saajan tilinumero", "Saajan pankin BIC", "Viite",
                   "Viesti", "Arkistointitunnus"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), day(d, "dd.MM.yyyy"),
                                    money(a, dec=",", plus=True), "106", "TILISIIRTO", t, "",
                                    "", "", "", f"2026{d.day:02}"])
    layout("fi-nordea.csv", "account", "FI2112345600000785", "EUR", sep=";",
           header=["Kirjauspäivä", "Määrä", "Maksaja", "Maksunsaaja", "Nimi", "Otsikko",
                   "Viitenumero", "Valuutta"],
           make=lambda d, t, a, b: [day(d, "yyyy/MM/dd"), money(a, dec=","), "", "", t, t,
                                    "", "EUR"])
    layout("se-handelsbanken.csv", "account", "SE4550000000058398257466", "SEK", sep=";",
           header=["Reskontradatum", "Transaktionsdatum", "Text", "Belopp", "Saldo"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), day(d, "yyyy-MM-dd"), t,
                                    money(a, dec=","), money(b, dec=",")])
    layout("se-seb.csv", "account", "SE4550000000058398257466", "SEK", sep=";",
           header=["Bokföringsdatum", "Valutadatum", "Verifikationsnummer", "Text",
                   "Belopp", "Saldo"], newest=True,
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), day(d, "yyyy-MM-dd"),
                                    f"5484{d.day:02}", t, money(a), money(b)])
    layout("dk-nordea.csv", "account", "DK5000400440116243", "DKK", sep=";",
           header=["Bogføringsdato", "Beløb", "Afsender", "Modtager", "Navn", "Beskrivelse",
                   "Saldo", "Valuta"],
           make=lambda d, t, a, b: [day(d, "yyyy/MM/dd"), money(a, dec=","), "", "", t, t,
                                    money(b, dec=","), "DKK"])
    layout("dk-lunar.csv", "account", "DK5000400440116243", "DKK",
           header=["Date", "Text", "Amount", "Balance", "Currency"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), t, money(a), money(b), "DKK"])
    # Poland and Czechia
    layout("pl-mbank.csv", "account", "PL61109010140000071219812874", "PLN", sep=";",
           header=["#Data operacji", "#Opis operacji", "#Rachunek", "#Kategoria", "#Kwota",
                   "#Saldo po operacji"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), t, "eKonto 1234", "Inne",
                                    money(a, dec=",", thou=" ") + " PLN",
                                    money(b, dec=",", thou=" ") + " PLN"])
    layout("pl-pko.csv", "account", "PL61109010140000071219812874", "PLN",
           header=["Data operacji", "Data waluty", "Typ transakcji", "Kwota", "Waluta",
                   "Saldo po transakcji", "Opis transakcji"], quote=True,
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), day(d, "yyyy-MM-dd"),
                                    "Przelew" if a > 0 else "Płatność kartą",
                                    money(a, plus=True), "PLN", money(b, plus=True), t])
    layout("pl-ing.csv", "account", "PL61109010140000071219812874", "PLN", sep=";",
           header=["Data transakcji", "Data księgowania", "Dane kontrahenta", "Tytuł",
                   "Nr rachunku", "Nazwa banku", "Szczegóły", "Nr transakcji",
                   "Kwota transakcji (waluta rachunku)", "Waluta", "Saldo po transakcji",
                   "Waluta"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), day(d, "yyyy-MM-dd"), t, t, "", "",
                                    "", f"'{d.day:06}'", money(a, dec=","), "PLN",
                                    money(b, dec=","), "PLN"])
    layout("cz-fio.csv", "account", "CZ6508000000192000145399", "CZK", sep=";",
           header=["ID operace", "Datum", "Objem", "Měna", "Protiúčet", "Název protiúčtu",
                   "Kód banky", "Název banky", "KS", "VS", "SS", "Poznámka",
                   "Zpráva pro příjemce", "Typ", "Provedl", "Upřesnění", "Komentář", "BIC",
                   "ID pokynu"],
           make=lambda d, t, a, b: [f"2400{d.day:02}", day(d, "dd.MM.yyyy"),
                                    money(a, dec=","), "CZK", "", t, "", "", "", "", "", t,
                                    "", "Platba kartou" if a < 0 else "Příjem", "", "", "",
                                    "", ""])
    # Asia, Africa and Latin America
    layout("sg-dbs.csv", "account", "name:dbs-savings", "SGD",
           preamble=["Account Details For:,POSB Savings Account 123-45678-9",
                     "Statement as at:,31 Oct 2026", "Available Balance:,2212.95",
                     "Ledger Balance:,2212.95", ""],
           header=["Transaction Date", "Reference", "Debit Amount", "Credit Amount",
                   "Transaction Ref1", "Transaction Ref2", "Transaction Ref3"],
           make=lambda d, t, a, b: [day(d, "dd MMM yyyy"), "POS" if a < 0 else "ICT",
                                    *dc(a), t, "", ""])
    layout("sg-ocbc.csv", "account", "name:ocbc-360", "SGD",
           preamble=["Account details for:,360 Account 123-456789-001", "Available Balance,2212.95",
                     "Ledger Balance,2212.95", "", "Transaction History"],
           header=["Transaction date", "Value date", "Description", "Withdrawals (SGD)",
                   "Deposits (SGD)"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"), t, *dc(a)])
    layout("hk-hsbc.csv", "account", "name:hsbc-hk", "HKD", header=None,
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, money(a)])
    layout("in-hdfc.csv", "account", "name:hdfc-savings", "INR",
           header=["Date", "Narration", "Value Dat", "Debit Amount", "Credit Amount",
                   "Chq/Ref Number", "Closing Balance"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yy"), t, day(d, "dd/MM/yy"),
                                    money(-a) if a < 0 else "0.00",
                                    money(a) if a > 0 else "0.00", f"{d.day:016}",
                                    money(b)])
    layout("in-icici.csv", "account", "name:icici-savings", "INR",
           header=["S No.", "Value Date", "Transaction Date", "Cheque Number",
                   "Transaction Remarks", "Withdrawal Amount (INR )", "Deposit Amount (INR )",
                   "Balance (INR )"],
           make=lambda d, t, a, b: [str(d.day), day(d, "dd/MM/yyyy"), day(d, "dd/MM/yyyy"),
                                    "-", t, money(-a) if a < 0 else "0.0",
                                    money(a) if a > 0 else "0.0", money(b)])
    layout("jp-rakuten.csv", "account", "name:rakuten-bank", "JPY",
           header=["取引日", "入出金(円)", "残高(円)", "入出金先内容"],
           make=lambda d, t, a, b: [day(d, "yyyyMMdd"), str(int(a * 100)), str(int(b * 100)), t])
    layout("za-fnb.csv", "refused", "-", "ZAR", note="record-type numbers before the header",
           preamble=["2,Name:,Jane Doe", "3,Account:,62123456789 Cheque Account",
                     "4,Balance:,2212.95,2212.95", ""],
           header=["5", "Number", "Date", "Description1", "Description2", "Description3",
                   "Amount", "Balance", "Accrued Charges"],
           make=lambda d, t, a, b: ["5", str(d.day), day(d, "yyyy/MM/dd"), t, "", "", money(a),
                                    money(b), "0.00"])
    layout("br-nubank.csv", "account", "name:nubank-conta", "BRL",
           header=["Data", "Valor", "Identificador", "Descrição"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), money(a), f"6a1b-{d.day:02}", t])
    layout("mx-bbva.csv", "account", "name:bbva-mx", "MXN", quote=True,
           header=["Fecha", "Descripción", "Cargo", "Abono", "Saldo"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, *dc(a, thou=","),
                                    money(b, thou=",")])
    # Apps, wallets and brokers
    layout("eu-n26-2024.csv", "account", "DE89370400440532013000", "EUR",
           header=["Booking Date", "Value Date", "Partner Name", "Partner Iban", "Type",
                   "Payment Reference", "Account Name", "Amount (EUR)", "Original Amount",
                   "Original Currency", "Exchange Rate"], quote=True,
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), day(d, "yyyy-MM-dd"), t, "",
                                    "Income" if a > 0 else "Presentment", "", "Main Account",
                                    money(a), "", "", ""])
    layout("eu-vivid.csv", "account", "name:vivid-eur", "EUR", sep=";",
           header=["Booking Date", "Value Date", "Type", "Description", "Amount", "Currency",
                   "Balance"],
           make=lambda d, t, a, b: [day(d, "dd.MM.yyyy"), day(d, "dd.MM.yyyy"),
                                    "Transfer" if a > 0 else "Card", t, money(a, dec=","),
                                    "EUR", money(b, dec=",")])
    layout("eu-curve.csv", "account", "card:curve/4242", "GBP", card=True,
           header=["Date", "Merchant", "Txn Amount (Funding Card)", "Txn Currency (Funding Card)",
                   "Txn Amount (Foreign Spend)", "Txn Currency (Foreign Spend)", "Card Name",
                   "Card Number", "Category", "Notes"],
           make=lambda d, t, a, b: [day(d, "dd/MM/yyyy"), t, money(-a), "GBP", "", "",
                                    "Curve", "4242", "General", ""])
    layout("eu-ibkr-cash.csv", "account", "name:ibkr-cash", "USD",
           header=["Date", "Description", "Amount", "Balance", "Currency"],
           make=lambda d, t, a, b: [day(d, "yyyy-MM-dd"), t, money(a), money(b), "USD"])
    layout("eu-paysera.csv", "account", "name:paysera-eur", "EUR",
           header=["Type", "Date", "Amount", "Currency", "Description", "Counterparty",
                   "Balance"],
           make=lambda d, t, a, b: ["Transfer", day(d, "yyyy-MM-dd") + " 10:00:00", money(a),
                                    "EUR", t, t, money(b)])
