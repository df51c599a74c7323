import Foundation
import Synchronization
import TLSModel

/// Hands each endpoint result on as soon as its probe finishes (`scan --format jsonl`).
///
/// A finished profile is matched to the planned endpoints it answers by host, port, address and SNI; an
/// identical request planned twice is probed once and handed on once per endpoint. `http://` endpoints (not
/// probed) are handed on first.
final class EndpointStream: Sendable {
    private struct Key: Hashable {
        var host: String, port: Int, address: String?, sni: String?
    }

    private let slotsByKey: Mutex<[Key: [Int]]>
    private let targets: [Target]
    private let entries: [EndpointEntry]
    private let judge: PolicyJudge
    private let now: Date

    init(plan: [PlannedEndpoint], owner: [Int], targets: [Target], entries: [EndpointEntry], judge: PolicyJudge, now: Date) {
        var byKey: [Key: [Int]] = [:]
        for (planned, slot) in zip(plan, owner) {
            let key = Key(host: planned.target.host, port: planned.target.port, address: planned.request.connectAddress,
                          sni: planned.request.effectiveSNI)
            byKey[key, default: []].append(slot)
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

    /// Hands on every endpoint a finished profile answers.
    func finished(_ profile: ServerProfile, _ onEndpoint: (EndpointResult) -> Void) {
        let key = Key(host: profile.host, port: profile.port, address: profile.address, sni: profile.sni)
        let slots = slotsByKey.withLock { $0.removeValue(forKey: key) ?? [] }
        let ats = judge.judge(profile)
        for slot in slots {
            let source = slot >= targets.count ? entries[slot - targets.count].source : nil
            onEndpoint(EndpointResult(profile: profile, ats: ats, source: source))
        }
    }
}
