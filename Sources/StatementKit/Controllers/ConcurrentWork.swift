import Foundation

/// A fixed number of result slots that concurrent jobs fill, each its own.
final class ConcurrentResults<Value>: @unchecked Sendable {
    // @unchecked: every access to `slots` holds `lock`.
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    subscript(index: Int) -> Value? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }

    /// The slots in order.
    var values: [Value?] { lock.withLock { slots } }
}

/// Hands out the indices 0..<count, each once, to concurrent workers.
final class WorkCounter: @unchecked Sendable {
    // @unchecked: every access to `next` holds `lock`.
    private let lock = NSLock()
    private var next = 0
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    /// The next index, or `nil` when all are taken.
    func take() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }
}
