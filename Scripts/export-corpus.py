#!/usr/bin/env python3
# Writes Tests/StatementKitTests/Fixtures/exports: bank exports in real banks layouts (researched
# from banks published formats and open-source importers), with the rows, not-booked rows and
# total each holds in expected.tsv. The expectations come from the values written here, never
# from the tool. Run: python3 Scripts/export-corpus.py
# Generates real-layout bank exports with known contents, and their expected totals.
import os, datetime
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "StatementKitTests", "Fixtures", "exports")
os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT): os.remove(os.path.join(OUT, f))
manifest = []

# rows: (date, cents, name, status) status None=booked, 'P' pending-like
BASE = [(datetime.date(2026,10,1), 250000, 'ACME PAYROLL'), (datetime.date(2026,10,3), -1250, 'COFFEE HOUSE'),
        (datetime.date(2026,10,13), -123456, 'LANDLORD RENT'), (datetime.date(2026,10,20), -4999, 'GROCERY MART'),
        (datetime.date(2026,10,28), 1000, 'REFUND SHOP')]
OPEN = 100000

def us(c, neg='-', sym='', grp=','):
    s = f"{abs(c)//100:,}".replace(',', grp) + f".{abs(c)%100:02d}"
    return (neg if c < 0 else '') + sym + s
def eu(c, grp='.', plus=''):
    s = f"{abs(c)//100:,}".replace(',', grp) + f",{abs(c)%100:02d}"
    return ('-' if c < 0 else plus) + s
def mdy(d): return d.strftime('%m/%d/%Y')
def dmy(d, sep='/'): return d.strftime(f'%d{sep}%m{sep}%Y')
MON_EN = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split()
def balances(rows, opening=OPEN):
    out=[]; b=opening
    for r in rows:
        b += r[1]; out.append(b)
    return out

def write(name, text, outcome, account='-', currency='-', rows=None, notbooked=0, encoding='utf-8', note=''):
    data = text.encode(encoding)
    open(os.path.join(OUT, name), 'wb').write(data)
    if outcome == 'refused':
        manifest.append((name, outcome, account, currency, 0, 0, 0, '-', note))
    else:
        total = sum(r[1] for r in rows)
        cur = currency
        manifest.append((name, outcome, account, cur, len(rows), notbooked, total, '-', note))

R = BASE
bal = balances(R)

# --- US ---
# Chase checking: newest first, trailing comma on rows, Details DEBIT/CREDIT, Balance.
lines = ['Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #']
for (d,c,n),b in reversed(list(zip(R,bal))):
    lines.append(f"{'CREDIT' if c>0 else 'DEBIT'},{mdy(d)},\"{n}\",{us(c,grp='')},{'ACH_CREDIT' if c>0 else 'DEBIT_CARD'},{us(b,grp='')},,")
write('us-chase-checking.csv', '\r\n'.join(lines)+'\r\n', 'account', 'aba:021000021/123456789', 'USD', R)
# Chase credit card: charges negative, Type Sale/Payment.
card = [(datetime.date(2026,10,2), -4512, 'AMAZON MKTPLACE'), (datetime.date(2026,10,5), -1299, 'NETFLIX.COM'),
        (datetime.date(2026,10,9), -8820, 'SHELL OIL'), (datetime.date(2026,10,15), 50000, 'Payment Thank You-Mobile'),
        (datetime.date(2026,10,21), -2375, 'UBER EATS'), (datetime.date(2026,10,24), 1299, 'NETFLIX.COM REFUND')]
lines = ['Transaction Date,Post Date,Description,Category,Type,Amount,Memo']
for d,c,n in card:
    lines.append(f"{mdy(d)},{mdy(d+datetime.timedelta(days=1))},{n},Shopping,{'Payment' if c>0 and 'Payment' in n else ('Return' if c>0 else 'Sale')},{us(c,grp='')},")
write('us-chase-card.csv', '\n'.join(lines)+'\n', 'account', 'card:chase/4417', 'USD', card)
# Amex: charges positive.
lines = ['Date,Description,Card Member,Account #,Amount']
for d,c,n in card:
    lines.append(f"{mdy(d)},{n},JANE DOE,-41004,{us(-c,grp='')}")
write('us-amex.csv', '\n'.join(lines)+'\n', 'account', 'card:amex/1004', 'USD', card)
# Discover: charges positive, Trans. Date.
lines = ['Trans. Date,Post Date,Description,Amount,Category']
for d,c,n in card:
    lines.append(f"{mdy(d)},{mdy(d)},{n},{us(-c,grp='')},{'Payments and Credits' if c>0 else 'Merchandise'}")
write('us-discover.csv', '\n'.join(lines)+'\n', 'account', 'card:discover/6011', 'USD', card)
# Capital One: Debit/Credit unsigned, ISO dates, Card No.
lines = ['Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit']
for d,c,n in card:
    lines.append(f"{d.isoformat()},{d.isoformat()},5678,{n},Other,{us(-c,grp='') if c<0 else ''},{us(c,grp='') if c>0 else ''}")
write('us-capital-one.csv', '\n'.join(lines)+'\n', 'account', 'card:capitalone/5678', 'USD', card)
# Citi: Status Cleared/Pending, Debit/Credit with credit negative.
cit = card + [(datetime.date(2026,10,30), -1500, 'PENDING CAFE')]
lines = ['Status,Date,Description,Debit,Credit']
for d,c,n in cit:
    st = 'Pending' if n.startswith('PENDING') else 'Cleared'
    lines.append(f"{st},{mdy(d)},\"{n}\",{us(-c,grp='') if c<0 else ''},{us(-c,grp='') if c>0 else ''}")
write('us-citi.csv', '\n'.join(lines)+'\n', 'account', 'card:citi/9012', 'USD', card, notbooked=1)
# Bank of America checking: summary preamble and a beginning-balance row with no amount.
lines = ['Description,,Summary Amt.', f'Beginning balance as of 10/01/2026,,"{us(OPEN)}"', f'Total credits,,"{us(251000)}"',
         f'Total debits,,"{us(-129705)}"', f'Ending balance as of 10/31/2026,,"{us(bal[-1])}"', '',
         'Date,Description,Amount,Running Bal.', f'10/01/2026,Beginning balance as of 10/01/2026,,"{us(OPEN)}"']
for (d,c,n),b in zip(R,bal):
    lines.append(f'{mdy(d)},"{n}","{us(c)}","{us(b)}"')
write('us-bofa-checking.csv', '\n'.join(lines)+'\n', 'account', 'aba:026009593/4321098765', 'USD', R)
# Wells Fargo: no header at all.
lines = [f'"{mdy(d)}","{us(c,grp="")}","*","","{n}"' for d,c,n in R]
write('us-wells-fargo.csv', '\n'.join(lines)+'\n', 'refused', note='no header row')
# A US credit union with dollar signs and parentheses for debits.
lines = ['Date,Description,Amount,Balance']
for (d,c,n),b in zip(R,bal):
    a = f'(${us(-c)})' if c<0 else f'${us(c)}'
    lines.append(f'{mdy(d)},{n},"{a}","${us(b)}"')
write('us-credit-union-symbols.csv', '\n'.join(lines)+'\n', 'account', 'aba:211274450/998877', 'USD', R)

# --- UK ---
# Monzo: Transaction ID, Date dd/MM/yyyy, Time column, Amount, Currency.
lines = ['Transaction ID,Date,Time,Type,Name,Emoji,Category,Amount,Currency,Local amount,Local currency,Notes and #tags,Address,Receipt,Description,Category split,Money Out,Money In']
for i,(d,c,n) in enumerate(R):
    a = f"{c/100:.2f}"
    lines.append(f"tx_0000A{i}XYZ,{dmy(d)},09:1{i}:00,Card payment,{n},,general,{a},GBP,{a},GBP,,,,{n},,{a if c<0 else ''},{a if c>0 else ''}")
write('uk-monzo.csv', '\n'.join(lines)+'\n', 'account', 'sort-code:040004/12345678', 'GBP', R)
# Starling: Amount (GBP), Balance (GBP).
lines = ['Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes']
for (d,c,n),b in zip(R,bal):
    lines.append(f"{dmy(d)},{n},REF{d.day},FASTER PAYMENT,{c/100:.2f},{b/100:.2f},GENERAL,")
write('uk-starling.csv', '\n'.join(lines)+'\n', 'account', 'sort-code:608371/87654321', 'GBP', R)
# Barclays UK: Number, Date, Account (sort code + number), Amount, Subcategory, Memo.
lines = ['Number,Date,Account,Amount,Subcategory,Memo']
for (d,c,n) in R:
    lines.append(f",{dmy(d)},20-32-06 13152170,{c/100:.2f},{'Counter Credit' if c>0 else 'Debit'},{n}")
write('uk-barclays.csv', '\n'.join(lines)+'\n', 'account', 'sort-code:203206/13152170', 'GBP', R)
# Nationwide: preamble, month-name dates, £ amounts in Paid out / Paid in, Windows-1252.
lines = ['"Account Name:","FlexAccount ****12345"', f'"Account Balance:","£{us(bal[-1])}"', f'"Available Balance: ","£{us(bal[-1])}"', '',
         '"Date","Transaction type","Description","Paid out","Paid in","Balance"']
for (d,c,n),b in zip(R,bal):
    lines.append(f'"{d.day:02d} {MON_EN[d.month-1]} {d.year}","Payment","{n}","{"£"+us(-c) if c<0 else ""}","{"£"+us(c) if c>0 else ""}","£{us(b)}"')
write('uk-nationwide.csv', '\r\n'.join(lines)+'\r\n', 'account', 'sort-code:070116/12345678', 'GBP', R, encoding='cp1252')
# HSBC UK: no header.
lines = [f'{dmy(d)},"{n}",{us(c)}' for d,c,n in R]
write('uk-hsbc.csv', '\n'.join(lines)+'\n', 'refused', note='no header row')
# Revolut: Started/Completed Date with time, State, Fee, Currency, Balance.
rev = R + [(datetime.date(2026,10,30), -999, 'PENDING SHOP')]
lines = ['Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance']
b = OPEN
for d,c,n in rev:
    pend = n.startswith('PENDING')
    if not pend: b += c
    lines.append(f"CARD_PAYMENT,Current,{d.isoformat()} 10:00:00,{'' if pend else d.isoformat()+' 12:30:45'},{n},{c/100:.2f},0.00,EUR,{'PENDING' if pend else 'COMPLETED'},{'' if pend else f'{b/100:.2f}'}")
write('eu-revolut.csv', '\n'.join(lines)+'\n', 'account', 'name:revolut-eur', 'EUR', R, notbooked=1)
# Wise: TransferWise ID, dd-MM-yyyy, Running Balance.
lines = ['TransferWise ID,Date,Amount,Currency,Description,Payment Reference,Running Balance,Exchange From,Exchange To,Exchange Rate,Payer Name,Payee Name,Payee Account Number,Merchant,Card Last Four Digits,Card Holder Full Name,Attachment,Note,Total fees']
for i,((d,c,n),b) in enumerate(zip(R,bal)):
    lines.append(f"TRANSFER-10{i},{dmy(d,'-')},{c/100:.2f},EUR,\"{n}\",,{b/100:.2f},,,,,{n},,,,,,,0.00")
write('eu-wise.csv', '\n'.join(lines)+'\n', 'account', 'name:wise-eur', 'EUR', R)
# PayPal: Gross/Fee/Net, Status, Currency, Transaction ID, Balance.
lines = ['"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","From Email Address","To Email Address","Transaction ID","Balance"']
for i,((d,c,n),b) in enumerate(zip(R,bal)):
    lines.append(f'"{dmy(d)}","10:0{i}:00","CET","{n}","Payment","Completed","EUR","{eu(c)}","0,00","{eu(c)}","a@b.c","d@e.f","5XY{i}2345","{eu(b)}"')
write('eu-paypal.csv', '\n'.join(lines)+'\n', 'account', 'name:paypal-eur', 'EUR', R, note='Gross beside Net')

# --- CA ---
lines = ['Account Type,Account Number,Transaction Date,Cheque Number,Description 1,Description 2,CAD$,USD$']
for d,c,n in R:
    lines.append(f'Chequing,01234-5678901,{d.month}/{d.day}/{d.year},,"{n}",,{c/100:.2f},')
write('ca-rbc.csv', '\n'.join(lines)+'\n', 'refused', note='amounts in CAD$/USD$ columns')
lines = [f'{mdy(d)},{n},{us(-c,grp="") if c<0 else ""},{us(c,grp="") if c>0 else ""},{us(b,grp="")}' for (d,c,n),b in zip(R,bal)]
write('ca-td.csv', '\n'.join(lines)+'\n', 'refused', note='no header row')
lines = ['Date,Transaction,Name,Memo,Amount']
for d,c,n in R:
    lines.append(f'{d.month}/{d.day}/{d.year},{"DEPOSIT" if c>0 else "DEBIT"},{n},Ref {d.day},{c/100:.2f}')
write('ca-tangerine.csv', '\n'.join(lines)+'\n', 'account', 'name:tangerine-chequing', 'CAD', R)

# --- AU ---
lines = [f'{dmy(d)},"{"+" if c>0 else ""}{c/100:.2f}","{n}","+{b/100:.2f}"' for (d,c,n),b in zip(R,bal)]
write('au-commbank.csv', '\n'.join(lines)+'\n', 'refused', note='no header row')
lines = ['Bank Account,Date,Narrative,Debit Amount,Credit Amount,Balance,Categories,Serial']
for (d,c,n),b in zip(R,bal):
    lines.append(f'032000123456,{dmy(d)},{n},{-c/100 if c<0 else ""},{c/100 if c>0 else ""},{b/100:.2f},OTHER,')
write('au-westpac.csv', '\n'.join(lines)+'\n', 'account', 'bsb:032000/123456', 'AUD', R)

# --- NL ---
lines = ['"Datum";"Naam / Omschrijving";"Rekening";"Tegenrekening";"Code";"Af Bij";"Bedrag (EUR)";"Mutatiesoort";"Mededelingen";"Saldo na mutatie";"Tag"']
for (d,c,n),b in zip(R,bal):
    lines.append(f'"{d.strftime("%Y%m%d")}";"{n}";"NL91ABNA0417164300";"NL18RABO0123459876";"GT";"{"Bij" if c>0 else "Af"}";"{eu(abs(c),grp="")}";"Online bankieren";"Omschrijving {n}";"{eu(b,grp="")}";""')
write('nl-ing.csv', '\n'.join(lines)+'\n', 'none', rows=R, currency='EUR')
lines = ['"IBAN/BBAN","Munt","BIC","Volgnr","Datum","Rentedatum","Bedrag","Saldo na trn","Tegenrekening IBAN/BBAN","Naam tegenpartij","Naam uiteindelijke partij","Naam initiërende partij","BIC tegenpartij","Code","Batch ID","Transactiereferentie","Machtigingskenmerk","Incassant ID","Betalingskenmerk","Omschrijving-1","Omschrijving-2","Omschrijving-3","Reden retour","Oorspr bedrag","Oorspr munt","Koers"']
for i,((d,c,n),b) in enumerate(zip(R,bal)):
    lines.append(f'"NL18RABO0123459876","EUR","RABONL2U","000000000000007{i:03d}","{d.isoformat()}","{d.isoformat()}","{eu(c,grp="",plus="+")}","{eu(b,grp="",plus="+")}","","{n}","","","","bg","","","","","","{n}","","","","","",""')
write('nl-rabobank.csv', '\n'.join(lines)+'\n', 'none', rows=R, currency='EUR')
lines = ['"Date";"Interest Date";"Amount";"Account";"Counterparty";"Name";"Description"']
for d,c,n in R:
    lines.append(f'"{d.isoformat()}";"{d.isoformat()}";"{eu(c,grp="")}";"NL91ABNA0417164300";"NL18RABO0123459876";"{n}";"{n} payment"')
write('nl-bunq.csv', '\n'.join(lines)+'\n', 'none', rows=R, currency='EUR')
lines = [f'123456789\tEUR\t{d.strftime("%Y%m%d")}\t1000,00\t1000,00\t{d.strftime("%Y%m%d")}\t{eu(c,grp="")}\t{n}' for d,c,n in R]
write('nl-abnamro.tab.csv', '\n'.join(lines)+'\n', 'refused', note='no header row')

# --- DE ---
dk = R + [(datetime.date(2026,10,30), -2000, 'VORGEMERKT SHOP')]
lines = ['"Konto";"Girokonto DE89370400440532013000"', '""', f'"Kontostand vom 31.10.2026:";"{eu(bal[-1])} €"', '""',
         '"Buchungsdatum";"Wertstellung";"Status";"Zahlungspflichtige*r";"Zahlungsempfänger*in";"Verwendungszweck";"Umsatztyp";"IBAN";"Betrag (€)";"Gläubiger-ID";"Mandatsreferenz";"Kundenreferenz"']
for d,c,n in reversed(dk):
    st = 'Vorgemerkt' if n.startswith('VORGEMERKT') else 'Gebucht'
    ds = d.strftime('%d.%m.%y')
    lines.append(f'"{ds}";"{ds}";"{st}";"Max Mustermann";"{n}";"Zweck {n}";"{"Eingang" if c>0 else "Ausgang"}";"DE44500105175407324931";"{eu(c)}";"";"";""')
write('de-dkb.csv', '\n'.join(lines)+'\n', 'none', rows=R, currency='EUR', notbooked=1)
lines = [';', '"Umsätze Girokonto";"Zeitraum: 30 Tage";', f'"Neuer Kontostand";"{eu(bal[-1])} EUR";', '',
         '"Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR";']
for d,c,n in reversed(R):
    lines.append(f'"{dmy(d,".")}";"{dmy(d,".")}";"{"Gutschrift" if c>0 else "Lastschrift / Belastung"}";"Auftraggeber: {n} Buchungstext: {n}";"{eu(c)}";')
lines += ['', f'"Alter Kontostand";"{eu(OPEN)} EUR";']
write('de-comdirect.csv', '\n'.join(lines)+'\n', 'account', 'DE44500105175407324931', 'EUR', R, encoding='cp1252')
lines = ['"Date","Payee","Account number","Transaction type","Payment reference","Amount (EUR)","Amount (Foreign Currency)","Type Foreign Currency","Exchange Rate"']
for d,c,n in R:
    lines.append(f'"{d.isoformat()}","{n}","DE44500105175407324931","{"Income" if c>0 else "MasterCard Payment"}","-","{c/100:.2f}","","",""')
write('de-n26.csv', '\n'.join(lines)+'\n', 'account', 'DE89370400440532013000', 'EUR', R)
sp = R + [(datetime.date(2026,10,30), -3000, 'PENDING LASTSCHRIFT')]
lines = ['"Auftragskonto";"Buchungstag";"Valutadatum";"Buchungstext";"Verwendungszweck";"Glaeubiger ID";"Mandatsreferenz";"Kundenreferenz (End-to-End)";"Sammlerreferenz";"Lastschrift Ursprungsbetrag";"Auslagenersatz Ruecklastschrift";"Beguenstigter/Zahlungspflichtiger";"Kontonummer/IBAN";"BIC (SWIFT-Code)";"Betrag";"Waehrung";"Info"']
for d,c,n in sp:
    info = 'Umsatz vorgemerkt' if n.startswith('PENDING') else 'Umsatz gebucht'
    lines.append(f'"DE89370400440532013000";"{d.strftime("%d.%m.%y")}";"{d.strftime("%d.%m.%y")}";"FOLGELASTSCHRIFT";"{n}";"";"";"";"";"";"";"{n}";"DE44500105175407324931";"INGDDEFFXXX";"{eu(c,grp="")}";"EUR";"{info}"')
write('de-sparkasse-camt.csv', '\n'.join(lines)+'\n', 'none', rows=R, currency='EUR', notbooked=1)
lines = ['Umsätze Girokonto;;;;;;;;;;;;;;;;;', 'Kunde: Max Mustermann;;;;;;;;;;;;;;;;;', '01.10.2026 - 31.10.2026;;;;;;;;;;;;;;;;;', 'Letzter Kontostand;;;;;;;;;;;;;;;;;' , '',
         'Buchungstag;Wert;Umsatzart;Begünstigter / Auftraggeber;Verwendungszweck;IBAN;BIC;Kundenreferenz;Mandatsreferenz ;Gläubiger ID;Fremde Gebühren;Betrag;Abweichender Empfänger;Anzahl der Aufträge;Anzahl der Schecks;Soll;Haben;Währung']
for d,c,n in reversed(R):
    lines.append(f'{dmy(d,".")};{dmy(d,".")};SEPA-Überweisung;{n};Zweck;DE44500105175407324931;INGDDEFFXXX;;;;;;;;;{eu(c) if c<0 else ""};{eu(c) if c>0 else ""};EUR')
lines.append(f'Kontostand;31.10.2026;;;{eu(bal[-1])};EUR')
write('de-deutsche-bank.csv', '\n'.join(lines)+'\n', 'account', 'DE89370400440532013000', 'EUR', R, encoding='cp1252')

# --- CH ---
lines = ['Datum von:;2026-10-01', 'Buchungsart:;Alle Buchungen', 'Konto:;CH9300762011623852957', 'Währung:;CHF', '',
         'Buchungsdatum;Avisierungstext;Gutschrift in CHF;Lastschrift in CHF;Label;Kategorie']
for d,c,n in R:
    lines.append(f'{dmy(d,".")};{n};{c/100:.2f};;;' if c>0 else f'{dmy(d,".")};{n};;{c/100:.2f};;')
lines += ['', 'Disclaimer:', 'Dies ist kein durch PostFinance AG erstelltes Dokument.']
write('ch-postfinance.csv', '\n'.join(lines)+'\n', 'none', rows=R, currency='CHF')

# --- FR ---
lines = ['dateOp;dateVal;label;category;categoryParent;supplierFound;amount;comment;accountNum;accountLabel;accountbalance']
for d,c,n in R:
    lines.append(f'{d.isoformat()};{d.isoformat()};"{n}";"Divers";"Divers";"";{eu(c,grp=" ")};;00040123456;"Compte Courant";{eu(bal[-1],grp=" ")}')
write('fr-boursorama.csv', '\n'.join(lines)+'\n', 'account', 'FR7630006000011234567890189', 'EUR', R)
lines = ['Téléchargement du 31/10/2026;', '', 'CARTE X1234;', 'Compte de Dépôt carte n°12345678901;', f'Solde au 31/10/2026 {eu(bal[-1],grp=" ")} €;', '', 'Liste des opérations du compte entre le 01/10/2026 et le 31/10/2026;', '',
         'Date;Libellé;Débit euros;Crédit euros;']
for d,c,n in reversed(R):
    lines.append(f'{dmy(d)};"{n}";{eu(-c,grp=" ") if c<0 else ""};{eu(c,grp=" ") if c>0 else ""};')
write('fr-credit-agricole.csv', '\r\n'.join(lines)+'\r\n', 'account', 'FR1420041010050500013M02606', 'EUR', R, encoding='cp1252')
lines = ['Date operation;Categorie operation;Sous Categorie operation;Libelle operation;Montant operation']
for d,c,n in R:
    lines.append(f'{dmy(d)};Divers;Divers;{n};{eu(c,grp=" ")}')
write('fr-bnp.csv', '\n'.join(lines)+'\n', 'account', 'FR7630004000031234567890143', 'EUR', R)

# --- ES ---
lines = ['Cuenta;ES9121000418450200051332', '', 'FECHA OPERACIÓN;FECHA VALOR;CONCEPTO;IMPORTE EUR;SALDO']
for (d,c,n),b in zip(R,bal):
    lines.append(f'{dmy(d)};{dmy(d)};{n};{eu(c)};{eu(b)}')
write('es-santander.csv', '\n'.join(lines)+'\n', 'none', rows=R, currency='EUR')
lines = ['F.Valor;Fecha;Concepto;Movimiento;Importe;Divisa;Disponible;Divisa;Observaciones']
for (d,c,n),b in zip(R,bal):
    lines.append(f'{dmy(d)};{dmy(d)};{n};Pago;{eu(c)};EUR;{eu(b)};EUR;')
write('es-bbva.csv', '\n'.join(lines)+'\n', 'account', 'ES7921000813610123456789', 'EUR', R)

# --- IT ---
it = R + [(datetime.date(2026,10,30), -700, 'BAR NON CONTAB')]
lines = ['Data;Operazione;Dettagli;Conto o carta;Contabilizzazione;Categoria ;Valuta;Importo']
for d,c,n in it:
    st = 'NON CONTABILIZZATO' if 'NON CONTAB' in n else 'CONTABILIZZATO'
    lines.append(f'{dmy(d)};{n};Dettagli {n};Conto 1000/12345;{st};Altro;EUR;{eu(c)}')
write('it-intesa.csv', '\n'.join(lines)+'\n', 'account', 'IT60X0542811101000000123456', 'EUR', R, notbooked=1)
lines = ['Data Operazione;Data Valuta;Entrate;Uscite;Descrizione;Descrizione Completa;Stato;Moneymap']
for d,c,n in R:
    lines.append(f'{dmy(d)};{dmy(d)};{eu(c) if c>0 else ""};{eu(c) if c<0 else ""};{n};{n} completa;Contabilizzato;Altro')
write('it-fineco.csv', '\n'.join(lines)+'\n', 'account', 'IT36A0301503200000003517230', 'EUR', R)

# --- Nordic ---
lines = ['Bokföringsdag;Belopp;Avsändare;Mottagare;Namn;Rubrik;Saldo;Valuta']
for (d,c,n),b in zip(R,bal):
    lines.append(f'{d.strftime("%Y/%m/%d")};{eu(c,grp="")};;;{n};{n};{eu(b,grp="")};SEK')
write('se-nordea.csv', '\n'.join(lines)+'\n', 'account', 'SE4550000000058398257466', 'SEK', R)
lines = ['"Dato";"Tekst";"Beløb";"Saldo";"Status";"Afstemt"']
for (d,c,n),b in zip(R,bal):
    lines.append(f'"{dmy(d,".")}";"{n}";"{eu(c)}";"{eu(b)}";"Udført";"Nej"')
write('dk-danske.csv', '\n'.join(lines)+'\n', 'account', 'DK5000400440116243', 'DKK', R)
lines = ['* Transaktionsrapport Period 2026-10-01 – 2026-10-31 Skapad 2026-11-01 10:00 CET',
         'Radnummer,Clearingnummer,Kontonummer,Produkt,Valuta,Bokföringsdag,Transaktionsdag,Valutadag,Referens,Beskrivning,Belopp,Bokfört saldo']
for i,((d,c,n),b) in enumerate(zip(R,bal)):
    lines.append(f'{i+1},8327-9,123456789,Privatkonto,SEK,{d.isoformat()},{d.isoformat()},{d.isoformat()},"{n}","{n}",{c/100:.2f},{b/100:.2f}')
write('se-swedbank.csv', '\n'.join(lines)+'\n', 'account', 'SE3550000000054910000003', 'SEK', R)

with open(os.path.join(OUT, 'expected.tsv'), 'w') as f:
    f.write('# file\toutcome (none: no profile; account: only the account; refused)\taccount\tcurrency\trows\tnot booked\ttotal (minor units)\t-\tnote\n')
    for m in manifest: f.write('\t'.join(str(x) for x in m) + '\n')
print(len(manifest), 'files')
