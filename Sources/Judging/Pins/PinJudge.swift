import Foundation
import Pinning
import TLSModel

/// The decision of a pin check for one served chain, pure over a ``TrustPathBuilding``: the policy's evaluation and,
/// for a relaxed (debug) policy, the release build's and the risks of shipping the relaxed one (docs/pinning-rules.md
/// §2). The facade builds the path builder (OpenSSL) and the report around it.
package enum PinJudge {
    /// What one served chain gets.
    package struct Judgement: Sendable {
        /// The policy's evaluation.
        package var evaluation: PinEvaluation
        /// The release build's evaluation, when the policy has debug relaxations.
        package var release: PinEvaluation?
        /// The risks of shipping the relaxed build (empty without relaxations).
        package var risks: [Finding]
    }

    /// Judges one served chain.
    /// - Parameters:
    ///   - policy: The configured policy.
    ///   - pins: The pin material, as the libraries read it.
    ///   - connection: The host, the served chain, the time and `--warn-days`.
    ///   - builder: Builds paths over the served chain.
    /// - Returns: The evaluation, and the release build's with the risks when the policy is relaxed.
    package static func judge(
        _ policy: PinPolicy, pins: AppPins, connection: PinConnection, builder: some TrustPathBuilding
    ) -> Judgement {
        let evaluation = policy.evaluate(connection, pins: pins, builder: builder)
        guard let releasePolicy = policy.release else {
            return Judgement(evaluation: evaluation, release: nil, risks: [])
        }
        let release = releasePolicy.evaluate(connection, pins: pins, builder: builder)
        let risks = policy.configuration.releaseRisks(
            host: connection.host, debug: evaluation, release: release, pins: pins)
        return Judgement(evaluation: evaluation, release: release, risks: risks)
    }
}
