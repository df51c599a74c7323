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
            let copy = linkedCopy(library, bundle)
            let model = PinningLibraries.named(library.name)
            out.append(
                Finding(
                    rule: RuleID.App.libraryLinked, severity: .note,
                    message:
                        "\(label) \(how): "
                        + (model?.loadingNote(copy) ?? "atscheck does not model where it loads pins from"),
                    file: file))
            out += model?.linkedFindings(copy, label: label, file: file) ?? []
        }
        let linked = Set(bundle.libraries.map(\.name))
        for library in PinningLibraries.all where !linked.contains(library.id) {
            out += library.unlinkedFindings(infoPlist: bundle.infoPlist.rootDictionary) { keyPath in
                (bundle.infoPlist.file, bundle.infoPlist.line(forKeyPath: keyPath))
            }
        }
        return out
    }

    /// The copy `library` is, as its library sees it (``PinningLibrary/loadingNote(_:)``,
    /// ``PinningLibrary/linkedFindings(_:label:file:)``): linkage, version, files per lookup, the Info.plist.
    private static func linkedCopy(_ library: LinkedLibrary, _ bundle: AppBundleContents) -> LinkedCopy {
        var framework = false
        if case .framework = library.linkage { framework = true }
        return LinkedCopy(
            linkedAsFramework: framework, majorVersion: library.majorVersion,
            files: { lookup in bundle.certificates.filter { $0.lookups.contains(lookup) }.count },
            infoPlist: bundle.infoPlist.rootDictionary)
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
