/// An Apple client a scan simulates (issue 36): an OS release's TLS stack as URLSession (or Safari) uses it, with the
/// ClientHello profile it sends, one per era in which the hello changes. The hello follows the OS's stack, not the
/// app: URLSession and Safari of one release send the same hello unless the profiles say otherwise, so a Safari
/// client is simulated only where its hello differs from the same release's URLSession hello (``simulated``).
package struct AppleSimulatedClient: Sendable, Hashable {
    /// The class of client code.
    package enum Kind: String, Sendable, Hashable {
        case urlSession = "URLSession"
        case safari = "Safari"
        /// URLSession in an app linked with an SDK older than its OS release's (``newestOlderSDK``).
        case urlSessionOlderSDK = "URLSession, older SDK"
    }

    /// The OS release, iOS numbering: `26`, `18`, `15.4`, `12.2`.
    package var osVersion: String
    package var kind: Kind
    /// What it sends, without the server's name (``ClientHelloBuilder`` adds it).
    package var profile: HelloProfile

    /// The client as a report names it: `iOS 26 (URLSession)`.
    package var name: String { "iOS \(osVersion) (\(kind.rawValue))" }

    /// How sure the profile is: the word before the colon of its ``HelloProfile/source`` (`exact`, `spec`,
    /// `partial`, `inferred`).
    package var evidence: String {
        profile.source.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "inferred"
    }

    /// Every era's clients, newest first: iOS 26 (URLSession, Safari), 18, 17, 15.4, 14 and 12.2, the first release
    /// whose URLSession offers TLS 1.3. The releases between send the hello of the one before them
    /// (docs/clienthello-engine.md): 15.0–15.3 iOS 14's, 16 iOS 15.4's; 13 (same suites as 12.2, AES first in TLS 1.3,
    /// no NPN) is not simulated apart.
    package static let eras: [AppleSimulatedClient] = [
        .init(osVersion: "26", kind: .urlSession, profile: .ios26URLSession),
        .init(osVersion: "26", kind: .safari, profile: .ios26),
        .init(osVersion: "18", kind: .urlSession, profile: .ios18),
        .init(osVersion: "17", kind: .urlSession, profile: .ios17),
        .init(osVersion: "15.4", kind: .urlSession, profile: .ios15_4),
        .init(osVersion: "14", kind: .urlSession, profile: .ios14),
        .init(osVersion: "12.2", kind: .urlSession, profile: .ios12_2),
    ]

    /// The clients a full scan simulates, newest first: ``eras`` without a Safari client whose hello equals its
    /// release's URLSession hello field for field (one connection would say the same twice). Today that drops
    /// iOS 26 Safari: Safari 26 and apps linked with the iOS 26 SDK both offer TLS 1.2–1.3 with the same lists.
    package static var simulated: [AppleSimulatedClient] {
        eras.filter { client in
            guard client.kind == .safari else { return true }
            return !eras.contains {
                $0.kind == .urlSession && $0.osVersion == client.osVersion && $0.sendsSameHello(as: client)
            }
        }
    }

    /// The newest release's URLSession client: what an ats-only scan with `--require-pq` simulates.
    package static var newest: AppleSimulatedClient { eras[0] }

    /// The newest release's URLSession in an app built with an older SDK (Xcode 16 or before), which still offers
    /// TLS 1.0 and 1.1 (``HelloProfile/ios26URLSessionOlderSDK``). Not one of ``simulated``: it is the same era as
    /// ``newest``, and its hello differs in supported_versions alone, so it negotiates what ``newest`` does
    /// unless the server's highest version is below TLS 1.2, which the enumeration reports already and ATS refuses
    /// without an exception. `diagnose --tls-diagnostics --older-sdk` simulates it in ``newest``'s place.
    package static let newestOlderSDK = AppleSimulatedClient(
        osVersion: "26", kind: .urlSessionOlderSDK, profile: .ios26URLSessionOlderSDK)

    /// Whether the two send the same ClientHello (every field but the profile's name and source).
    package func sendsSameHello(as other: AppleSimulatedClient) -> Bool {
        var mine = profile
        mine.name = other.profile.name
        mine.source = other.profile.source
        return mine == other.profile
    }

    /// The versions the hello offers, GREASE left out: supported_versions, or legacy_version and below to TLS 1.0.
    package var offeredVersions: [UInt16] { profile.offeredVersions }

    /// The suites the hello offers, GREASE and signalling values left out, in order.
    package var offeredSuites: [UInt16] {
        profile.cipherSuites.filter { !GreaseValues.isGrease($0) && $0 != 0x00FF && $0 != 0x5600 }
    }
}

extension HelloProfile {
    /// The versions offered, GREASE left out: supported_versions' list, or without it every version from
    /// legacy_version down to TLS 1.0 (RFC 5246 Appendix E.1).
    package var offeredVersions: [UInt16] {
        for case .supportedVersions(let versions) in extensions {
            return versions.filter { !GreaseValues.isGrease($0) }
        }
        return legacyVersion >= 0x0301 ? Array((0x0301...legacyVersion).reversed()) : []
    }

    /// The signature schemes offered (signature_algorithms), empty when the extension is absent.
    package var signatureAlgorithms: [UInt16] {
        for case .signatureAlgorithms(let schemes) in extensions { return schemes }
        return []
    }
}
