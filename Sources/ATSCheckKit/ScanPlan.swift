import Foundation
import TLSModel
import TLSProbe

/// A `--resolve host:port:address` rule: connect to `address`, keep `host` for SNI and checks.
public struct ResolveRule: Hashable, Sendable {
    public var host: String
    public var port: Int
    public var address: String

    /// Parses `host:port:address` (the address may be a bracketed or bare IPv6 literal).
    /// - Throws: ``TargetError`` with a one-line reason.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65535).contains(port), !parts[2].isEmpty
        else {
            throw TargetError(text: text, reason: "--resolve takes HOST:PORT:ADDRESS, e.g. api.example.com:443:127.0.0.1")
        }
        var address = String(parts[2])
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        guard IPAddress(address) != nil else {
            throw TargetError(text: text, reason: "'\(address)' is not an IP address")
        }
        self.host = parts[0].lowercased()
        self.port = port
        self.address = address
    }

    public init(host: String, port: Int, address: String) {
        self.host = host
        self.port = port
        self.address = address
    }
}

/// How to scan: the options every scanning command shares.
public struct ScanSettings: Sendable {
    public var resolve: [ResolveRule] = []
    public var allAddresses = false
    public var sni: String?
    public var timeout: Double = 5
    /// Overall deadline per endpoint; default scales with the timeout.
    public var endpointDeadline: Double?
    public var caFiles: [String] = []
    public var concurrency = 8
    public var perHost = 3
    public var now: Date?
    public var useSystemTrustStore = true

    public init() {}

    /// The probe request these settings give a target: `--resolve`, `--sni`, timeouts and anchors.
    /// - Parameters:
    ///   - connectAddress: an address that wins over `--resolve` (an endpoint list's own `resolve`).
    ///   - sni: an SNI that wins over `--sni`.
    ///   - extraCAFiles: anchors added to `--ca-file` for this target.
    public func request(
        for target: Target, connectAddress: String? = nil, sni: String? = nil, extraCAFiles: [String] = []
    ) -> ProbeRequest {
        let resolved = resolve.first { $0.host == target.host && $0.port == target.port }?.address
        return ProbeRequest(
            target: target, connectAddress: connectAddress ?? resolved, sni: sni ?? self.sni, timeout: timeout,
            deadline: endpointDeadline ?? max(30, timeout * 12), caFiles: caFiles + extraCAFiles, now: now,
            useSystemTrustStore: useSystemTrustStore)
    }
}

/// Turns targets into probe requests: applies `--resolve`, `--sni` and `--all-addresses`.
public enum ScanPlanner {
    /// Plans one request per target (per address with `--all-addresses`).
    ///
    /// > Warning: with `allAddresses`, resolves names (blocking DNS, on a thread of its own).
    public static func plan(_ targets: [Target], settings: ScanSettings) async -> [PlannedEndpoint] {
        var planned: [PlannedEndpoint] = []
        for target in targets {
            let request = settings.request(for: target)
            if request.connectAddress != nil {  // --resolve pins the address
                planned.append(PlannedEndpoint(target: target, request: request))
                continue
            }
            if settings.allAddresses && !target.isIPLiteral {
                let addresses = await AddressLookup.addresses(of: target.host, port: target.port)
                switch addresses {
                case .success(let list) where !list.isEmpty:
                    for address in list {
                        var perAddress = request
                        perAddress.connectAddress = address
                        planned.append(PlannedEndpoint(target: target, request: perAddress))
                    }
                    continue
                default:
                    break  // the scan itself reports the resolution failure
                }
            }
            planned.append(PlannedEndpoint(target: target, request: request))
        }
        return planned
    }
}

/// One endpoint to scan, with where it came from.
public struct PlannedEndpoint: Sendable {
    public var target: Target
    public var request: ProbeRequest
    public var source: SourceLocation?

    public init(target: Target, request: ProbeRequest, source: SourceLocation? = nil) {
        self.target = target
        self.request = request
        self.source = source
    }
}

/// DNS look-ups off the cooperative pool.
enum AddressLookup {
    static func addresses(of host: String, port: Int) async -> Result<[String], Error> {
        await withCheckedContinuation { continuation in
            Thread {
                do {
                    continuation.resume(returning: .success(try SocketAddress.resolve(host, port: port).map(\.ip)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }.start()
        }
    }
}
