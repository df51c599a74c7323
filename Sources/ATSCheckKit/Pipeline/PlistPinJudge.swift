import ATSPolicy
import Foundation
import Judging
import TLSModel

/// `scan --plist`: the plist's `NSPinnedDomains` against each scanned endpoint whose host it covers, as `audit`
/// checks it (``PinnedDomainsCheck``). ATS adds those pins to every SSL policy with the host, so a served chain
/// they reject is a connection the app cannot make: a `pins.rejected` error at the plist line of the pinned
/// domain, and exit 1. A match adds nothing but the evaluator's outage warnings (a pin set with no backup, …).
package struct PlistPinJudge: EndpointPinJudging {
    let check: PinnedDomainsCheck
    /// `--ca-file`: the anchors every endpoint's scan trusted.
    let caFiles: [String]

    /// The judge of a plist's `NSPinnedDomains`; nil when the plist has none.
    /// - Parameters:
    ///   - document: The plist the scan judges under.
    ///   - settings: The scan's trust: `--ca-file`, the trust store, whether this machine's store counts.
    ///   - now: The evaluation time (certificate validity).
    package init?(document: PlistDocument, settings: ScanSettings, now: Date) {
        guard
            let check = PinnedDomainsCheck(
                document: document, useSystemStore: settings.useSystemTrustStore, trustSource: settings.trustSource,
                now: now)
        else { return nil }
        self.check = check
        caFiles = settings.caFiles
    }

    package func findings(for endpoint: EndpointResult, extraAnchors: [String]) -> [Finding] {
        let profile = endpoint.profile
        guard profile.effectiveScheme != "http",
            let check = check.check(
                endpoint: Self.hostPort(profile), host: profile.host, profile: profile,
                anchors: caFiles + extraAnchors)
        else { return [] }
        return PinnedDomainsJudge.findings(of: check)
    }

    /// `host:port`, an IPv6 host in brackets.
    static func hostPort(_ profile: ServerProfile) -> String {
        profile.host.contains(":") ? "[\(profile.host)]:\(profile.port)" : "\(profile.host):\(profile.port)"
    }
}

extension PolicyJudge {
    /// Judges under a plist already read (the default ATS policy when nil).
    /// - Parameters:
    ///   - document: The plist.
    ///   - client: The OS release and client whose rules apply.
    package init(document: PlistDocument?, for client: ATSClient = .newest) {
        self.init(policy: document.map(AppPolicySource.init(document:)) ?? .defaultPolicy, for: client)
    }

    /// Checks the plist's `NSPinnedDomains` against each endpoint's served chain from now on (``PlistPinJudge``);
    /// nothing changes without a plist or without `NSPinnedDomains`.
    /// - Parameters:
    ///   - document: The plist the judge's policy came from.
    ///   - settings: The scan's trust settings.
    ///   - now: The evaluation time.
    package mutating func checkPinnedDomains(of document: PlistDocument?, settings: ScanSettings, now: Date = Date()) {
        guard let document, let judge = PlistPinJudge(document: document, settings: settings, now: now) else { return }
        pins = judge
    }
}

extension PlistDocument {
    /// Reads a plist given on the command line (XML, binary or OpenStep; an Info.plist or a bare ATS dictionary).
    /// - Parameter path: The file.
    /// - Returns: The document.
    /// - Throws: ``InputFileError`` (exit 65) when it is unreadable or not a dictionary plist.
    package static func input(_ path: String) throws -> PlistDocument {
        do { return try PlistDocument.load(path: path) } catch let error as PlistError {
            throw InputFileError(file: path, line: error.line, reason: error.reason)
        }
    }
}

extension PlistSource {
    /// Reads an Info.plist given on the command line as Xcode builds it (preprocessed, build settings expanded).
    /// - Parameters:
    ///   - path: The file.
    ///   - options: `--define`, `--build-setting`, `--xcconfig`.
    /// - Returns: Its build configurations.
    /// - Throws: ``InputFileError`` (exit 65) when it is unreadable, or no configuration is a dictionary plist.
    package static func input(_ path: String, options: PlistReadOptions = PlistReadOptions()) throws -> PlistSource {
        do { return try PlistSource.load(path: path, options: options) } catch let error as PlistError {
            throw InputFileError(file: path, line: error.line, reason: error.reason)
        }
    }
}

extension PolicyJudge {
    /// Judges under every build configuration of a plist read as Xcode builds it (the default ATS policy when nil).
    /// - Parameters:
    ///   - source: The plist's configurations.
    ///   - client: The OS release and client whose rules apply.
    package init(source: PlistSource?, for client: ATSClient = .newest) {
        self.init(policy: source.map(AppPolicySource.init(source:)) ?? .defaultPolicy, for: client)
    }
}
