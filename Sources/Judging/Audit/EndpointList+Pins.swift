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
    /// The keys of a pin check in an endpoint mapping: `pins`, `library` and every registered library's options
    /// (``PinPolicyOptions/endpointListKeys``; the names are those of the libraries' properties).
    package static var pinKeys: Set<String> { PinPolicyOptions.endpointListKeys }

    /// The pin check of a mapping's values, nil when it asks for none.
    /// - Returns: the check, or the reason the entry is unusable (an `endpoints.invalid` message).
    package static func pinCheck(from values: [String: String]) -> Result<EndpointPinCheck?, PinCheckKeyError> {
        let given = pinKeys.filter { values[$0] != nil }
        guard !given.isEmpty else { return .success(nil) }
        guard let pins = values["pins"], !pins.isEmpty else {
            return .failure(
                PinCheckKeyError(
                    "\(given.sorted().map { "'\($0)'" }.joined(separator: ", ")) without 'pins:' (the pin file or "
                        + "folder to check against)"
                ))
        }
        switch PinPolicyOptions.parse(values.filter { given.contains($0.key) }) {
        case .success(let options): return .success(EndpointPinCheck(pins: pins, options: options))
        case .failure(let problem): return .failure(PinCheckKeyError(problem.message))
        }
    }
}

/// Why an entry's pin keys are unusable.
package struct PinCheckKeyError: Error {
    package var message: String
    package init(_ message: String) { self.message = message }
}
