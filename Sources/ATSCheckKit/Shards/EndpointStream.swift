import Foundation
import Judging
import Synchronization
import TLSModel

/// Hands each endpoint result on as soon as its probe finishes (`scan --format jsonl`).
///
/// A finished profile is matched to the planned endpoints by the request it answers (``BatchScanner``'s identity
/// of a request: not by the profile's fields, since the address a scan connected to is filled in only when it
/// was not planned); an identical request planned twice is probed once and handed on once per endpoint.
/// `http://` endpoints (not probed) are handed on first. With a ``StreamTally``, each endpoint handed on is also
/// counted there at its place in the report.
final class EndpointStream: Sendable {
    private let slotsByKey: Mutex<[ProbeRequest: [StreamTally.Place]]>
    /// Probes finish on several tasks at once: endpoints are handed on one at a time, so lines never interleave.
    private let handing = Mutex(())
    private let targets: [Target]
    private let entries: [EndpointEntry]
    private let judge: PolicyJudge
    private let now: Date
    let tally: StreamTally?

    init(
        plan: [PlannedEndpoint], owner: [Int], targets: [Target], entries: [EndpointEntry], judge: PolicyJudge,
        now: Date,
        tally: StreamTally? = nil
    ) {
        var byKey: [ProbeRequest: [StreamTally.Place]] = [:]
        for (index, (planned, slot)) in zip(plan, owner).enumerated() {
            byKey[BatchScanner.identity(planned.request), default: []].append((slot, index))
        }
        slotsByKey = Mutex(byKey)
        self.targets = targets
        self.entries = entries
        self.judge = judge
        self.now = now
        self.tally = tally
    }

    /// Hands on the `http://` targets and entries, judged without a connection.
    func openCleartext(_ onEndpoint: (EndpointResult) -> Void) {
        for (slot, target) in targets.enumerated() where target.scheme == "http" {
            let profile = ServerProfile.cleartext(for: target, now: now)
            hand(EndpointResult(profile: profile, ats: judge.judge(profile)), at: (slot, 0), onEndpoint)
        }
        for (index, entry) in entries.enumerated() where entry.isHTTP {
            let profile = ServerProfile.cleartext(for: entry.target, address: entry.resolve, now: now)
            hand(
                EndpointResult(profile: profile, ats: judge.judge(profile), source: entry.source),
                at: (targets.count + index, 0), onEndpoint)
        }
    }

    /// Hands on every endpoint that `request`'s finished profile answers.
    func finished(_ profile: ServerProfile, request: ProbeRequest, _ onEndpoint: (EndpointResult) -> Void) {
        let places = slotsByKey.withLock { $0.removeValue(forKey: BatchScanner.identity(request)) ?? [] }
        let ats = judge.judge(profile)
        handing.withLock { _ in
            for place in places {
                let source = place.slot >= targets.count ? entries[place.slot - targets.count].source : nil
                hand(EndpointResult(profile: profile, ats: ats, source: source), at: place, onEndpoint)
            }
        }
    }

    /// Hands on every endpoint not handed on yet as ``ScanStatus/cancelled`` (the scan was interrupted) and closes the
    /// stream: a probe abandoned at the grace deadline that finishes later hands nothing on.
    /// - Returns: how many endpoints were handed on as cancelled.
    func closeCancelled(_ onEndpoint: (EndpointResult) -> Void) -> Int {
        let left = slotsByKey.withLock { pending in
            defer { pending = [:] }
            return pending.flatMap { request, places in places.map { (request, $0) } }.sorted { $0.1 < $1.1 }
        }
        handing.withLock { _ in
            for (request, place) in left {
                let profile = ServerProfile.cancelled(request, now: now)
                let source = place.slot >= targets.count ? entries[place.slot - targets.count].source : nil
                hand(EndpointResult(profile: profile, ats: judge.judge(profile), source: source), at: place, onEndpoint)
            }
        }
        return left.count
    }

    private func hand(_ endpoint: EndpointResult, at place: StreamTally.Place, _ onEndpoint: (EndpointResult) -> Void) {
        // The plist's pins are judged before the endpoint is written: an NSPinnedDomains rejection decides its verdict.
        var endpoint = endpoint
        let entry = place.slot >= targets.count ? entries[place.slot - targets.count] : nil
        let findings = judge.judgePins(of: &endpoint, extraAnchors: [entry?.caFile].compactMap { $0 })
        onEndpoint(endpoint)
        tally?.add(endpoint, at: place, findings: findings)
    }
}

/// A prober that hands each finished profile, with the request it answers, to an ``EndpointStream``.
struct StreamingProber: EndpointProber {
    var base: any EndpointProber
    var stream: EndpointStream
    var onEndpoint: @Sendable (EndpointResult) -> Void
    /// Whether what the batch keeps after an endpoint is streamed may drop the certificates' DER: when the
    /// stream is the only output that shows profiles, the report kept for the summary, the findings and the exit
    /// status reads certificate facts, never their DER (the bulk of a profile in memory).
    var dropsDER = false
    /// Whether the batch keeps only a skeleton of each profile (what a progress line shows): when the stream
    /// counts the endpoints in a ``StreamTally``, nothing after the stream reads them.
    var keepsSkeleton = false

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        var profile = await base.scan(request)
        stream.finished(profile, request: request, onEndpoint)
        if keepsSkeleton { return StreamTally.skeleton(of: profile) }
        if dropsDER, var certificate = profile.certificate {
            certificate.chain = certificate.chain.map(Self.withoutDER)
            certificate.verifiedChain = certificate.verifiedChain.map(Self.withoutDER)
            profile.certificate = certificate
        }
        return profile
    }

    static func withoutDER(_ facts: CertificateFacts) -> CertificateFacts {
        var copy = facts
        copy.der = Data()
        return copy
    }
}
