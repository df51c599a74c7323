internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// A server `SSL_CTX` (owned through ``OwnedSSLContext``) configured from a ``TLSServerConfiguration``.
///
/// `@unchecked Sendable`: the context is fully configured in `init` and only read afterwards
/// (`SSL_new` from several threads is safe on a context nobody modifies).
final class ServerContext: @unchecked Sendable {
    /// The one owner of the `SSL_CTX`.
    let context: OwnedSSLContext
    /// The `SSL_CTX`, lent for as long as this object lives.
    var pointer: OpaquePointer { context.pointer }
    /// The OCSP response the status callback reads through its `arg` pointer; lives as long as the context.
    private let staple: StapleBox?

    init(_ configuration: TLSServerConfiguration) throws {
        guard let context = OwnedSSLContext.server() else {
            throw TestSupportError.openSSL(.tlsConfiguration, "SSL_CTX_new")
        }
        self.context = context  // owned from here on: freed even if a step below throws
        let ctx = context.pointer
        staple = configuration.ocspStaple.map(StapleBox.init)

        // Security level 0: the fixtures must serve what real legacy servers still serve
        // (TLS 1.0/1.1, RSA-1024 keys, SHA-1 signatures, small DH), which levels ≥ 1 refuse.
        SSL_CTX_set_security_level(ctx, 0)
        try check(atsc_SSL_CTX_set_min_proto_version(ctx, Int32(configuration.minVersion.rawValue)), "min version")
        try check(atsc_SSL_CTX_set_max_proto_version(ctx, Int32(configuration.maxVersion.rawValue)), "max version")
        try check(
            SSL_CTX_set_cipher_list(ctx, configuration.effectiveCipherList),
            "cipher list \(configuration.effectiveCipherList)")
        if let suites = configuration.tls13CipherSuites {
            try check(SSL_CTX_set_ciphersuites(ctx, suites), "TLS 1.3 suites \(suites)")
        }
        var options: UInt64 = 0
        if configuration.serverPreference { options |= atsc_SSL_OP_CIPHER_SERVER_PREFERENCE() }
        if configuration.prioritizeChaCha { options |= atsc_SSL_OP_PRIORITIZE_CHACHA() }
        SSL_CTX_set_options(ctx, options)
        if let groups = configuration.groups {
            try check(atsc_SSL_CTX_set1_groups_list(ctx, groups), "groups \(groups)")
        }
        if configuration.dhAuto { _ = atsc_SSL_CTX_set_dh_auto(ctx, 1) }
        // No TLS 1.3 session tickets: a server writing tickets after the client's Finished would
        // count a probe that hung up at once as a failed handshake, and the probes never resume.
        SSL_CTX_set_num_tickets(ctx, 0)
        // Send exactly the configured chain: never complete it from a store.
        _ = atsc_SSL_CTX_set_mode(ctx, Int(SSL_MODE_NO_AUTO_CHAIN))

        guard let leaf = configuration.chain.first else {
            throw TestSupportError(.tlsConfiguration, "the chain is empty: give at least a leaf")
        }
        try check(SSL_CTX_use_certificate(ctx, leaf.x509.pointer), "SSL_CTX_use_certificate")
        try check(SSL_CTX_use_PrivateKey(ctx, leaf.key.pointer), "SSL_CTX_use_PrivateKey")
        for certificate in configuration.chain.dropFirst() {
            try check(atsc_SSL_CTX_add1_chain_cert(ctx, certificate.x509.pointer), "SSL_CTX_add1_chain_cert")
        }
        if let list = configuration.sctList {
            // Serverinfo v2 (context, type 18, length, data): OpenSSL sends it only to a client that asked, and in
            // TLS 1.3 only in the leaf's CertificateEntry.
            let context = UInt32(SSL_EXT_CLIENT_HELLO | SSL_EXT_TLS1_2_SERVER_HELLO | SSL_EXT_TLS1_3_CERTIFICATE)
            let bytes = [UInt8](list)
            let info =
                (0..<4).reversed().map { UInt8(truncatingIfNeeded: context >> (UInt32($0) * 8)) } + [0, 18]
                + [UInt8(bytes.count >> 8 & 0xFF), UInt8(bytes.count & 0xFF)] + bytes
            try check(
                SSL_CTX_use_serverinfo_ex(ctx, UInt32(SSL_SERVERINFOV2), info, info.count), "SSL_CTX_use_serverinfo_ex")
        }
        if let staple {
            _ = atsc_SSL_CTX_set_tlsext_status_cb(ctx, stapleCallback)
            _ = atsc_SSL_CTX_set_tlsext_status_arg(ctx, Unmanaged.passUnretained(staple).toOpaque())
        }
    }

    private func check(_ result: Int32, _ step: String) throws {
        guard result == 1 else { throw TestSupportError.openSSL(.tlsConfiguration, step) }
    }
}

/// The bytes to staple, at a stable address for the C callback.
private final class StapleBox {
    let bytes: [UInt8]
    init(_ data: Data) { bytes = [UInt8](data) }
}

/// Server-side status callback: OpenSSL calls it only when the client sent status_request.
private let stapleCallback: atsc_status_cb = { ssl, arg in
    guard let ssl, let arg else { return SSL_TLSEXT_ERR_NOACK }
    let box = Unmanaged<StapleBox>.fromOpaque(arg).takeUnretainedValue()
    let copied = box.bytes.withUnsafeBufferPointer {
        atsc_SSL_set_tlsext_status_ocsp_resp_copy(ssl, $0.baseAddress, $0.count)
    }
    return copied == 1 ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_NOACK
}
