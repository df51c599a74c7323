import ATSPolicy
import Foundation
import Pinning
import TLSModel

/// The offline findings of a bundle beyond the plist lint: what the linked libraries make of the certificate
/// files, PEM or unreadable pins, a stale TrustKit configuration, the OS range (catalogue family `app`).
enum AppFindings {
    static func findings(for bundle: AppBundleContents) -> [Finding] {
        var out: [Finding] = []
        out += osFindings(bundle)
        out += libraryFindings(bundle)
        out += materialFindings(bundle)
        for file in bundle.skipped {
            out.append(
                Finding(
                    rule: RuleID.App.fileSkipped, severity: .warning,
                    message:
                        "\(BundlePath.name(file.path)) is \(ReadBudget.size(file.size)), over the "
                        + "\(ReadBudget.size(file.limit)) limit: not read",
                    file: bundle.displayPath(file.path)))
        }
        return out
    }

    private static func osFindings(_ bundle: AppBundleContents) -> [Finding] {
        var out: [Finding] = []
        let plist = bundle.infoPlist
        if plist.atsValue == nil {
            out.append(
                Finding(
                    rule: RuleID.App.noATSDictionary, severity: .note,
                    message: "no NSAppTransportSecurity dictionary: the ATS defaults apply to every connection",
                    file: plist.file))
        }
        let minimum = bundle.info.minimumOS
        let line = plist.line(forKeyPath: [minimum.key])
        if minimum.iOSEquivalent == nil {
            let what = minimum.written.map { "'\($0)' is not a version" } ?? "is missing"
            out.append(
                Finding(
                    rule: RuleID.App.minimumOS, severity: .warning,
                    message:
                        "\(minimum.key) \(what): verdicts cover only the newest rules (iOS \(AppleOSVersion.newest))",
                    file: plist.file, line: line, keyPath: minimum.key))
        } else if let lowest = minimum.iOSEquivalent, !lowest.has(.ats) {
            out.append(
                Finding(
                    rule: RuleID.App.minimumOS, severity: .note,
                    message:
                        "\(minimum.key) \(minimum.written ?? "") is older than ATS (iOS 9 / macOS 10.11): verdicts "
                        + "start at iOS 9",
                    file: plist.file, line: line, keyPath: minimum.key))
        }
        return out
    }

    private static func libraryFindings(_ bundle: AppBundleContents) -> [Finding] {
        var out: [Finding] = []
        let mainCer = bundle.certificates.filter { $0.lookups.contains(.afNetworkingMainBundle) }
        for library in bundle.libraries {
            let label = [library.displayName, library.version].compactMap { $0 }.joined(separator: " ")
            let how: String
            var file: String?
            switch library.linkage {
            case .framework(let path):
                how = "is linked as a dynamic framework"
                file = bundle.displayPath(path)
            case .staticallyLinked(let marker):
                how = "is linked statically (\(marker) is in the executable; version unknown)"
                file = bundle.executables.first.map(bundle.displayPath)
            }
            out.append(
                Finding(
                    rule: RuleID.App.libraryLinked, severity: .note,
                    message: "\(label) \(how): \(loading(library, bundle))",
                    file: file))
            if library.loadsPinsFromOwnBundle, !mainCer.isEmpty {
                let own = bundle.certificates.filter { $0.lookups.contains(.afNetworkingFrameworkBundle) }.count
                let instead =
                    own == 0
                    ? "its own bundle has none, so policyWithPinningMode: pins nothing and rejects every connection "
                        + "in a pinned mode"
                    : "it pins the \(count(own, ".cer file")) in its own bundle instead"
                out.append(
                    Finding(
                        rule: RuleID.Pins.frameworkBundle, severity: .error,
                        message:
                            "\(label) as a dynamic framework loads pins from its own bundle: the "
                            + "\(count(mainCer.count, ".cer file")) in the app bundle "
                            + "\(mainCer.count == 1 ? "is" : "are") never used; \(instead)",
                        file: file))
            }
        }
        if bundle.trustKitConfiguration != nil || bundle.infoPlist.rootDictionary["TSKConfiguration"] != nil,
            !bundle.libraries.contains(where: { $0.name == .trustkit })
        {
            out.append(
                Finding(
                    rule: RuleID.App.trustKitNotLinked, severity: .warning,
                    message:
                        "TSKConfiguration is in the Info.plist, but TrustKit is not linked (no TrustKit.framework, "
                        + "no TrustKit class in the executable): nothing reads it",
                    file: bundle.infoPlist.file, line: bundle.infoPlist.line(forKeyPath: ["TSKConfiguration"]),
                    keyPath: "TSKConfiguration"))
        }
        return out
    }

    /// Where a library loads pins from by default, and how many files that is: the library's note
    /// (``PinningLibrary/loadingNote(_:)``), or that atscheck does not model it.
    private static func loading(_ library: LinkedLibrary, _ bundle: AppBundleContents) -> String {
        var framework = false
        if case .framework = library.linkage { framework = true }
        let copy = LinkedCopy(
            linkedAsFramework: framework, majorVersion: library.majorVersion,
            files: { lookup in bundle.certificates.filter { $0.lookups.contains(lookup) }.count },
            infoPlist: bundle.infoPlist.rootDictionary)
        return PinningLibraries.named(library.name)?.loadingNote(copy)
            ?? "atscheck does not model where it loads pins from"
    }

    /// The libraries that load certificate files (`AFNetworking nor Alamofire`).
    static var loaderNames: String {
        let names = PinningLibraries.all.filter { !$0.bundleLookups.isEmpty }.map(\.name)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " nor " + names.last!
    }

    private static func materialFindings(_ bundle: AppBundleContents) -> [Finding] {
        var out: [Finding] = []
        // The linked libraries that load certificate files, and the lookups their copies use.
        let pinLoaders = bundle.libraries.filter { $0.bundleLookup != nil }
        let readers = Set(pinLoaders.compactMap(\.bundleLookup))
        for certificate in bundle.certificates {
            switch certificate.encoding {
            case .pem:
                out.append(
                    Finding(
                        rule: RuleID.Pins.pemInCer, severity: .error,
                        message:
                            "\(BundlePath.name(certificate.path)) holds PEM text, not DER: AFNetworking's "
                            + "Certificate mode crashes on it, its PublicKey mode and Alamofire drop it",
                        file: certificate.displayPath))
            case .unknown:
                out.append(
                    Finding(
                        rule: RuleID.App.pinsUnreadable, severity: .error,
                        message: "\(BundlePath.name(certificate.path)) is neither a DER nor a PEM certificate",
                        file: certificate.displayPath))
            case .der: break
            }
        }
        let certificates = bundle.certificates
        if pinLoaders.isEmpty, !certificates.isEmpty {
            out.append(
                Finding(
                    rule: RuleID.App.pinsNoLibrary, severity: .note,
                    message:
                        "\(count(certificates.count, "certificate file")) bundled, but neither "
                        + "\(Self.loaderNames) is linked: only custom code would load "
                        + "\(certificates.count == 1 ? "it" : "them")",
                    file: bundle.displayPath(bundle.layout.appRoot)))
        } else if !pinLoaders.isEmpty {
            for certificate in certificates where readers.isDisjoint(with: certificate.lookups) {
                out.append(
                    Finding(
                        rule: RuleID.App.pinsNotLoaded, severity: .warning,
                        message:
                            "\(BundlePath.name(certificate.path)) is read by no default lookup of "
                            + "\(pinLoaders.map(\.displayName).joined(separator: " or ")) (wrong folder or "
                            + "extension): it is pinned only if code loads it",
                        file: certificate.displayPath))
            }
        }
        return out
    }

    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
