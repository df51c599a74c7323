import Foundation
import Pinning
import TLSModel

/// The pin checks of `atscheck cert`: each library decides for a chain from a file as it would for the same chain
/// served, so a renewal that breaks the app's pins is found before it is deployed.
package enum CertPins {
    /// The libraries the material configures (``PinningLibrary/isConfigured(by:)``), in the registry's order. Each
    /// is asked about the material as read: every certificate file (a PEM blob in a `.cer` too), the pin sets, and
    /// only the configurations the files hold themselves (not one a library derives from another's pins).
    package static func libraries(for pins: LoadedPins) -> [PinLibrary] {
        let read = pins.appPinsAsRead
        return PinningLibraries.all.filter { $0.isConfigured(by: read) }.map(\.id)
    }

    /// The libraries an app's Info.plist given to `cert --plist` configures by itself: those built into the OS
    /// (no ``PinningLibrary/bundleSignature``, so linked by every app), configured by it.
    package static func plistLibraries(for pins: LoadedPins) -> [PinLibrary] {
        libraries(for: pins).filter { PinningLibraries.named($0)?.bundleSignature == nil }
    }

    /// One library's decision for the chain, for each host.
    /// - Parameters:
    ///   - served: the chain's certificate facts, leaf first (as a server would send the file).
    ///   - file: the chain file, named as the target.
    ///   - at: the evaluation time (`--at`).
    ///   - fetched: issuers fetched from the chain's caIssuers URLs (part of SSL-policy paths, as on iOS).
    /// - Throws: ``InputFileError`` when the material lacks what the library needs.
    package static func check(
        served: [CertificateFacts], hosts: [String], file: String, policy: PinPolicy, pins: LoadedPins,
        pinsPath: String, settings: ScanSettings, at: Date, fetched: [CertificateFacts] = []
    ) throws -> PinCheckReport {
        var checker = try PinChecker(
            policy: policy, pins: pins, pinsPath: pinsPath, caFiles: settings.caFiles,
            useSystemStore: settings.useSystemTrustStore, warnDays: settings.expiryWarningDays ?? 30, now: at)
        checker.trustSource = settings.trustSource
        let results = hosts.map { host -> PinCheckResult in
            do {
                return try checker.result(
                    target: "\(host) (\(file))", host: host, port: 443, address: nil, served: served, fetched: fetched)
            } catch {
                return PinCheckResult(
                    target: "\(host) (\(file))", host: host, port: 443, address: nil, status: .error,
                    error: "\(error)")
            }
        }
        // Findings about the material that concern another library (a TrustKit refusal, for NSPinnedDomains) are not
        // this library's.
        var report = PinCheckReport(
            library: policy.library, pinFiles: pins.files, results: results,
            findings: pins.findings.filter { PinningLibraries.concerns($0.rule, policy.library) })
        report.scope = "certificate"
        return report
    }
}
