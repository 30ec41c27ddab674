import Foundation
import Testing

@testable import StatementKit

struct ConcurrentWorkTests {
    /// A count shared between threads.
    final class Counter: @unchecked Sendable {
        // @unchecked: every access to `value` holds `lock`.
        private let lock = NSLock()
        private var value = 0

        func increment() { lock.withLock { value += 1 } }
        var current: Int { lock.withLock { value } }
    }

    @Test func `hands every item over in order, never more than its batches ahead`() {
        let produced = Counter()
        var consumed: [Int] = []
        var mostAhead = 0
        let output = produceConcurrently(batchSize: 7, depth: 2) { yield in
            for item in 0..<10_000 {
                produced.increment()
                yield(item)
            }
            return "done"
        } consume: { (item: Int) in
            consumed.append(item)
            mostAhead = max(mostAhead, produced.current - consumed.count)
        }
        #expect(output == "done")
        #expect(consumed == Array(0..<10_000))
        // Two batches waiting, one being filled, and the rest of the batch being consumed.
        #expect(mostAhead <= 4 * 7)
    }
}
