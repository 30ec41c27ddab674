/// The identity of a transaction within the ledger, used to import each one exactly once.
///
/// `(account, transaction id)` when the bank gives a transaction id; otherwise
/// `(account, date, amount, currency, beneficiary, description, reference, n)`, where `n`
/// counts identical rows within one file, so that two identical coffees on one day stay two.
/// A payment reference is content, not identity: two bookings may share one. The identity is kept as
/// a stable 64-bit FNV-1a hash of those fields (never Swift's per-process seeded `Hasher`), so
/// it can be stored; the chance that two of an account-month's transactions collide is below
/// 10⁻¹².
package struct TransactionIdentity: Hashable, Sendable {
    /// The stored hash.
    package let hash: UInt64

    /// Whether the identity is the bank's transaction id (it then does not depend on the date).
    package let isTransactionID: Bool

    init(hash: UInt64, isTransactionID: Bool) {
        self.hash = hash
        self.isTransactionID = isTransactionID
    }

    /// The identity of a transaction; `occurrence` is `n`, counted from 1, and only matters
    /// when the transaction has no transaction id.
    package init(account: AccountID, transaction: Transaction, occurrence: Int) {
        if let id = transaction.transactionID {
            self.init(account: account, transactionID: id)
        } else {
            self.init(
                account: account, contentHash: TransactionIdentity.contentHash(transaction),
                occurrence: occurrence)
        }
    }

    /// The identity of a transaction with the bank's transaction id.
    init(account: AccountID, transactionID: String) {
        self.init(account: account, transactionID: transactionID.utf8.span)
    }

    /// The identity of a transaction with the bank's transaction id, given as its UTF-8.
    init(account: AccountID, transactionID: Span<UInt8>) {
        self.init(prefix: Self.transactionIDPrefix(account), transactionID: transactionID)
    }

    /// What the identity of a transaction id hashes before the id: the same for every id
    /// of an account, so that a reader of many works it out once.
    static func transactionIDPrefix(_ account: AccountID) -> StableHasher {
        var hasher = StableHasher()
        account.withBytes { hasher.combine($0) }
        hasher.combine(0x54)  // "T": a transaction id identity
        return hasher
    }

    /// The identity of a transaction id given as its UTF-8, after its account's
    /// `transactionIDPrefix`.
    init(prefix: StableHasher, transactionID: Span<UInt8>) {
        var hasher = prefix
        hasher.combine(transactionID)
        self.init(hash: hasher.value, isTransactionID: true)
    }

    /// The identity of the `occurrence`-th row of a file with the given `contentHash`.
    init(account: AccountID, contentHash: UInt64, occurrence: Int) {
        self.init(
            prefix: Self.contentPrefix(account), contentHash: contentHash, occurrence: occurrence)
    }

    /// What the identity of a row without transaction id hashes before its content: the
    /// same for every row of an account.
    static func contentPrefix(_ account: AccountID) -> StableHasher {
        var hasher = StableHasher()
        account.withBytes { hasher.combine($0) }
        hasher.combine(0x43)  // "C": a content identity
        return hasher
    }

    /// The identity of the `occurrence`-th row with the given `contentHash`, after its
    /// account's `contentPrefix`.
    init(prefix: StableHasher, contentHash: UInt64, occurrence: Int) {
        var hasher = prefix
        hasher.combine(contentHash)
        hasher.combine(UInt64(occurrence))
        self.init(hash: hasher.value, isTransactionID: false)
    }

    /// A hash of the fields that make two rows without transaction id identical.
    package static func contentHash(_ transaction: Transaction) -> UInt64 {
        transaction.withFields { contentHash($0) }
    }

    /// A hash of the fields that make two rows without transaction id identical.
    static func contentHash(_ fields: TransactionFields) -> UInt64 {
        let date = fields.date
        var hasher = StableHasher()
        hasher.combine(UInt64(date.year * 10_000 + date.month * 100 + date.day))
        hasher.combine(UInt64(bitPattern: fields.amount.minorUnits))
        hasher.combine(fields.beneficiary)
        hasher.combine(fields.description)
        hasher.combine(fields.description == nil ? 0 : 1)
        hasher.combine(UInt64(fields.amount.currency.packedCode))
        hasher.combine(fields.reference)
        hasher.combine(fields.reference == nil ? 0 : 1)
        return hasher.value
    }

    /// Numbers identical rows without transaction id in the order they come: 1 for the
    /// first of a content hash, 2 for the next, and so on. Most rows are unique, so it keeps
    /// the set of hashes seen (8 bytes a row, where a count for each took 16) and counts only
    /// those seen again; and most account-months hold a few rows, so the first four hashes
    /// are kept in place, not in a set of their own (a first import at a bank's scale counts
    /// millions of account-months of three rows).
    struct OccurrenceCounter {
        private var first: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        private var firstCount = 0
        private var seen = HashSet64()
        private var repeats: [UInt64: Int] = [:]

        /// The occurrence of a row with this content hash: one more than the rows before it.
        mutating func next(_ content: UInt64) -> Int {
            if insert(content) { return 1 }
            let occurrence = repeats[content, default: 1] + 1
            repeats[content] = occurrence
            return occurrence
        }

        /// Notes a hash; whether it is new.
        private mutating func insert(_ content: UInt64) -> Bool {
            let count = firstCount
            if (count > 0 && first.0 == content) || (count > 1 && first.1 == content)
                || (count > 2 && first.2 == content) || (count > 3 && first.3 == content)
            {
                return false
            }
            switch count {
            case 0: first.0 = content
            case 1: first.1 = content
            case 2: first.2 = content
            case 3: first.3 = content
            default: return seen.insert(content)
            }
            firstCount += 1
            return true
        }
    }

    /// Appends one entry of an identity index (`.idx`): the identity hash and the amount
    /// check, 8 bytes each, little-endian.
    static func appendEntry(hash: UInt64, amountCheck: UInt64, to bytes: inout [UInt8]) {
        bytes.append(littleEndian: hash)
        bytes.append(littleEndian: amountCheck)
    }

    /// The identity entries of an account-month's stored transactions, in order: identical
    /// rows without transaction id are numbered in the order the ledger holds them, as one
    /// file would number them; the amount check is 0 for them, as no conflict concerns them.
    static func entries(of transactions: [Transaction], account: AccountID)
        -> [(hash: UInt64, amountCheck: UInt64)]
    {
        var occurrences = OccurrenceCounter()
        return transactions.map { transaction in
            let occurrence: Int
            if transaction.transactionID == nil {
                occurrence = occurrences.next(TransactionIdentity.contentHash(transaction))
            } else {
                occurrence = 1
            }
            return (
                TransactionIdentity(
                    account: account, transaction: transaction, occurrence: occurrence
                ).hash,
                transaction.transactionID == nil
                    ? 0 : TransactionIdentity.amountCheck(transaction.amount)
            )
        }
    }

    /// A hash of what must agree when a transaction id is found again: amount and currency;
    /// never 0, which an identity entry without transaction id stores instead.
    package static func amountCheck(_ amount: Money) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(UInt64(bitPattern: amount.minorUnits))
        hasher.combine(UInt64(amount.currency.packedCode))
        return hasher.value | 1
    }
}
