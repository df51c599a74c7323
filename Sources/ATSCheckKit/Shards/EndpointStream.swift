import Foundation
import Synchronization
import TLSModel

/// Hands each endpoint result on as soon as its probe finishes (`scan --format jsonl`).
///
/// A finished profile is matched to the planned endpoints by the request it answers (``BatchScanner``'s identity
/// of a request: not by the profile's fields, since the address a scan connected to is filled in only when it
/// was not planned); an identical request planned twice is probed once and handed on once per endpoint.
/// `http://` endpoints (not probed) are handed on first.
final class EndpointStream: Sendable {
    private let slotsByKey: Mutex<[ProbeRequest: [Int]]>
    /// Probes finish on several tasks at once: endpoints are handed on one at a time, so lines never interleave.
    private let handing = Mutex(())
    private let targets: [Target]
    private let entries: [EndpointEntry]
    private let judge: PolicyJudge
    private let now: Date

    init(plan: [PlannedEndpoint], owner: [Int], targets: [Target], entries: [EndpointEntry], judge: PolicyJudge, now: Date) {
        var byKey: [ProbeRequest: [Int]] = [:]
        for (planned, slot) in zip(plan, owner) {
            byKey[BatchScanner.identity(planned.request), default: []].append(slot)
        }
        slotsByKey = Mutex(byKey)
        self.targets = targets
        self.entries = entries
        self.judge = judge
        self.now = now
    }

    /// Hands on the `http://` targets and entries, judged without a connection.
    func openCleartext(_ onEndpoint: (EndpointResult) -> Void) {
        for target in targets where target.scheme == "http" {
            let profile = ScanPipeline.cleartextProfile(for: target, now: now)
            onEndpoint(EndpointResult(profile: profile, ats: judge.judge(profile)))
        }
        for entry in entries where entry.isHTTP {
            let profile = ScanPipeline.cleartextProfile(for: entry.target, address: entry.resolve, now: now)
            onEndpoint(EndpointResult(profile: profile, ats: judge.judge(profile), source: entry.source))
        }
    }

    /// Hands on every endpoint that `request`'s finished profile answers.
    func finished(_ profile: ServerProfile, request: ProbeRequest, _ onEndpoint: (EndpointResult) -> Void) {
        let slots = slotsByKey.withLock { $0.removeValue(forKey: BatchScanner.identity(request)) ?? [] }
        let ats = judge.judge(profile)
        handing.withLock { _ in
            for slot in slots {
                let source = slot >= targets.count ? entries[slot - targets.count].source : nil
                onEndpoint(EndpointResult(profile: profile, ats: ats, source: source))
            }
        }
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

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        var profile = await base.scan(request)
        stream.finished(profile, request: request, onEndpoint)
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
