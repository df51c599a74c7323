/// What a ``FaultRelay`` does to the connections it accepts: what rate limiters, WAFs and overloaded
/// load balancers do to a scanner. The deterministic faults are decided by the connection's index
/// (0 for the first accepted), so a test that makes one connection at a time sees the same sequence
/// every run.
package enum RelayFault: Sendable, Hashable {
    /// Forward every connection.
    case none
    /// Close the 1st, 3rd, 5th… connection (FIN) before forwarding anything; forward the others.
    case closeEveryOther
    /// Reset the 1st, 3rd, 5th… connection (RST, `SO_LINGER` 0) before forwarding anything.
    case resetEveryOther
    /// Forward the 1st, 3rd, 5th… connection but cut it (FIN to the client, close to the server) once
    /// `afterBytes` bytes came back from the server: a handshake truncated mid-way. A shorter answer
    /// (an alert) gets through whole.
    case truncateEveryOther(afterBytes: Int)
    /// Close (FIN) a share of the connections, chosen by a generator seeded with `seed`: the same
    /// connection indices every run.
    case dropShare(Double, seed: UInt64)
    /// Forward at most one connection per second; reset (`reset: true`) or close the others at once.
    case onePerSecond(reset: Bool)

    /// What happens to a connection, decided when it is accepted.
    enum Action: Equatable {
        case forward
        case close
        case reset
        case truncate(afterBytes: Int)
    }

    /// Whether the deterministic faults drop (close, reset or truncate) connection `index`; nil for
    /// ``onePerSecond(reset:)``, which depends on time.
    /// - Parameter index: the connection's index, 0 for the first accepted.
    package func faults(connection index: Int) -> Bool? {
        switch self {
        case .none: return false
        case .closeEveryOther, .resetEveryOther, .truncateEveryOther: return index % 2 == 0
        case .dropShare(let share, let seed): return Self.unitInterval(seed: seed, index: index) < share
        case .onePerSecond: return nil
        }
    }

    /// The action for connection `index`, except for ``onePerSecond(reset:)`` (decided by the relay's clock).
    var action: (Int) -> Action {
        switch self {
        case .none, .onePerSecond: return { _ in .forward }
        case .closeEveryOther: return { $0 % 2 == 0 ? .close : .forward }
        case .resetEveryOther: return { $0 % 2 == 0 ? .reset : .forward }
        case .truncateEveryOther(let bytes): return { $0 % 2 == 0 ? .truncate(afterBytes: bytes) : .forward }
        case .dropShare: return { faults(connection: $0) == true ? .close : .forward }
        }
    }

    /// A number in [0, 1) from `seed` and `index` (SplitMix64): the same for the same pair on every
    /// run and platform, whatever order connections arrive in.
    static func unitInterval(seed: UInt64, index: Int) -> Double {
        var z = seed &+ UInt64(truncatingIfNeeded: index + 1) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
