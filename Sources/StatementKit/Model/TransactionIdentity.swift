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
        var transactionID = transactionID
        self = transactionID.withUTF8 {
            TransactionIdentity(account: account, transactionID: UnsafeRawBufferPointer($0))
        }
    }

    /// The identity of a transaction with the bank's transaction id, given as its UTF-8.
    init(account: AccountID, transactionID: UnsafeRawBufferPointer) {
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
    init(prefix: StableHasher, transactionID: UnsafeRawBufferPointer) {
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
        hasher.combine(fields.description ?? UnsafeRawBufferPointer(start: nil, count: 0))
        hasher.combine(fields.description == nil ? 0 : 1)
        hasher.combine(UInt64(fields.amount.currency.packedCode))
        hasher.combine(fields.reference ?? UnsafeRawBufferPointer(start: nil, count: 0))
        hasher.combine(fields.reference == nil ? 0 : 1)
        return hasher.value
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
        var occurrences: [UInt64: Int] = [:]
        return transactions.map { transaction in
            let occurrence: Int
            if transaction.transactionID == nil {
                let content = TransactionIdentity.contentHash(transaction)
                occurrence = occurrences[content, default: 0] + 1
                occurrences[content] = occurrence
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

/// 64-bit FNV-1a, with every field length-prefixed so that `("ab", "c")` and `("a", "bc")` differ.
struct StableHasher {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    private mutating func byte(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// Feeds the number's eight bytes, least significant first.
    mutating func combine(_ number: UInt64) {
        // A zero byte only multiplies by the prime (`x ^ 0 == x`), so the zero bytes above the
        // highest set one (most of them: lengths, flags, dates) are one multiplication by a
        // power of the prime: the same value, fewer steps.
        var rest = number
        var fed = 0
        while rest != 0 {
            byte(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
            fed += 1
        }
        value = value &* Self.primePowers[8 - fed]
    }

    /// The FNV prime to the powers 0 through 8, modulo 2⁶⁴.
    private static let primePowers: [UInt64] = (0...8).map { power in
        (0..<power).reduce(1) { product, _ in product &* 0x0000_0100_0000_01B3 }
    }

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        combine(UInt64(bytes.count))
        for value in bytes { byte(value) }
    }
}

/// A running 64-bit FNV-1a checksum of a byte stream, continued as the stream grows: the
/// checksum of a file's committed bytes after an append is the old checksum fed the new bytes.
package struct Checksum: Hashable, Sendable {
    /// The checksum of no bytes.
    package static let empty = Checksum(value: 0xCBF2_9CE4_8422_2325)

    package private(set) var value: UInt64

    package init(value: UInt64) {
        self.value = value
    }

    /// Continues the checksum over more bytes.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var value = self.value
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        self.value = value
    }

    /// Continues the checksum over more bytes.
    package mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// The checksum of some bytes.
    package static func of(_ bytes: [UInt8]) -> Checksum {
        var checksum = Checksum.empty
        checksum.feed(bytes)
        return checksum
    }

    /// The checksum of a text's UTF-8.
    package static func of(_ text: Substring.UTF8View) -> Checksum {
        var checksum = Checksum.empty
        for byte in text {
            checksum.value = (checksum.value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return checksum
    }

    /// The checksum as 16 hexadecimal digits.
    package var hexText: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Reads 16 hexadecimal digits.
    package init?(hexText: some StringProtocol) {
        guard hexText.utf8.count == 16, let value = UInt64(hexText, radix: 16) else { return nil }
        self.value = value
    }
}
