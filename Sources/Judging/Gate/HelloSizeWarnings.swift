import ATSPolicy
import Foundation
import TLSModel

/// A ``RuleID/ATS/helloSizeIntolerant`` warning for an endpoint whose scan found it fails a ClientHello that spans
/// two TCP segments while it answers one that fits one (``ServerProfile/helloSizeTolerance``, issue 36): every iOS 26
/// connection fails there. A warning, not an ATS failure: no Info.plist key is broken, and the iOS 18 client connects.
package enum HelloSizeWarnings {
    /// The warnings for the endpoints of a report, one per intolerant endpoint.
    package static func findings(for endpoints: [EndpointResult]) -> [Finding] {
        endpoints.compactMap { endpoint in
            guard let tolerance = endpoint.profile.helloSizeTolerance, tolerance.tolerant == false else { return nil }
            let outcomes =
                tolerance.detail
                ?? "the ClientHello in two TCP segments is \(tolerance.split.rawValue), in one it is "
                + tolerance.single.rawValue
            return Finding(
                rule: RuleID.ATS.helloSizeIntolerant, severity: .warning,
                message:
                    "\(endpoint.profile.target): iOS 26 cannot connect: \(outcomes). Make the server (or the load "
                    + "balancer in front of it) read the whole ClientHello record",
                file: endpoint.source?.file, line: endpoint.source?.line)
        }
    }
}
