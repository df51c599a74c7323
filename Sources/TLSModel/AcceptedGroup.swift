import Foundation

/// A key-exchange group the server accepted for one version (``ProtocolResult/groups``).
///
/// Field names are part of the JSON contract (docs/json-output.md); add around them, never rename.
public struct AcceptedGroup: Codable, Sendable, Equatable {
    /// IANA name: `X25519MLKEM768`, `x25519`, `secp256r1`, `ffdhe2048`; the hex code for a group the registry
    /// does not list.
    public var name: String
    /// Code point as `0x11EC`.
    public var code: String
    /// Whether the group resists a quantum computer (an ML-KEM or Kyber hybrid, or ML-KEM alone).
    public var postQuantum: Bool
    /// The estimated classical security strength in bits (``NamedGroupInfo/classicalBits``: 128 for x25519 and
    /// X25519MLKEM768, 192 for secp384r1, 103 for ffdhe2048); nil when unknown or for ML-KEM alone.
    public var bits: Int?
    /// Whether a TLS 1.3 handshake with the group was proven: the server's first encrypted record opened with the
    /// keys of atscheck's key share and the server's (issue 35). Nil (omitted) when no proof was made (TLS 1.2, or
    /// a group accepted only by a HelloRetryRequest naming it).
    public var proven: Bool?

    /// The entry for a group, from the registry.
    /// - Parameter group: The group the server accepted.
    public init(group: NamedGroup) {
        let info = group.info
        self.name = info?.ianaName ?? group.hexCode
        self.code = group.hexCode
        self.postQuantum = info?.postQuantum ?? false
        self.bits = info?.classicalBits
    }

    /// The group as a value (from `code`).
    public var group: NamedGroup { NamedGroup(text: code) ?? NamedGroup(0) }

    /// Whether the group is a hybrid of a classical curve and ML-KEM (or the Kyber draft), as X25519MLKEM768 is.
    public var isHybrid: Bool { group.info?.kind == .hybrid }
}

extension ServerProfile {
    /// The post-quantum groups the server accepted in TLS 1.3, in the order of ``ProtocolResult/groups``; empty when
    /// it accepted none or TLS 1.3 groups were not enumerated (``acceptsPostQuantum`` tells the two apart).
    public var postQuantumGroups: [AcceptedGroup] {
        (result(for: .tls1_3)?.groups ?? []).filter(\.postQuantum)
    }

    /// Whether the server accepted a post-quantum group in TLS 1.3; nil when TLS 1.3 groups were not enumerated (an
    /// ats-only scan, TLS 1.3 not supported, or an older profile). False is an answer only when
    /// ``ProtocolResult/groupsComplete`` is not false.
    public var acceptsPostQuantum: Bool? {
        guard let groups = result(for: .tls1_3)?.groups else { return nil }
        if groups.contains(where: \.postQuantum) { return true }
        return result(for: .tls1_3)?.groupsComplete == false ? nil : false
    }
}
