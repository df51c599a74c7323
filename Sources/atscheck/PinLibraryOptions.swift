import ATSCheckKit
import ArgumentParser
import Pinning
import TLSModel

/// The pinning library and its mode, declared once for `pins check` and `app` (issue 21). The values become a
/// ``PinPolicyOptions`` (endpoint-list keys), which the library in ``PinningLibraries`` validates and configures.
struct PinLibraryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library to emulate: \(PinningLibraries.idList).",
            discussion: "pins check: default afnetworking. app: the library that loads the bundled certificates "
                + "(afnetworking|alamofire), default every linked one."))
    var library: PinLibrary?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "AFNetworking: AFSSLPinningMode, none|certificate|public-key.",
            discussion: "Default certificate; app: certificate and public-key."))
    var mode: AFSecurityPolicyOptions.Mode?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Alamofire: default|revocation|pinned-certificates|public-keys|disabled.",
            discussion: "Default pinned-certificates; app: pinned-certificates and public-keys."))
    var evaluator: AlamofireLibrary.EvaluatorKind?

    @Option(
        name: .customLong("af-version"),
        help: ArgumentHelp(
            "AFNetworking major version where behaviour differs: 2, 3 or 4.",
            discussion: "Default 4; app: the linked framework's, else 4."))
    var afVersion: Int?

    /// The options given, by endpoint-list key.
    var values: PinOptionValues {
        var values = PinOptionValues()
        values["mode"] = mode?.rawValue
        values["evaluator"] = evaluator?.rawValue
        values["afVersion"] = afVersion.map(String.init)
        return values
    }

    /// The flags given, for messages.
    var given: [String] {
        [
            ("--library", library != nil), ("--mode", mode != nil), ("--evaluator", evaluator != nil),
            ("--af-version", afVersion != nil),
        ].filter(\.1).map(\.0)
    }
}

/// The debug relaxations `pins check` evaluates next to the release build (pinning.md §2).
struct PinRelaxationOptions: ParsableArguments {
    @Flag(
        name: .customLong("allow-invalid-certificates"),
        help: "AFNetworking: allowInvalidCertificates = YES (a debug relaxation).")
    var allowInvalidCertificates = false

    @Flag(
        name: .customLong("no-validate-domain-name"),
        help: "AFNetworking: validatesDomainName = NO (a debug relaxation).")
    var noValidateDomainName = false

    @Flag(name: .customLong("accept-self-signed"), help: "Alamofire: acceptSelfSignedCertificates = true.")
    var acceptSelfSigned = false

    @Flag(name: .customLong("no-default-validation"), help: "Alamofire: performDefaultValidation = false.")
    var noDefaultValidation = false

    @Flag(name: .customLong("no-validate-host"), help: "Alamofire: validateHost = false.")
    var noValidateHost = false

    /// Adds the flags given to `values`, by endpoint-list key.
    func adding(to values: PinOptionValues) -> PinOptionValues {
        var values = values
        if allowInvalidCertificates { values["allowInvalidCertificates"] = "true" }
        if noValidateDomainName { values["validatesDomainName"] = "false" }
        if acceptSelfSigned { values["acceptSelfSignedCertificates"] = "true" }
        if noDefaultValidation { values["performDefaultValidation"] = "false" }
        if noValidateHost { values["validateHost"] = "false" }
        return values
    }
}

/// `AFSSLPinningMode` on the command line (`none|certificate|public-key`).
extension AFSecurityPolicyOptions.Mode: ExpressibleByArgument {}

/// The Alamofire 5 evaluators on the command line.
extension AlamofireLibrary.EvaluatorKind: ExpressibleByArgument {}

/// A registered library's id on the command line.
extension PinLibrary: ExpressibleByArgument {
    public init?(argument: String) {
        guard let library = PinningLibraries.named(PinLibrary(rawValue: argument)) else { return nil }
        self = library.id
    }

    public static var allValueStrings: [String] { PinningLibraries.all.map(\.id.rawValue) }
}
