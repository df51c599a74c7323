import ATSPolicy
import AppBundle
import CertificateTrust
import Foundation
import Judging
import Pinning
import TLSModel

/// What `atscheck app --offline` learns from one bundle: its identity and OS range, the pinning libraries and
/// pin material it carries, the endpoints harvested from it, and every finding as a findings-only report.
public struct AppOfflineResult: Sendable {
    /// The bundle path as given.
    public var input: String
    /// `ipa`, `app` or `xcarchive`.
    public var container: AppBundleContents.Container
    /// The display path of the app's Info.plist (`Demo.ipa/Payload/Demo.app/Info.plist`).
    public var infoPlist: String
    public var info: AppInfo
    /// The OS eras the verdicts of this build cover (from its minimum OS to the newest).
    public var eras: [AppleOSVersion]
    public var libraries: [LinkedLibrary]
    /// Every bundled certificate file, parsed where it can be.
    public var certificates: [AppPinFile]
    /// `TSKConfiguration`, parsed as TrustKit reads it; nil when absent or not a dictionary.
    public var trustKit: PinSet?
    /// `NSPinnedDomains`, parsed as Apple's Security framework reads it; nil when absent.
    public var pinnedDomains: PinnedDomainsConfiguration?
    /// The endpoints harvested from the bundle, with the files they came from (at most
    /// ``HarvestLimits/maxEndpoints``).
    public var endpoints: [HarvestedEndpoint]
    /// Distinct endpoints found beyond the cap and left out (0 nearly always).
    public var endpointsNotShown: Int = 0
    /// Whether ``endpointsNotShown`` is a lower bound (past 4,194,304, further ones are not told apart).
    public var endpointsNotShownIsLowerBound = false
    /// Every finding (plist lint, libraries, pin material, TrustKit configuration), with no endpoints.
    public var report: ScanReport
}

extension AppOfflineResult {
    /// The pin material the app's Info.plist configures libraries with by itself (the parsed `TSKConfiguration`),
    /// as the Info.plist's: what `app` checks each library's ``PinningLibrary/infoPlistEntry(pinning:in:now:)``
    /// against.
    var infoPlistPins: LoadedPins {
        var material = LoadedPins()
        material.files = [infoPlist]
        material.pinSet = trustKit
        return material
    }
}

/// A certificate file of the bundle and what it holds.
public struct AppPinFile: Sendable {
    /// The file's path as shown (`Demo.ipa/Payload/Demo.app/demo-ca.cer`).
    public var file: String
    public var encoding: BundledCertificate.Encoding
    /// The default lookups that read it (by folder and extension, linked or not).
    public var lookups: [BundledCertificate.Lookup]
    /// The parsed certificate; nil when the bytes are not a certificate.
    public var facts: CertificateFacts?
}

/// The offline half of `atscheck app`: opens a bundle, parses its pin material and harvests its endpoints.
public enum AppOfflineAudit {
    /// Reads a bundle without connecting anywhere.
    /// - Parameters:
    ///   - path: An `.ipa`, `.app` folder or `.xcarchive`.
    ///   - limits: The archive caps.
    ///   - filter: What the endpoint harvester leaves out.
    /// - Returns: The facts and findings of the bundle.
    /// - Throws: ``InputFileError`` (exit 65) when the bundle is unreadable or refused as hostile, or when it links
    ///   TrustKit and TrustKit refuses its Info.plist's `TSKConfiguration` (the app crashes at launch).
    public static func run(
        path: String, limits: ArchiveLimits = .default, filter: HarvestFilter = .default
    ) throws -> AppOfflineResult {
        let contents = try open(path: path, limits: limits)
        try checkLaunchRefusals(contents)
        return result(of: contents, filter: filter)
    }

    /// Throws when a linked library refuses the Info.plist's configuration it loads before `main` (TrustKit's
    /// `TSKConfiguration`, read by its library constructor): the build crashes at launch. A library the bundle does
    /// not link reads nothing (`app.trustkit.not-linked`), and its refusals stay findings.
    /// - Throws: ``InputFileError`` (exit 65) naming the Info.plist, the line and the first refusal.
    static func checkLaunchRefusals(_ contents: AppBundleContents) throws {
        let linked = Set(contents.libraries.map(\.name))
        let refused = TrustKitLaunchFailure.inPlist(contents.infoPlist).filter { linked.contains($0.library) }
        if let error = TrustKitLaunchFailure.error(refused) { throw error }
    }

    /// Opens a bundle, as an input file.
    /// - Throws: ``InputFileError`` (exit 65) when the bundle is unreadable or refused as hostile.
    static func open(path: String, limits: ArchiveLimits) throws -> AppBundleContents {
        do { return try AppBundle.open(path: path, limits: limits) } catch let error as AppBundleError {
            throw InputFileError(file: error.file, reason: error.reason)
        }
    }

    /// The offline result of an opened bundle: its pin material parsed, its endpoints harvested.
    static func result(of contents: AppBundleContents, filter: HarvestFilter) -> AppOfflineResult {
        let path = contents.path
        var findings = contents.offlineFindings
        let pins = contents.certificates.map { certificate in
            let (file, finding) = parse(certificate)
            if let finding { findings.append(finding) }
            return file
        }
        let shared = PinMaterialLoader.sharedMaterial(of: contents.infoPlist)
        findings += shared.findings
        let harvest = EndpointHarvester.harvest(contents, filter: filter)
        return AppOfflineResult(
            input: path, container: contents.container, infoPlist: contents.infoPlist.file, info: contents.info,
            eras: contents.eras, libraries: contents.libraries, certificates: pins, trustKit: shared.pinSet,
            pinnedDomains: shared.pinnedDomains, endpoints: harvest.endpoints, endpointsNotShown: harvest.notShown,
            endpointsNotShownIsLowerBound: harvest.notShownIsLowerBound,
            report: ScanReport(endpoints: [], findings: findings))
    }

    /// A certificate file's facts, or the `app.pins.unreadable` finding when its DER (or its PEM block) does not
    /// parse. Files that are neither DER nor PEM are already reported by the bundle reader.
    static func parse(_ certificate: BundledCertificate) -> (AppPinFile, Finding?) {
        var file = AppPinFile(
            file: certificate.displayPath, encoding: certificate.encoding, lookups: certificate.lookups, facts: nil)
        guard certificate.encoding != .unknown else { return (file, nil) }
        let name = certificate.displayPath.split(separator: "/").last.map(String.init) ?? certificate.displayPath
        func unreadable(_ why: String) -> Finding {
            Finding(
                rule: RuleID.App.pinsUnreadable, severity: .error,
                message: "\(name) is not a readable certificate: \(why)",
                file: certificate.displayPath)
        }
        guard let der = certificate.der else { return (file, unreadable("no CERTIFICATE block in its PEM text")) }
        do {
            file.facts = try CertificateParsing.facts(der: Data(der))
            return (file, nil)
        } catch let error as ProbeFailure {
            return (file, unreadable(error.reason))
        } catch {
            return (file, unreadable("\(error)"))
        }
    }
}
