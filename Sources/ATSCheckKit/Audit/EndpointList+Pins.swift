import Foundation
import Pinning
import TLSModel

/// A pin check an endpoint list entry asks for (`pins:` and `library:` with the library's knobs): the audit
/// evaluates the endpoint's live path with that library, as `atscheck pins check` would.
public struct EndpointPinCheck: Sendable, Equatable {
    /// The pin material (file or directory); relative paths are resolved against the endpoint list's folder
    /// by ``EndpointList/load(path:)``.
    public var pins: String
    /// The library and its options.
    public var options: PinPolicyOptions

    /// A pin check.
    public init(pins: String, options: PinPolicyOptions) {
        self.pins = pins
        self.options = options
    }
}

extension EndpointList {
    /// The keys of a pin check in an endpoint mapping; the names are those of the libraries' properties.
    static let pinKeys: Set<String> = [
        "pins", "library", "mode", "allowInvalidCertificates", "validatesDomainName", "afVersion", "evaluator",
        "acceptSelfSignedCertificates", "performDefaultValidation", "validateHost",
    ]

    /// The pin check of a mapping's values, nil when it asks for none.
    /// - Returns: the check, or the reason the entry is unusable (an `endpoints.invalid` message).
    static func pinCheck(from values: [String: String]) -> Result<EndpointPinCheck?, PinCheckKeyError> {
        let given = pinKeys.filter { values[$0] != nil }
        guard !given.isEmpty else { return .success(nil) }
        guard let pins = values["pins"], !pins.isEmpty else {
            return .failure(PinCheckKeyError("\(given.sorted().map { "'\($0)'" }.joined(separator: ", ")) without 'pins:' (the pin file or folder to check against)"))
        }
        var options = PinPolicyOptions()
        if let text = values["library"] {
            guard let library = PinLibrary(rawValue: text.lowercased()) else {
                return .failure(PinCheckKeyError("library '\(text)' is not one of \(PinLibrary.allCases.map(\.rawValue).joined(separator: "|"))"))
            }
            options.library = library
        }
        if let text = values["mode"] {
            guard let mode = PinPolicyOptions.AFMode(rawValue: text.lowercased()) else {
                return .failure(PinCheckKeyError("mode '\(text)' is not one of \(PinPolicyOptions.AFMode.allCases.map(\.rawValue).joined(separator: "|"))"))
            }
            options.mode = mode
        }
        if let text = values["evaluator"] {
            guard let evaluator = PinPolicyOptions.AlamofireEvaluatorKind(rawValue: text.lowercased()) else {
                let names = PinPolicyOptions.AlamofireEvaluatorKind.allCases.map(\.rawValue).joined(separator: "|")
                return .failure(PinCheckKeyError("evaluator '\(text)' is not one of \(names)"))
            }
            options.evaluator = evaluator
        }
        if let text = values["afVersion"] {
            guard let version = Int(text) else { return .failure(PinCheckKeyError("afVersion '\(text)' is not a number (2, 3 or 4)")) }
            options.afVersion = version
        }
        let flags: [(String, WritableKeyPath<PinPolicyOptions, Bool>)] = [
            ("allowInvalidCertificates", \.allowInvalidCertificates), ("validatesDomainName", \.validatesDomainName),
            ("acceptSelfSignedCertificates", \.acceptSelfSignedCertificates),
            ("performDefaultValidation", \.performDefaultValidation), ("validateHost", \.validateHost),
        ]
        for (key, path) in flags {
            guard let text = values[key] else { continue }
            guard let value = boolean(text) else { return .failure(PinCheckKeyError("\(key) '\(text)' is not true or false")) }
            options[keyPath: path] = value
        }
        if let problem = options.problem(.endpointList) { return .failure(PinCheckKeyError(problem)) }
        return .success(EndpointPinCheck(pins: pins, options: options))
    }

    /// A YAML/JSON boolean (`true`/`false`, and YAML 1.1's `yes`/`no`).
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: return nil
        }
    }
}

/// Why an entry's pin keys are unusable.
struct PinCheckKeyError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
