import Synchronization

/// A value behind a `Mutex`, shared by reference between the fixtures' threads (a `Mutex` itself
/// cannot be copied into the closures that share it).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { self.mutex = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { try body(&$0) }
    }
}
