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

/// `transform` of each of the indices 0..<count, in order, worked out a run of `run` indices
/// at a time on every core (on the calling thread alone when there is one run).
func concurrentMap<Value>(count: Int, run: Int, _ transform: @Sendable (Int) -> Value) -> [Value] {
    let runs = (count + run - 1) / run
    let results = ConcurrentResults<[Value]>(count: runs)
    let work = { @Sendable (index: Int) in
        results[index] = ((index * run)..<min(count, (index + 1) * run)).map(transform)
    }
    if runs > 1 {
        DispatchQueue.concurrentPerform(iterations: runs, execute: work)
    } else {
        (0..<runs).forEach(work)
    }
    return results.values.flatMap { $0! }
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

/// Runs `produce` on another thread while the calling thread consumes what it yields, in
/// order: a producer and a consumer on two cores, with at most `depth` batches of
/// `batchSize` items waiting between them, so that memory stays bounded.
///
/// - Returns: what `produce` returns, once the consumer has taken every item.
func produceConcurrently<Item: Sendable, Output: Sendable>(
    batchSize: Int = 4096, depth: Int = 4,
    _ produce: @escaping @Sendable (_ yield: (Item) -> Void) -> Output, consume: (Item) -> Void
) -> Output {
    let handoff = Handoff<Item>(depth: depth)
    let output = ConcurrentResults<Output>(count: 1)
    DispatchQueue.global(qos: .userInitiated).async {
        var batch: [Item] = []
        batch.reserveCapacity(batchSize)
        output[0] = produce { item in
            batch.append(item)
            if batch.count == batchSize {
                handoff.put(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { handoff.put(batch) }
        handoff.finish()
    }
    while let batch = handoff.take() {
        for item in batch { consume(item) }
    }
    return output[0]!
}

/// Batches handed from one thread to another in order, at most `depth` of them waiting.
private final class Handoff<Item: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `batches` and `isFinished` holds `condition`.
    private let condition = NSCondition()
    private var batches: [[Item]] = []
    private var isFinished = false
    private let depth: Int

    init(depth: Int) {
        self.depth = depth
    }

    /// Adds a batch, waiting while `depth` batches wait.
    func put(_ batch: [Item]) {
        condition.withLock {
            while batches.count >= depth { condition.wait() }
            batches.append(batch)
            condition.broadcast()
        }
    }

    /// Says that no more batches come.
    func finish() {
        condition.withLock {
            isFinished = true
            condition.broadcast()
        }
    }

    /// The next batch, waiting for one; `nil` once all were taken.
    func take() -> [Item]? {
        condition.withLock {
            while batches.isEmpty && !isFinished { condition.wait() }
            guard !batches.isEmpty else { return nil }
            condition.broadcast()
            return batches.removeFirst()
        }
    }
}

/// Counts the files done and rows read across the threads of a run, for its progress.
final class FileTally: @unchecked Sendable {
    // @unchecked: `done` and `rows` are only touched under `lock`.
    private let lock = NSLock()
    private let count: Int
    private let phase: RunProgress.Phase
    private let progress: ProgressHandler?
    private var done = 0
    private var rows = 0

    init(count: Int, phase: RunProgress.Phase = .reading, progress: ProgressHandler?) {
        self.count = count
        self.phase = phase
        self.progress = progress
    }

    /// Counts a file read (`nil`: tells where the run starts).
    func report(_ file: FileValidation?) {
        add(files: file == nil ? 0 : 1, rows: file?.rowCount ?? 0)
    }

    /// Counts files done and rows read (negative: takes rows counted before back).
    func add(files: Int = 0, rows added: Int = 0) {
        guard let progress else { return }
        let now = lock.withLock {
            done += files
            rows += added
            return RunProgress(phase: phase, done: done, total: count, rows: rows)
        }
        progress(now)
    }
}
