internal import COpenSSL
internal import OpenSSLSupport
import TLSModel

/// A client `SSL_CTX` (owned through ``OwnedSSLContext``) configured to offer exactly one range of TLS versions.
///
/// Probes run at OpenSSL security level 0: Debian's OpenSSL 3 otherwise refuses to speak
/// TLS 1.0/1.1, SHA-1 signatures and small keys, which are exactly what a scanner must see.
final class ClientContext {
    /// The one owner of the `SSL_CTX`.
    let context: OwnedSSLContext
    /// The `SSL_CTX`, lent for as long as this object lives.
    var ctx: OpaquePointer { context.pointer }
    let minVersion: TLSVersion
    let maxVersion: TLSVersion

    /// Every ≤1.2 suite the linked OpenSSL can put in a ClientHello.
    static let allLegacySuitesString = "ALL:COMPLEMENTOFALL:@SECLEVEL=0"
    /// Every TLS 1.3 suite the linked OpenSSL implements (CCM ones are off by default; we offer them).
    static let allTLS13Suites: [CipherSuite] = [
        .TLS_AES_256_GCM_SHA384, .TLS_CHACHA20_POLY1305_SHA256, .TLS_AES_128_GCM_SHA256,
        CipherSuite(0x1304), CipherSuite(0x1305),
    ]

    /// - Parameter requestSCTs: also ask for SCTs in the TLS extension (and a stapled OCSP response, which every
    ///   probe asks for), and keep every SCT seen (``Handshaker``): only the lead handshake, whose chain is the one
    ///   reported, asks; enumeration offers stay as they were.
    init(minVersion: TLSVersion, maxVersion: TLSVersion, requestSCTs: Bool = false) throws {
        guard let context = OwnedSSLContext.client() else { throw OpenSSLError("SSL_CTX_new") }
        self.context = context  // owned from here on: freed even if a step below throws
        let ctx = context.pointer
        self.minVersion = minVersion
        self.maxVersion = maxVersion
        SSL_CTX_set_security_level(ctx, 0)
        guard atsc_SSL_CTX_set_min_proto_version(ctx, Int32(minVersion.rawValue)) == 1,
            atsc_SSL_CTX_set_max_proto_version(ctx, Int32(maxVersion.rawValue)) == 1
        else { throw OpenSSLError("setting protocol versions \(minVersion)–\(maxVersion)") }
        // We never verify during the handshake: verification happens afterwards, on the kept chain,
        // so that an untrusted certificate never hides what the server supports.
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
        // Legacy renegotiation and compatibility quirks must not stop a probe of an old server.
        SSL_CTX_set_options(
            ctx,
            atsc_SSL_OP_LEGACY_SERVER_CONNECT() | atsc_SSL_OP_ALLOW_UNSAFE_LEGACY_RENEGOTIATION()
                | atsc_SSL_OP_NO_TICKET())
        // No session reuse: every probe must be a full handshake that shows the server's choice.
        _ = atsc_SSL_CTX_set_session_cache_off(ctx)
        guard SSL_CTX_set_cipher_list(ctx, ClientContext.allLegacySuitesString) == 1 else {
            throw OpenSSLError("SSL_CTX_set_cipher_list")
        }
        // Offer every group OpenSSL supports, so the server's choice (and DH/EC group) is its own.
        _ = atsc_SSL_CTX_set1_groups_list(
            ctx, "X25519:P-256:X448:P-521:P-384:ffdhe2048:ffdhe3072:ffdhe4096:ffdhe6144:ffdhe8192")
        // Stop each handshake once the server's first flight is read and checked (``ServerFlight``).
        _ = atsc_SSL_CTX_set_tlsext_status_cb(ctx, ServerFlight.stopCallback)
        // Permissive: OpenSSL only collects the SCTs; they are checked after the chain is verified (``SCTVerifier``).
        // (Its own check would run after ``ServerFlight`` stops the handshake anyway.)
        if requestSCTs, SSL_CTX_enable_ct(ctx, Int32(SSL_CT_VALIDATION_PERMISSIVE)) != 1 {
            throw OpenSSLError("SSL_CTX_enable_ct")
        }
        OpenSSLErrorQueue.clear()
    }

    /// The ≤1.2 suites this context would offer at its version range, in OpenSSL's preference order.
    func offerableLegacySuites() -> [OfferedSuite] {
        guard let ssl = OwnedSSL(context: context) else { return [] }
        defer { withExtendedLifetime(ssl) {} }
        guard let stack = SSL_get1_supported_ciphers(ssl.pointer) else { return [] }
        defer { atsc_sk_SSL_CIPHER_free(stack) }
        var suites: [OfferedSuite] = []
        for i in 0..<atsc_sk_SSL_CIPHER_num(stack) {
            guard let cipher = atsc_sk_SSL_CIPHER_value(stack, i) else { continue }
            let code = UInt16(truncatingIfNeeded: SSL_CIPHER_get_protocol_id(cipher))
            if code >> 8 == 0x13 { continue }  // TLS 1.3 suites are offered separately
            suites.append(
                OfferedSuite(suite: CipherSuite(code), openSSLName: String(cString: SSL_CIPHER_get_name(cipher))))
        }
        return suites
    }
}

/// A suite as the client offers it: the code and the name OpenSSL's cipher strings use.
struct OfferedSuite: Hashable {
    var suite: CipherSuite
    var openSSLName: String
}

/// Where a probe's handshake stops: once the server's first flight has been read and checked.
///
/// OpenSSL calls a client's certificate-status callback when the whole first flight of the server is in
/// and checked (TLS ≤ 1.2: ServerHello … ServerHelloDone, the ServerKeyExchange signature included), and
/// before the client computes its key exchange (TLS 1.3: once the server's certificate is in; the shared
/// secret there is already derived, and the stop saves only the rest of the handshake). Every fact a
/// probe reads (version, suite, key-exchange group, certificate chain, OCSP staple) is known then. The
/// callback marks the connection and fails the handshake, so the client never derives a shared secret it
/// would not use. (A DHE suite never gets here: OpenSSL checks the server's public value while it reads the
/// ServerKeyExchange, before this callback, so ``DHEKeyExchangeGate`` keeps that message from it.) The
/// failure's alert is never sent; the connection is closed without another byte: the server is spared the
/// private-key operation a full handshake would cost it.
///
/// Called only when the client asked for a staple, which every probe does (``Handshaker``).
enum ServerFlight {
    /// Ex-data slot 0 (the "app data" slot) of a probe's `SSL`, non-nil once the flight is read.
    static let stopCallback: atsc_status_cb = { ssl, _ in
        _ = SSL_set_ex_data(ssl, 0, UnsafeMutableRawPointer(bitPattern: 1))
        return 0
    }

    /// Whether ``stopCallback`` ran on `ssl`.
    static func wasRead(_ ssl: OpaquePointer) -> Bool { SSL_get_ex_data(ssl, 0) != nil }
}
