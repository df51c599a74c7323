import ATSPolicy
import Foundation
import Judging
import Pinning
import TLSModel

/// An Info.plist's `NSAppTransportSecurity` → `NSPinnedDomains` checked against served chains: the one evaluation
/// `audit` (``AuditPins``) and `scan --plist` (``PlistPinJudge``) share. The plist lines of its keys are read
/// once, so the check holds no document and can be handed to concurrent probes.
struct PinnedDomainsCheck: Sendable {
    /// The pins as Apple's Security framework reads them.
    var configuration: PinnedDomainsConfiguration
    /// The plist.
    var file: String
    /// The plist line of each `NSPinnedDomains` key (else of `NSPinnedDomains`), by key.
    var lines: [String: Int]
    var useSystemStore: Bool
    var trustSource: TrustStoreSource
    var now: Date

    /// The check of a plist's `NSPinnedDomains`; nil when it has none.
    init?(document: PlistDocument, useSystemStore: Bool, trustSource: TrustStoreSource, now: Date) {
        guard let configuration = PinMaterialLoader.pinnedDomains(of: document) else { return nil }
        self.configuration = configuration
        file = document.file
        var lines: [String: Int] = [:]
        for key in configuration.domains.keys {
            lines[key] =
                document.line(forATSKeyPath: [ATSKey.pinnedDomains.name, key])
                ?? document.line(forATSKeyPath: [ATSKey.pinnedDomains.name])
        }
        self.lines = lines
        self.useSystemStore = useSystemStore
        self.trustSource = trustSource
        self.now = now
    }

    /// The entries that pin `host`, nil when none does.
    func applicable(host: String) -> PinnedDomainsEvaluator.Applicable? {
        PinnedDomainsEvaluator.applicable(host: host, in: configuration)
    }

    /// The `NSPinnedDomains` evaluation of one endpoint.
    /// - Parameters:
    ///   - endpoint: `host:port`, for messages.
    ///   - host: The host the app connects to.
    ///   - profile: The endpoint's profile; its served chain is evaluated.
    ///   - anchors: The CA files its scan trusted.
    /// - Returns: The check, nil when no entry pins the host or the endpoint has no served chain (not scanned).
    func check(endpoint: String, host: String, profile: ServerProfile, anchors: [String]) -> AuditPinCheck? {
        guard let applicable = applicable(host: host) else { return nil }
        var material = LoadedPins()
        material.files = [file]
        material.pinnedDomains = configuration
        guard
            var checker = try? PinChecker(
                policy: .nspinneddomains, pins: material, pinsPath: file, caFiles: anchors,
                useSystemStore: useSystemStore, now: now)
        else { return nil }
        checker.trustSource = trustSource
        guard let result = AuditPins.result(profile, checker: checker) else { return nil }
        let domains = PinnedDomainsJudge.domains(host: host, applicable: applicable.domains)
        return AuditPinCheck(
            origin: .pinnedDomains, endpoint: endpoint, library: .nspinneddomains, domains: domains, pinFiles: [file],
            source: SourceLocation(file: file, line: lines[domains[0]]),
            keyPath: PinnedDomainsJudge.keyPath(domains[0]), result: result)
    }
}
