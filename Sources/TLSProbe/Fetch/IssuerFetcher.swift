import CertificateTrust
import Foundation
import Synchronization
import TLSModel

/// Downloads the answers of AIA caIssuers URLs for a run: each URL once, whichever endpoint asks first; the
/// endpoints after it reuse the answer (``IssuerFetch/cached``), as trustd's `SecCAIssuerCache` does for a device.
///
/// > Warning: Touches the network through its transport (the run's ``HTTPFetcher``, with its proxy).
package final class IssuerFetcher: Sendable {
    /// What a URL gave.
    enum Download: Sendable, Equatable {
        case body([UInt8])
        case failed(String)
    }

    /// Who downloads; nil: fetching is off (`--no-fetch`).
    package let transport: (any HTTPFetching)?
    private let finished = Mutex<[String: Download]>([:])
    private let running = Mutex<[String: Task<Download, Never>]>([:])
    private let requests = Mutex(0)

    /// - Parameter transport: Who downloads (the run's ``HTTPFetcher``); nil turns fetching off: a chain that needs
    ///   an issuer is then recorded as not fetched (``IssuerFetch/Status/disabled``).
    package init(transport: (any HTTPFetching)?) {
        self.transport = transport
    }

    /// Fetching off (`--no-fetch`).
    package static let disabled = IssuerFetcher(transport: nil)

    /// Whether fetching is on.
    package var isEnabled: Bool { transport != nil }

    /// How many requests were sent so far (not counting answers reused): what "once per URL per run" is checked by.
    package var requestsSent: Int { requests.withLock { $0 } }

    /// The answer of `url`, fetched now or by an earlier endpoint; `cached` says which.
    func download(_ url: String) async -> (Download, cached: Bool) {
        if let known = finished.withLock({ $0[url] }) { return (known, true) }
        guard let transport else { return (.failed("fetching is off"), false) }
        let (task, first) = running.withLock { running -> (Task<Download, Never>, Bool) in
            if let task = running[url] { return (task, false) }
            let task = Task { () -> Download in
                self.requests.withLock { $0 += 1 }
                return await Self.fetch(url, with: transport)
            }
            running[url] = task
            return (task, true)
        }
        let answer = await task.value
        finished.withLock { $0[url] = answer }
        return (answer, !first)
    }

    /// ``download(_:)`` on the calling thread, for a chain judged outside a scan (`atscheck cert`).
    ///
    /// > Warning: Blocks for up to ``IssuerCompletion/timeout``. With a transport other than ``HTTPFetcher`` the
    /// > fetch runs as a task and this thread waits for it.
    func downloadNow(_ url: String) -> (Download, cached: Bool) {
        if let known = finished.withLock({ $0[url] }) { return (known, true) }
        guard let transport else { return (.failed("fetching is off"), false) }
        requests.withLock { $0 += 1 }
        let answer: Download
        if let direct = transport as? HTTPFetcher {
            do { answer = .body([UInt8](try direct.fetchNow(IssuerCompletion.request(url)).body)) } catch {
                answer = .failed(error.reason)
            }
        } else {
            let box = Mutex<Download?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                let result = await Self.fetch(url, with: transport)
                box.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            answer = box.withLock { $0 } ?? .failed("no answer")
        }
        finished.withLock { $0[url] = answer }
        return (answer, false)
    }

    /// ``downloadNow(_:)`` as certificate trust takes it (``ChainReports``' `download`); nil when fetching is off.
    package var blockingDownload: IssuerDownload? {
        guard isEnabled else { return nil }
        return { url in
            switch self.downloadNow(url) {
            case (.body(let body), let cached): return .body(body, cached: cached)
            case (.failed(let why), let cached): return .failed(why, cached: cached)
            }
        }
    }

    /// One request for `url`: its body, or the fetch's one-line reason.
    private static func fetch(_ url: String, with transport: any HTTPFetching) async -> Download {
        do throws(HTTPFetchError) {
            return .body([UInt8](try await transport.fetch(IssuerCompletion.request(url)).body))
        } catch {
            return .failed(error.reason)
        }
    }
}
