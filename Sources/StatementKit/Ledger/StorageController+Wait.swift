#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension StorageController {
    /// How often a writer that waits looks at the lock again.
    static let lockPollNanoseconds = 50_000_000

    /// Takes the exclusive `flock` of a descriptor: at once, or, when `seconds` is given,
    /// trying again every 50 ms until it is free or the time is over (a deadline on the
    /// monotonic clock, so a clock set back does not stretch it). Returns the `flock` result,
    /// with `errno` set (`EWOULDBLOCK` when another process still holds it).
    static func lock(_ descriptor: Int32, waiting seconds: Double?) -> Int32 {
        guard let seconds, seconds > 0 else { return flock(descriptor, LOCK_EX | LOCK_NB) }
        let start = monotonicNanoseconds()
        let limit = seconds.isFinite ? Int64(seconds * 1e9) : .max
        while true {
            let result = flock(descriptor, LOCK_EX | LOCK_NB)
            guard result != 0, errno == EWOULDBLOCK else { return result }
            let waited = monotonicNanoseconds() - start
            guard waited < limit else {
                errno = EWOULDBLOCK
                return result
            }
            let pause = min(Int64(lockPollNanoseconds), limit - waited)
            var request = timespec(tv_sec: 0, tv_nsec: Int(pause))
            _ = nanosleep(&request, nil)
        }
    }

    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
