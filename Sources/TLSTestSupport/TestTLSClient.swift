internal import COpenSSL
import Foundation
internal import OpenSSLSupport
package import TLSModel

/// A tiny blocking OpenSSL client for tests: one handshake against a loopback server, then close.
///
/// > Warning: Blocks the calling thread for up to `timeout` seconds.
package enum TestTLSClient {
    /// What one completed handshake negotiated.
    package struct Result: Sendable, Equatable {
        /// `TLSv1.2`, `TLSv1.3`, … (OpenSSL's spelling).
        package var version: String
        /// OpenSSL's name of the negotiated suite, e.g. `ECDHE-RSA-AES128-GCM-SHA256`, `TLS_AES_128_GCM_SHA256`.
        package var cipher: String
        /// The IANA code point of the suite.
        package var cipherCode: UInt16
        /// The chain the server sent, leaf first, DER.
        package var peerChain: [Data]
        /// The stapled OCSP response, when one was asked for and sent.
        package var ocspResponse: Data?
        /// The key exchange group, OpenSSL's name (`x25519`, `secp256r1`),
        /// or `DH-2048` for TLS 1.2 DHE; nil for RSA key exchange.
        package var group: String?
    }

    /// Performs one handshake; nil if it failed (see
    /// ``connect(host:port:serverName:minVersion:maxVersion:ciphers:tls13Ciphers:requestOCSP:maxCertificateList:timeout:)``
    /// for the reason).
    package static func handshake(
        host: String = "127.0.0.1", port: Int, serverName: String? = "localhost",
        minVersion: TLSVersion = .tls1_0, maxVersion: TLSVersion = .tls1_3, ciphers: String? = nil,
        tls13Ciphers: String? = nil, requestOCSP: Bool = false, maxCertificateList: Int? = nil,
        timeout: Double = 5
    ) -> Result? {
        try? connect(
            host: host, port: port, serverName: serverName, minVersion: minVersion, maxVersion: maxVersion,
            ciphers: ciphers, tls13Ciphers: tls13Ciphers, requestOCSP: requestOCSP,
            maxCertificateList: maxCertificateList, timeout: timeout)
    }

    /// Performs one handshake (no certificate verification), waits for the server's close_notify,
    /// and closes.
    /// - Parameters:
    ///   - host: A loopback address.
    ///   - serverName: SNI to send (nil: none).
    ///   - ciphers: OpenSSL cipher string for TLS ≤ 1.2 (`:@SECLEVEL=0` is appended); nil = `ALL`.
    ///   - tls13Ciphers: TLS 1.3 suites; nil = OpenSSL's default.
    ///   - requestOCSP: Send status_request.
    ///   - maxCertificateList: The largest Certificate message accepted (OpenSSL default 100 KB).
    /// - Throws: ``TestSupportError`` `.handshake` with OpenSSL's reason when the handshake fails.
    package static func connect(
        host: String = "127.0.0.1", port: Int, serverName: String? = "localhost",
        minVersion: TLSVersion = .tls1_0, maxVersion: TLSVersion = .tls1_3, ciphers: String? = nil,
        tls13Ciphers: String? = nil, requestOCSP: Bool = false, maxCertificateList: Int? = nil,
        timeout: Double = 5
    ) throws -> Result {
        LoopbackListener.ignoreSIGPIPE  // OpenSSL writes to a peer that may have hung up
        let socket = try LoopbackAddress(host, port: port).connect(timeout: timeout)
        defer { socket.close() }
        OpenSSLErrorQueue.clear()
        guard let context = OwnedSSLContext.client() else {
            throw TestSupportError.openSSL(.handshake, "SSL_CTX_new")
        }
        defer { withExtendedLifetime(context) {} }  // `ctx` is lent by `context`
        let ctx = context.pointer
        // Security level 0: the client must reach the legacy fixtures (TLS 1.0, RSA-1024, SHA-1).
        SSL_CTX_set_security_level(ctx, 0)
        _ = atsc_SSL_CTX_set_min_proto_version(ctx, Int32(minVersion.rawValue))
        _ = atsc_SSL_CTX_set_max_proto_version(ctx, Int32(maxVersion.rawValue))
        guard SSL_CTX_set_cipher_list(ctx, (ciphers ?? "ALL") + ":@SECLEVEL=0") == 1 else {
            throw TestSupportError.openSSL(.handshake, "client cipher list \(ciphers ?? "ALL")")
        }
        if let tls13Ciphers, SSL_CTX_set_ciphersuites(ctx, tls13Ciphers) != 1 {
            throw TestSupportError.openSSL(.handshake, "client TLS 1.3 suites \(tls13Ciphers)")
        }
        if let maxCertificateList { _ = atsc_SSL_CTX_set_max_cert_list(ctx, maxCertificateList) }
        guard let connection = OwnedSSL(context: context) else { throw TestSupportError.openSSL(.handshake, "SSL_new") }
        defer { withExtendedLifetime(connection) {} }  // `ssl` is lent by `connection`
        let ssl = connection.pointer
        if let serverName { _ = atsc_SSL_set_tlsext_host_name(ssl, serverName) }
        if requestOCSP { _ = atsc_SSL_set_tlsext_status_type_ocsp(ssl) }
        _ = SSL_set_fd(ssl, socket.fd)
        // Non-blocking with one overall deadline: a peer dripping a byte a second would reset a
        // per-read timeout for ever.
        socket.setNonBlocking()
        let deadline = Date().addingTimeInterval(timeout)
        guard NonBlockingSSL.drive(ssl, socket.fd, deadline: deadline, { SSL_connect($0) }) == 1 else {
            throw TestSupportError.openSSL(.handshake, "SSL_connect to \(host):\(port)")
        }
        let result = readResult(ssl)
        // Wait for the server's close_notify (or EOF): the server has then finished its side.
        var byte: UInt8 = 0
        _ = NonBlockingSSL.drive(ssl, socket.fd, deadline: deadline) { SSL_read($0, &byte, 1) }
        _ = SSL_shutdown(ssl)
        OpenSSLErrorQueue.clear()
        return result
    }

    private static func group(_ ssl: OpaquePointer) -> String? {
        let id = atsc_SSL_get_negotiated_group(ssl)
        if id != 0, let name = SSL_group_to_name(ssl, id) { return String(cString: name) }
        // TLS 1.2 finite-field DHE negotiates no named group: report the server's DH key size.
        var key: OpaquePointer?
        guard atsc_SSL_get_peer_tmp_key(ssl, &key) == 1, let key else { return nil }
        let owned = OwnedEVPKey(takingOwnership: key)
        return EVP_PKEY_get_base_id(owned.pointer) == EVP_PKEY_DH ? "DH-\(owned.bits)" : nil
    }

    private static func readResult(_ ssl: OpaquePointer) -> Result {
        let cipher = SSL_get_current_cipher(ssl)
        var chain: [Data] = []
        if let stack = SSL_get_peer_cert_chain(ssl) {
            for index in 0..<atsc_sk_X509_num(stack) {
                if let cert = atsc_sk_X509_value(stack, index), let der = OwnedX509.der(ofBorrowed: cert) {
                    chain.append(Data(der))
                }
            }
        }
        var ocsp: Data?
        var response: UnsafeMutablePointer<UInt8>?
        let length = SSL_ctrl(ssl, SSL_CTRL_GET_TLSEXT_STATUS_REQ_OCSP_RESP, 0, &response)
        if let response, length > 0 { ocsp = Data(bytes: response, count: length) }
        return Result(
            version: String(cString: SSL_get_version(ssl)),
            cipher: cipher.map { String(cString: SSL_CIPHER_get_name($0)) } ?? "",
            cipherCode: cipher.map { UInt16(truncatingIfNeeded: SSL_CIPHER_get_protocol_id($0)) } ?? 0,
            peerChain: chain, ocspResponse: ocsp, group: group(ssl))
    }
}
