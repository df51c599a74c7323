import ATSCheckKit
import ArgumentParser
import Pinning
import TLSModel

/// The command-line flags of the registered libraries' options (``PinOptionSpec``). ArgumentParser's option groups
/// are static, so each flag is a property below; everything else comes from the library's declaration: the help
/// (``help(_:)``) and the endpoint-list key a flag's value goes to (``PinOptionSpec/values(flags:)``). The flags and
/// their properties are paired once, in ``PinLibraryOptions/flags`` and ``PinRelaxationOptions/flags``; a flag no
/// library declares stops the CLI at its first parse, and `PinsCommandTests` fails when a declared flag is missing
/// from `--help`. (A generated `--pin-option LIB.KEY=VALUE` would have changed the CLI; this keeps `--help` and
/// parsing as they were.)
enum PinFlags {
    /// The help the declaring library gives `flag`.
    static func help(_ flag: String) -> ArgumentHelp {
        guard let spec = PinOptionSpec.declared(flag: flag) else {
            preconditionFailure("\(flag) is declared by no library in PinningLibraries.all")
        }
        return ArgumentHelp(spec.help, discussion: spec.discussion)
    }
}

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

    @Option(name: .long, help: PinFlags.help("--mode"))
    var mode: AFSecurityPolicyOptions.Mode?

    @Option(name: .long, help: PinFlags.help("--evaluator"))
    var evaluator: AlamofireLibrary.EvaluatorKind?

    @Option(name: .customLong("af-version"), help: PinFlags.help("--af-version"))
    var afVersion: Int?

    /// Each flag with its value as text, in `--help` order: the one place the properties meet the declarations.
    var flags: [(flag: String, text: String?)] {
        [
            ("--mode", mode?.rawValue), ("--evaluator", evaluator?.rawValue),
            ("--af-version", afVersion.map(String.init)),
        ]
    }

    /// The options given, by endpoint-list key.
    var values: PinOptionValues { PinOptionSpec.values(flags: flags) }

    /// The flags given, for messages.
    var given: [String] {
        (library != nil ? ["--library"] : []) + flags.filter { $0.text != nil }.map(\.flag)
    }
}

/// The debug relaxations `pins check` evaluates next to the release build (docs/pinning-rules.md §2): the libraries'
/// boolean options.
struct PinRelaxationOptions: ParsableArguments {
    @Flag(name: .customLong("allow-invalid-certificates"), help: PinFlags.help("--allow-invalid-certificates"))
    var allowInvalidCertificates = false

    @Flag(name: .customLong("no-validate-domain-name"), help: PinFlags.help("--no-validate-domain-name"))
    var noValidateDomainName = false

    @Flag(name: .customLong("accept-self-signed"), help: PinFlags.help("--accept-self-signed"))
    var acceptSelfSigned = false

    @Flag(name: .customLong("no-default-validation"), help: PinFlags.help("--no-default-validation"))
    var noDefaultValidation = false

    @Flag(name: .customLong("no-validate-host"), help: PinFlags.help("--no-validate-host"))
    var noValidateHost = false

    /// Each flag, with a text when given: the one place the properties meet the declarations.
    var flags: [(flag: String, text: String?)] {
        [
            ("--allow-invalid-certificates", allowInvalidCertificates),
            ("--no-validate-domain-name", noValidateDomainName), ("--accept-self-signed", acceptSelfSigned),
            ("--no-default-validation", noDefaultValidation), ("--no-validate-host", noValidateHost),
        ].map { ($0.0, $0.1 ? "" : nil) }
    }

    /// Adds the flags given to `values`, by endpoint-list key.
    func adding(to values: PinOptionValues) -> PinOptionValues {
        var values = values
        for (key, text) in PinOptionSpec.values(flags: flags).text { values[key] = text }
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
