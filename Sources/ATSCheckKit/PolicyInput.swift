import ATSPolicy
import Foundation
import TLSModel

/// An app's ATS configuration read from an Info.plist (or a bare `NSAppTransportSecurity` dictionary).
public struct AppPolicySource: Sendable {
    public var configuration: ATSConfiguration
    /// The file it came from, nil for the default (no dictionary).
    public var file: String?

    public static let defaultPolicy = AppPolicySource(configuration: .default, file: nil)

    public init(configuration: ATSConfiguration, file: String?) {
        self.configuration = configuration
        self.file = file
    }

    /// Reads a plist file: XML, binary or OpenStep, a whole Info.plist or a bare ATS dictionary.
    /// - Throws: ``InputFileError`` (exit 65) when the file is unreadable or not a dictionary plist.
    public static func load(_ path: String) throws -> AppPolicySource {
        let document: PlistDocument
        do { document = try PlistDocument.load(path: path) } catch let error as PlistError {
            throw InputFileError(file: path, line: error.line, reason: error.reason)
        }
        return AppPolicySource(document: document)
    }

    /// The policy of an already-loaded plist document.
    public init(document: PlistDocument) {
        self.init(configuration: ATSConfiguration(dictionary: document.atsDictionary ?? [:]), file: document.file)
    }
}

/// An input file that is unreadable or malformed: exit 65 with a one-line reason.
public struct InputFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var reason: String

    /// The line written to stderr, when it is not `FILE[:LINE]: REASON`.
    private var wholeLine: String?

    public init(file: String, line: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// An error whose one line names the file itself, e.g. `cannot read profile FILE`.
    public init(file: String, line: Int? = nil, message: String) {
        self.init(file: file, line: line, reason: message)
        self.wholeLine = message
    }

    public var description: String { wholeLine ?? "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)" }
}

/// An output file that cannot be written (exit 73, `EX_CANTCREAT`), with a one-line reason.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var description: String

    public init(file: String, description: String) {
        self.file = file
        self.description = description
    }
}

/// Judges profiles under an app policy and OS release.
public struct PolicyJudge: Sendable {
    public var policy: AppPolicySource
    /// The OS release and client whose rules apply.
    public var client: ATSClient
    public var os: AppleOSVersion { client.os }

    public init(policy: AppPolicySource = .defaultPolicy, for client: ATSClient = .newest) {
        self.policy = policy
        self.client = client
    }

    /// Judges under the policy of `plist` (the default ATS policy when nil).
    /// - Throws: ``InputFileError`` (exit 65) when the plist is unreadable or malformed.
    public init(plist: String?, for client: ATSClient = .newest) throws {
        self.init(policy: try plist.map(AppPolicySource.load) ?? .defaultPolicy, for: client)
    }

    /// The ATS verdict of one profile; an endpoint that could not be scanned is `unknown`.
    public func judge(_ profile: ServerProfile, scheme: String? = nil) -> ATSEvaluation {
        let scheme = scheme ?? profile.effectiveScheme
        guard profile.status == .completed else {
            return ATSEvaluation(verdict: .unknown, osVersion: os.description,
                                 notes: ["not scanned: \(profile.error ?? profile.status.rawValue)"])
        }
        var evaluation = ATSPolicyEvaluator(for: client)
            .evaluate(profile, configuration: policy.configuration, scheme: scheme)
        if let anchor = profile.certificate?.anchor, anchor != .none {
            evaluation.notes.append(anchor == .custom
                ? "chain ends at a --ca-file root: judged as a user- or MDM-installed root (no 398-day cap, no CT)"
                : "chain ends at a system root: judged as a preinstalled root (398-day cap and CT apply)")
        }
        return evaluation
    }
}
