import ATSCheckKit
import ArgumentParser

/// `--require-pq`, for the commands that judge endpoints (`scan`, `audit`, `app`): quantum-secure readiness, a note
/// by default (Apple does not require it), becomes a failure for teams that want it.
struct QuantumOption: ParsableArguments {
    @Flag(
        name: .customLong("require-pq"),
        help: ArgumentHelp(
            "Fail (exit 1) an endpoint whose iOS 26 connections do not negotiate X25519MLKEM768.",
            discussion:
                "Each is a required.quantum-secure error. Where it is unknown (iOS 26 did not connect, or a saved "
                + "profile has no simulation) the report says so in a note, which is not a failure. An ats-only scan "
                + "(the audit and app default) simulates iOS 26 alone for it: one connection more per endpoint."))
    var requirePQ = false

    /// Sets `--require-pq` in the run's settings.
    /// - Parameter settings: the settings the command scans with.
    /// - Throws: `ValidationError` (exit 64) with `--no-simulation`: the readiness comes from iOS 26's simulation.
    func apply(to settings: inout ScanSettings) throws {
        if requirePQ && !settings.simulatesClients {
            throw ValidationError("--require-pq needs iOS 26's simulation, which --no-simulation turns off")
        }
        settings.requireQuantumSecure = requirePQ
    }
}
