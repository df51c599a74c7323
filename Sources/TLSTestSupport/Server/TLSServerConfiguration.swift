import Foundation
package import TLSModel

/// How a ``TestTLSServer`` behaves: versions, suites, groups, the chain it sends, OCSP stapling.
package struct TLSServerConfiguration: Sendable {
    /// Lowest version accepted.
    package var minVersion: TLSVersion
    /// Highest version accepted.
    package var maxVersion: TLSVersion
    /// OpenSSL cipher string for TLS 1.2 and below (e.g. `"ECDHE-RSA-AES128-GCM-SHA256:AES128-SHA"`);
    /// nil = OpenSSL's `DEFAULT`. `:@SECLEVEL=0` is always appended.
    package var cipherList: String?
    /// TLS 1.3 suites (e.g. `"TLS_AES_256_GCM_SHA384"`); nil = OpenSSL's default three.
    package var tls13CipherSuites: String?
    /// Choose suites by the server's order (`SSL_OP_CIPHER_SERVER_PREFERENCE`).
    package var serverPreference: Bool
    /// Prefer ChaCha20 when the client lists it first (`SSL_OP_PRIORITIZE_CHACHA`).
    package var prioritizeChaCha: Bool
    /// The chain sent, leaf first, exactly as given: omit the intermediate to test a missing one.
    package var chain: [TestCertificate]
    /// Key exchange groups, e.g. `"X25519:P-256"`; nil = OpenSSL's default.
    package var groups: String?
    /// Let OpenSSL pick DH parameters matching the certificate's strength for DHE suites.
    package var dhAuto: Bool
    /// If set, these bytes are stapled as the OCSP response when the client sends status_request.
    package var ocspStaple: Data?
    /// If set, this TLS-encoded `SignedCertificateTimestampList` (``TestCTLog/list(_:)``) is sent in the
    /// `signed_certificate_timestamp` extension (TLS ≤ 1.2: ServerHello; TLS 1.3: the leaf's CertificateEntry)
    /// when the client asks for it.
    package var sctList: Data?
    /// Loopback address to bind: `127.0.0.1` or `::1`.
    package var address: String
    /// How long one connection may take to finish its handshake before the server drops it.
    package var handshakeTimeout: Double
    /// How the server takes its connections: any number at once (the default), one at a time, or capped.
    package var connections: ConnectionPolicy = .concurrent
    /// The listen queue's length (`listen(2)`'s backlog): 0 or 1 for a server with a tiny one.
    package var listenBacklog: Int32 = 128

    /// A configuration; every parameter has a default.
    /// - Parameter chain: Leaf first. Defaults to ``TestPKI/sharedLocalhostChain``
    ///   (a `localhost`/`127.0.0.1`/`::1` leaf and the intermediate of ``TestPKI/shared``).
    package init(
        minVersion: TLSVersion = .tls1_2, maxVersion: TLSVersion = .tls1_3, cipherList: String? = nil,
        tls13CipherSuites: String? = nil, serverPreference: Bool = true, prioritizeChaCha: Bool = false,
        chain: [TestCertificate]? = nil, groups: String? = nil, dhAuto: Bool = true, ocspStaple: Data? = nil,
        address: String = "127.0.0.1", handshakeTimeout: Double = 5
    ) {
        self.minVersion = minVersion
        self.maxVersion = maxVersion
        self.cipherList = cipherList
        self.tls13CipherSuites = tls13CipherSuites
        self.serverPreference = serverPreference
        self.prioritizeChaCha = prioritizeChaCha
        self.chain = chain ?? TestPKI.sharedLocalhostChain
        self.groups = groups
        self.dhAuto = dhAuto
        self.ocspStaple = ocspStaple
        self.address = address
        self.handshakeTimeout = handshakeTimeout
    }

    /// TLS 1.2 and 1.3 with ECDHE and AEAD suites only: what ATS accepts without exceptions.
    /// - Parameter chain: Leaf first (default: a shared-PKI `localhost` leaf and its intermediate).
    package static func modern(chain: [TestCertificate]? = nil) -> TLSServerConfiguration {
        TLSServerConfiguration(
            minVersion: .tls1_2, maxVersion: .tls1_3,
            cipherList: "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                + "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                + "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305",
            chain: chain)
    }

    /// Only `version`, with `cipherList` for TLS ≤ 1.2.
    package static func only(
        _ version: TLSVersion, cipherList: String? = nil, chain: [TestCertificate]? = nil
    ) -> TLSServerConfiguration {
        TLSServerConfiguration(minVersion: version, maxVersion: version, cipherList: cipherList, chain: chain)
    }

    /// The cipher string set on the `SSL_CTX`.
    var effectiveCipherList: String { (cipherList ?? "DEFAULT") + ":@SECLEVEL=0" }
}
