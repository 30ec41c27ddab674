"""Differential testing of the statements reader against independent readers (Scripts/differential).

For each format, generates seeded camt.053, MT940 and OFX files (differential-generate.py),
imports them all with one run of the built `statements` into a fresh ledger, reads each with an
independent oracle (lxml for camt.053 and OFX 2, `mt-940` for MT940, `ofxtools` for OFX 1), and
compares, per account: the number of booked transactions, their sum per currency and the closing
balance. A case fails when
  - both read the file and disagree on any account's count, sum or closing balance;
  - we import a file the generator made bad, or whose money fields the oracle rejects;
  - we refuse a legal file that the oracle reads.
Probe files (one legal variation, or one defect, on a plain statement) name the failure classes
and are kept as minimal reproductions.
"""

import argparse
import collections
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import logging
import warnings
from decimal import Decimal

logging.disable(logging.CRITICAL)  # mt-940 logs every pattern it tries
warnings.filterwarnings("ignore")  # ofxtools warns of tags it skips

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("generate", os.path.join(HERE, "differential-generate.py"))
generate = importlib.util.module_from_spec(spec)
sys.modules["generate"] = generate
spec.loader.exec_module(generate)
DIGITS = generate.DIGITS


class MoneyReject(Exception):
    """The oracle refuses a money field of the file (not merely its other markup)."""


def check_money(text, currency, allow_sign, radix=".", where="amount"):
    """An amount's value from its text, refused (MoneyReject) unless it is a plain decimal
    with at most the currency's decimals."""
    if text is None:
        raise MoneyReject("%s missing" % where)
    stripped = text.strip()
    sign = "[+-]?" if allow_sign else "[+]?"
    pattern = r"%s(\d+(%s\d*)?|%s\d+)" % (sign, re.escape(radix), re.escape(radix)) \
        if len(radix) == 1 else r"%s(\d+([.,]\d*)?|[.,]\d+)" % sign
    if not re.fullmatch(pattern, stripped):
        raise MoneyReject("%s %r is not a decimal" % (where, text))
    value = Decimal(stripped.replace(",", "."))
    digits = DIGITS.get(currency)
    if digits is None:
        raise MoneyReject("unknown currency %r" % currency)
    if -value.as_tuple().exponent > digits and value != value.quantize(Decimal(1).scaleb(-digits)):
        raise MoneyReject("%s %r has more than %d decimals" % (where, text, digits))
    if value.as_tuple().exponent < -digits:
        raise MoneyReject("%s %r has more than %d decimals" % (where, text, digits))
    return int(value.scaleb(digits))


# MARK: - Oracles. Each returns {account key: {"count": {ccy: n}, "sum": {ccy: minor},
# "closing": minor or None}} or raises MoneyReject / another exception (unreadable).

def local(tag):
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def children(node, name):
    return [c for c in node if local(c.tag) == name]


def one(node, name, required=True):
    found = children(node, name)
    if len(found) > 1:
        raise MoneyReject("<%s> %d times in <%s>" % (name, len(found), local(node.tag)))
    if not found:
        if required:
            raise MoneyReject("<%s> missing in <%s>" % (name, local(node.tag)))
        return None
    return found[0]


def xml_text(node):
    return "".join(node.itertext()) if node is not None else None


def oracle_camt(path):
    from lxml import etree
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    root = etree.parse(path, parser).getroot()
    result = {}
    for stmt in root.iter():
        if local(stmt.tag) != "Stmt":
            continue
        acct = one(stmt, "Acct")
        iban = xml_text(one(one(acct, "Id"), "IBAN")).strip()
        opening = closing = None
        for bal in children(stmt, "Bal"):
            code = xml_text(one(one(one(bal, "Tp"), "CdOrPrtry"), "Cd")).strip()
            amt = one(bal, "Amt")
            value = check_money(xml_text(amt), amt.get("Ccy"), False, where="Bal/Amt")
            if xml_text(one(bal, "CdtDbtInd")).strip() == "DBIT":
                value = -value
            if code in ("OPBD", "PRCD"):
                opening = value
            elif code == "CLBD":
                closing = value
        counts, sums = collections.Counter(), collections.Counter()
        for ntry in children(stmt, "Ntry"):
            if any(local(n.tag) == "Ntry" for n in ntry.iter() if n is not ntry):
                raise MoneyReject("<Ntry> inside <Ntry>")
            amt = one(ntry, "Amt")
            ccy = amt.get("Ccy")
            value = check_money(xml_text(amt), ccy, False, where="Ntry/Amt")
            mark = xml_text(one(ntry, "CdtDbtInd")).strip()
            if mark not in ("CRDT", "DBIT"):
                raise MoneyReject("CdtDbtInd %r" % mark)
            status = xml_text(one(ntry, "Sts")).strip()
            if status != "BOOK":
                continue
            # A batch booking whose transactions carry amounts of their own is read as one
            # row per transaction (the README's "batch" rule); the sum is the entry's.
            parts = [t for d in children(ntry, "NtryDtls") for t in children(d, "TxDtls")]
            batch = len(parts) > 1 and all(one(t, "Amt", required=False) is not None
                                           for t in parts)
            counts[ccy] += len(parts) if batch else 1
            sums[ccy] += -value if mark == "DBIT" else value
        result[iban] = {"count": dict(counts), "sum": dict(sums), "closing": closing,
                        "opening": opening}
    return result


def oracle_mt940(path, case):
    import mt940
    data = open(path, "rb").read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252")
    # The envelope's blocks around block 4 are not MT940 fields.
    text = re.sub(r"\{1:[^\n]*\{4:\r?\n", "", text)
    text = re.sub(r"-\}[^\n]*", "-", text)
    options = mt940.Options(reversal_sign=True)
    result = {}
    for statement in mt940.parse_statements(text, options=options):
        account = statement.data.get("account_identification")
        currency = None
        counts, sums = collections.Counter(), collections.Counter()
        for transaction in statement:
            amount = transaction.data["amount"]
            currency = amount.currency
            counts[currency] += 1
            sums[currency] += int(amount.amount.scaleb(DIGITS[currency]))
        closing = statement.data.get("final_closing_balance") \
            or statement.data.get("intermediate_closing_balance")
        entry = result.setdefault(account, {"count": {}, "sum": {}, "closing": None})
        for ccy, n in counts.items():
            entry["count"][ccy] = entry["count"].get(ccy, 0) + n
            entry["sum"][ccy] = entry["sum"].get(ccy, 0) + sums[ccy]
        if closing is not None:
            entry["closing"] = int(closing.amount.amount.scaleb(DIGITS[closing.amount.currency]))
    return result


def oracle_ofx(path):
    data = open(path, "rb").read()
    if data.lstrip(b"\xef\xbb\xbf").lstrip().startswith(b"<?xml"):
        return oracle_ofx2(path)
    return oracle_ofx1(path)


def oracle_ofx1(path):
    from ofxtools.Parser import OFXTree
    tree = OFXTree()
    tree.parse(path)
    # Money fields first, from the raw elements: ofxtools rounds nothing, but checks no digits.
    for trn in tree.getroot().iter("STMTTRN"):
        amounts = trn.findall("TRNAMT")
        if len(amounts) != 1:
            raise MoneyReject("%d TRNAMT in STMTTRN" % len(amounts))
    try:
        ofx = tree.convert()
    except Exception as error:  # ofxtools refuses a value: a money field when it names one
        if "TRNAMT" in str(error) or "BALAMT" in str(error) or "Decimal" in str(error):
            raise MoneyReject(str(error)[:200])
        raise
    result = {}
    for stmt in ofx.statements:
        curdef = stmt.curdef
        counts, sums = collections.Counter(), collections.Counter()
        converted = collections.Counter()
        for trn in stmt.transactions:
            ccy = trn.currency.cursym if trn.currency is not None else curdef
            value = trn.trnamt
            rate = trn.currency.currate if trn.currency is not None else Decimal(1)
            converted[curdef] += int((value * rate).scaleb(DIGITS[curdef]))
            if -value.as_tuple().exponent > DIGITS[ccy] and value != value.quantize(
                    Decimal(1).scaleb(-DIGITS[ccy])):
                raise MoneyReject("TRNAMT %s has more than %d decimals" % (value, DIGITS[ccy]))
            counts[ccy] += 1
            sums[ccy] += int(value.scaleb(DIGITS[ccy]))
        closing = stmt.balance.balamt if stmt.balance is not None else None
        if closing is not None and -closing.as_tuple().exponent > DIGITS[curdef] and \
                closing != closing.quantize(Decimal(1).scaleb(-DIGITS[curdef])):
            raise MoneyReject("BALAMT %s" % closing)
        result[stmt.account.acctid] = {
            "count": dict(counts), "sum": dict(sums),
            "converted": {"count": {curdef: sum(counts.values())}, "sum": dict(converted)},
            "closing": int(closing.scaleb(DIGITS[curdef])) if closing is not None else None}
    return result


def oracle_ofx2(path):
    from lxml import etree
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    root = etree.parse(path, parser).getroot()
    result = {}
    for stmtrs in root.iter("STMTRS"):
        curdef = xml_text(one(stmtrs, "CURDEF")).strip()
        acct = xml_text(one(one(stmtrs, "BANKACCTFROM"), "ACCTID")).strip()
        counts, sums = collections.Counter(), collections.Counter()
        tranlist = one(stmtrs, "BANKTRANLIST", required=False)
        converted = collections.Counter()
        for trn in children(tranlist, "STMTTRN") if tranlist is not None else []:
            currency = one(trn, "CURRENCY", required=False)
            ccy = xml_text(one(currency, "CURSYM")).strip() if currency is not None else curdef
            value = check_money(xml_text(one(trn, "TRNAMT")), ccy, True, radix=".,",
                                where="TRNAMT")
            counts[ccy] += 1
            sums[ccy] += value
            rate = Decimal(xml_text(one(currency, "CURRATE")).strip()) \
                if currency is not None else Decimal(1)
            converted[curdef] += int((Decimal(value).scaleb(-DIGITS[ccy]) * rate)
                                     .scaleb(DIGITS[curdef]))
        closing = None
        ledger = one(stmtrs, "LEDGERBAL", required=False)
        if ledger is not None:
            closing = check_money(xml_text(one(ledger, "BALAMT")), curdef, True, radix=".,",
                                  where="BALAMT")
        result[acct] = {"count": dict(counts), "sum": dict(sums), "closing": closing,
                        "converted": {"count": {curdef: sum(counts.values())},
                                      "sum": dict(converted)}}
    return result


def run_oracle(fmt, path, case):
    try:
        if fmt == "camt":
            return "read", oracle_camt(path)
        if fmt == "mt940":
            return "read", oracle_mt940(path, case)
        return "read", oracle_ofx(path)
    except MoneyReject as error:
        return "money-reject", str(error)
    except Exception as error:
        return "unreadable", "%s: %s" % (type(error).__name__, str(error)[:200])


# MARK: - Our reader, batched

def run_statements(binary, folder, state):
    started = time.monotonic()
    imported = subprocess.run([binary, "import", "-f", "json", "--state", state, folder],
                              capture_output=True, text=True)
    if imported.returncode not in (0, 1):
        sys.exit("statements import exited %d: %s" % (imported.returncode, imported.stderr[-2000:]))
    report = json.loads(imported.stdout)
    outcomes = {os.path.basename(f["path"]): f for f in report["files"]}
    diagnostics = collections.defaultdict(list)
    for d in report.get("diagnostics", []):
        diagnostics[os.path.basename(d.get("file", d.get("path", "")))].append(d)
    accounts, rows = [], []
    if any(f.get("outcome") == "imported" for f in report["files"]):
        listed = subprocess.run([binary, "accounts", "-f", "json", "--state", state],
                                capture_output=True, text=True, check=True)
        accounts = json.loads(listed.stdout)
        register = subprocess.run([binary, "register", "-f", "json", "--state", state],
                                  capture_output=True, text=True, check=True)
        rows = json.loads(register.stdout)
    return outcomes, diagnostics, accounts, rows, time.monotonic() - started


def our_accounts(accounts, rows):
    ours = {}
    for account in accounts:
        ours[account["id"]] = {"count": {}, "sum": {}, "closing": account["balance"]["minorUnits"],
                               "currency": account.get("currency")}
    for row in rows:
        entry = ours.setdefault(row["account"], {"count": {}, "sum": {}, "closing": None})
        ccy = row["currency"]
        entry["count"][ccy] = entry["count"].get(ccy, 0) + 1
        entry["sum"][ccy] = entry["sum"].get(ccy, 0) + row["amount"]["minorUnits"]
    return ours


def our_id_for(fmt, case, key, ours):
    """Our account id of an oracle's account key."""
    if fmt == "mt940":
        mark = case.accounts.get(key) or case.accounts.get(key.strip())
        if mark is None:
            for raw, candidate in case.accounts.items():
                if key.replace(" ", "").startswith(raw.replace(" ", "")[:22]):
                    mark = candidate
        return mark
    if fmt == "ofx":
        for our_id in ours:
            if our_id.endswith("/" + key) or our_id.endswith("-" + key):
                return our_id
        return "aba:121000248/" + key
    return key


def compare(fmt, case, oracle, ours):
    """The differences between the oracle's accounts and ours, as text."""
    problems = []
    for key, theirs in sorted(oracle.items(), key=lambda item: str(item[0])):
        our_id = our_id_for(fmt, case, key, ours)
        mine = ours.get(our_id)
        if mine is None:
            problems.append("account %s: the oracle reads it (%s), we have no such account"
                            % (key, summary(theirs)))
            continue
        my_counts = {c: n for c, n in mine["count"].items() if n}
        my_sums = {c: s for c, s in mine["sum"].items() if my_counts.get(c)}
        # Amounts in another currency (OFX CURRENCY) may be kept in it or converted at their
        # rate into the account's: either reading agrees.
        readings = [theirs] + ([theirs["converted"]] if "converted" in theirs else [])
        matched = False
        for reading in readings:
            counts = {c: n for c, n in reading["count"].items() if n}
            sums = {c: s for c, s in reading["sum"].items() if counts.get(c)}
            matched = matched or (counts == my_counts and sums == my_sums)
        if not matched:
            their_counts = {c: n for c, n in theirs["count"].items() if n}
            if their_counts != my_counts:
                problems.append("account %s: count oracle %s, ours %s"
                                % (key, their_counts, my_counts))
            problems.append("account %s: sum oracle %s%s, ours %s" % (
                key, theirs["sum"], " (converted %s)" % theirs["converted"]["sum"]
                if "converted" in theirs else "", mine["sum"]))
        if case.compare_closing and theirs.get("closing") is not None \
                and theirs["closing"] != mine["closing"]:
            problems.append("account %s: closing oracle %s, ours %s"
                            % (key, theirs["closing"], mine["closing"]))
    return problems


def summary(account):
    return "count %s, sum %s, closing %s" % (account["count"], account["sum"], account.get("closing"))


# MARK: - Driver

def check_batch(fmt, batch, binary, folder, counts):
    """Writes a batch of cases, imports them with one run of `statements` into a fresh ledger,
    reads each with the oracle and returns (case, failure or None, file path) per case."""
    shutil.rmtree(folder, ignore_errors=True)
    files = os.path.join(folder, "files")
    os.makedirs(files)
    extension = generate.GENERATORS[fmt][3]
    paths = {}
    started = time.monotonic()
    for case in batch:
        name = "%s.%s" % (case.name, extension)
        with open(os.path.join(files, name), "wb") as out:
            out.write(case.data)
        paths[case.name] = name
    counts["generate"] += time.monotonic() - started
    outcomes, diagnostics, accounts, rows, seconds = run_statements(
        binary, files, os.path.join(folder, "ledger"))
    counts["statements"] += seconds
    ours = our_accounts(accounts, rows)
    started = time.monotonic()
    results = []
    for case in batch:
        name = paths[case.name]
        path = os.path.join(files, name)
        outcome = outcomes.get(name, {})
        imported = outcome.get("outcome") == "imported"
        codes = sorted({d.get("code", "?") for d in diagnostics.get(name, [])
                        if d.get("severity") == "error"})
        status, oracle = run_oracle(fmt, path, case)
        failure = None
        if case.bad:
            if imported:
                failure = "accepted bad money field (%s)" % case.bad
            else:
                counts["bad refused"] += 1
        elif status == "money-reject":
            if imported:
                failure = "accepted a file whose money fields the oracle rejects: %s" % oracle
            counts["oracle money rejects"] += 1
        elif status == "unreadable":
            counts["oracle unreadable"] += 1
        elif not outcome:
            failure = "skipped a legal file the oracle reads: not among the files imported"
        elif not imported:
            failure = "refused a legal file the oracle reads (%s)" % ", ".join(
                codes or ["%s, %d errors" % (outcome.get("outcome"), outcome.get("errors", 0))])
        else:
            problems = compare(fmt, case, oracle, ours)
            if problems:
                failure = "disagreement: " + "; ".join(problems[:3])
            else:
                counts["agree"] += 1
        results.append((case, failure, path))
    counts["oracle"] += time.monotonic() - started
    return results


def run_format(fmt, args, binary, work):
    counts = collections.Counter()
    keep = os.path.join(args.keep, fmt) if args.keep else None
    probes, failing, total = [], [], 0
    batch = []

    def flush():
        nonlocal total
        for case, failure, path in check_batch(fmt, batch, binary, os.path.join(work, fmt), counts):
            total += 1
            if case.name.startswith("probe-"):
                probes.append((case, failure))
            elif failure:
                failing.append((case, failure))
            if failure and keep:
                os.makedirs(keep, exist_ok=True)
                shutil.copy(path, keep)
        batch.clear()

    for case in generate.cases(fmt, args.seed, args.count, skip=set(args.skip or [])):
        batch.append(case)
        if len(batch) >= args.batch:
            flush()
    if batch:
        flush()
    failed = len(failing) + sum(1 for _, failure in probes if failure)
    print("%s: %d files (%d probes): %d agree, %d bad refused, %d failed; oracle unreadable %d, "
          "oracle money rejects %d; generate %.1fs, statements %.1fs, oracle %.1fs"
          % (fmt, total, len(probes), counts["agree"], counts["bad refused"], failed,
             counts["oracle unreadable"], counts["oracle money rejects"], counts["generate"],
             counts["statements"], counts["oracle"]))
    # Failure classes: the failing probes (one variation or one defect each) are the minimal
    # reproductions; a failing random file that no failing probe explains is listed itself.
    explained = set()
    for case, failure in probes:
        if failure:
            name = case.name[len("probe-"):]
            explained.add(frozenset(name.split("+")))
            print("  FAIL class %-26s %s.%s: %s" % (name, case.name, generate.GENERATORS[fmt][3],
                                                    failure[:300]))
    unexplained = [(case, failure) for case, failure in failing
                   if not any(names <= set(case.variations) | {case.bad} for names in explained)]
    kinds = collections.Counter(f.split(":")[0].split(" (")[0] for _, f in failing)
    for kind, n in kinds.most_common():
        print("  %d random files: %s" % (n, kind))
    for case, failure in unexplained[:args.show]:
        print("  FAIL %s [%s%s] %s" % (case.name, ",".join(case.variations),
                                       " bad=" + case.bad if case.bad else "", failure[:300]))
    if len(unexplained) > args.show:
        print("  … %d more failing files no single probe explains" % (len(unexplained) - args.show))
    return total - failed, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300, help="random files per format")
    parser.add_argument("--format", action="append", choices=["camt", "mt940", "ofx"])
    parser.add_argument("--skip", action="append", metavar="VARIATION",
                        help="leave out random files with this variation (default: test all)")
    parser.add_argument("--keep", metavar="DIR", help="copy failing files here")
    parser.add_argument("--show", type=int, default=10, help="failing files to list per format")
    parser.add_argument("--batch", type=int, default=2000,
                        help="files per run of statements (each batch into a fresh ledger)")
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", help="folder for the generated files (default: a temporary one)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="differential-")
    if args.work:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    passed = failed = 0
    try:
        for fmt in args.format or ["camt", "mt940", "ofx"]:
            ok, bad = run_format(fmt, args, args.binary, work)
            passed, failed = passed + ok, failed + bad
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
