import Foundation

/// One endpoint of the build judged under each OS era it supports: one probe, a verdict per era.
public struct AppEndpointEras: Codable, Sendable, Equatable {
    /// One era's verdict.
    public struct EraVerdict: Codable, Sendable, Equatable {
        /// The era (iOS numbering), e.g. `15.4`.
        public var os: String
        public var verdict: ATSEvaluation.Verdict
        /// The first violation's message when it fails.
        @ExplicitNull public var reason: String?

        /// One era's verdict.
        public init(os: String, verdict: ATSEvaluation.Verdict, reason: String?) {
            self.os = os
            self.verdict = verdict
            self.reason = reason
        }
    }

    /// `host:port`, or `http://host:port` for a cleartext endpoint.
    public var endpoint: String
    /// Where it was found (the first place) or listed.
    public var source: SourceLocation
    /// `completed`, `unreachable`, …
    public var status: ScanStatus
    public var eras: [EraVerdict]
    /// `passes on iOS 15+`, `fails on iOS 12–12.2, passes on 13+`, `not judged (timeout)`.
    public var summary: String

    /// One endpoint's verdicts over the eras of the build.
    public init(endpoint: String, source: SourceLocation, status: ScanStatus, eras: [EraVerdict], summary: String) {
        self.endpoint = endpoint
        self.source = source
        self.status = status
        self.eras = eras
        self.summary = summary
    }
}

/// A pin evaluation `atscheck app` made against a live path.
public struct AppPinCheck: Codable, Sendable, Equatable {
    /// What asked for it.
    public enum Origin: String, Codable, Sendable {
        /// `NSAppTransportSecurity.NSPinnedDomains` covers the host.
        case pinnedDomains = "NSPinnedDomains"
        /// `TSKConfiguration` covers the host.
        case trustKit = "TSKConfiguration"
        /// The certificate files a linked AFNetworking or Alamofire loads, in one of its modes.
        case bundledCertificates = "bundled-certificates"
        /// The pin check of an `--endpoints` list entry.
        case endpointList = "endpoint-list"
    }

    public var origin: Origin
    /// `host:port`.
    public var endpoint: String
    public var library: PinLibrary
    /// The mode evaluated for bundled certificates (`certificate`, `public-key`, `pinned-certificates`,
    /// `public-keys`); nil for configuration-driven checks.
    @ExplicitNull public var mode: String?
    /// True when the mode is one plausible mode (not named with `--library`/`--mode`): its rejection is a warning.
    public var assumed: Bool
    /// The pin material: the certificate files, or the Info.plist.
    public var pinFiles: [String]
    /// Where the pins were loaded from and why (e.g. AFNetworking 3 as a framework reads its own bundle).
    @ExplicitNull public var note: String?
    /// The evaluation, as `atscheck pins check` reports it.
    public var result: PinCheckResult

    /// A pin check of `atscheck app`.
    public init(
        origin: Origin, endpoint: String, library: PinLibrary, mode: String?, assumed: Bool, pinFiles: [String],
        note: String?, result: PinCheckResult
    ) {
        self.origin = origin
        self.endpoint = endpoint
        self.library = library
        self.mode = mode
        self.assumed = assumed
        self.pinFiles = pinFiles
        self.note = note
        self.result = result
    }
}

/// One piece of exception debt and the eras it holds on (the `live.exceptionDebt` of `atscheck app`'s JSON).
public struct AppExceptionDebt: Sendable, Equatable, Encodable {
    public var debt: ExceptionDebt
    /// The eras (iOS numbering) on which the audit found it.
    public var eras: [String]

    /// A piece of debt and the eras it holds on.
    public init(debt: ExceptionDebt, eras: [String]) {
        self.debt = debt
        self.eras = eras
    }

    private enum Keys: String, CodingKey { case eras }

    public func encode(to encoder: Encoder) throws {
        try debt.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(eras, forKey: .eras)
    }
}
