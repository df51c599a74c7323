import ArgumentParser
import ATSCheckKit

/// Which Apple rules to apply.
struct PolicyOptions: ParsableArguments {
    @Option(name: .customLong("os-version"), help: ArgumentHelp(
        "Apple OS release whose rules apply (iOS numbering; default: \(AppleOSVersion.newest)).",
        discussion: "Known eras: \(AppleOSVersion.supportedValues.joined(separator: ", ")). macOS 10.11 ≈ 9, 10.12 ≈ 10, 14 ≈ 17."))
    var osVersion: String?

    @Option(name: .long, help: ArgumentHelp("Client class: \(ClientKind.allCases.map(\.rawValue).joined(separator: "|")).", visibility: .default))
    var client: String = ClientKind.urlSession.rawValue

    func validate() throws {
        if let osVersion, AppleOSVersion(string: osVersion) == nil {
            throw ValidationError("unknown --os-version '\(osVersion)'; use one of \(AppleOSVersion.supportedValues.joined(separator: ", "))")
        }
        if ClientKind(rawValue: client) == nil {
            throw ValidationError("unknown --client '\(client)'; use \(ClientKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    var os: AppleOSVersion { osVersion.flatMap(AppleOSVersion.init(string:)) ?? .newest }
    var clientKind: ClientKind { ClientKind(rawValue: client) ?? .urlSession }

    /// Loads `--plist` when given; a bad file exits 65 with one line.
    func judge(plist: String?) throws -> PolicyJudge {
        var policy = AppPolicySource.defaultPolicy
        if let plist {
            do { policy = try AppPolicySource.load(plist) } catch let error as InputFileError {
                Terminal.fail(error.description)
                throw ExitCode(ExitStatus.badInput.rawValue)
            }
        }
        return PolicyJudge(policy: policy, os: os, client: clientKind)
    }
}
