internal import COpenSSL
import CertificateTrust
import Foundation
internal import OpenSSLSupport
import TLSModel

/// The client context of HTTPS fetches: certificate verification on, against this machine's CA store (OpenSSL's
/// default paths) plus the `--ca-file` anchors, TLS 1.2 or later at OpenSSL's default security level. Unlike a
/// probe's context (``ClientContext``), nothing here is relaxed: a download is only as good as the server's proof
/// of who it is.
final class FetchTLSContext: @unchecked Sendable {  // configured in init, only read afterwards
    let context: OwnedSSLContext

    /// - Throws: ``ProbeFailure`` when a CA file cannot be read or OpenSSL refuses a setting.
    init(caFiles: [String]) throws {
        OpenSSLRuntime.prepare()
        guard let context = OwnedSSLContext.client() else { throw OpenSSLError("SSL_CTX_new") }
        self.context = context
        let ctx = context.pointer
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        guard SSL_CTX_set_default_verify_paths(ctx) == 1,
            atsc_SSL_CTX_set_min_proto_version(ctx, Int32(TLS1_2_VERSION)) == 1
        else { throw OpenSSLError("configuring the HTTPS client") }
        SSL_CTX_set_options(ctx, atsc_SSL_OP_IGNORE_UNEXPECTED_EOF() | atsc_SSL_OP_NO_TICKET())
        let store = SSL_CTX_get_cert_store(ctx)
        for file in caFiles {
            for certificate in try X509Certificate.loadPEMFile(file) { X509_STORE_add_cert(store, certificate.pointer) }
        }
        OpenSSLErrorQueue.clear()
    }
}

/// One verifying TLS client connection for a fetch: OpenSSL driven through memory BIOs over a ``TCPSocket``, so that
/// every read and write is bounded by the fetch's deadline (as the probe's ``Handshaker`` does). The server's name
/// (or IP address) must be in its certificate.
final class FetchTLSConnection: FetchByteSource {
    private let connection: OwnedSSL
    private let readBIO: MemoryBIO
    private let writeBIO: MemoryBIO
    private let socket: TCPSocket
    private let deadline: Deadline
    private let url: String

    /// - Throws: ``HTTPFetchError`` (``HTTPFetchError/Kind/tls``) when OpenSSL cannot set the connection up.
    init(socket: TCPSocket, url: FetchURL, context: FetchTLSContext, deadline: Deadline) throws {
        self.socket = socket
        self.deadline = deadline
        self.url = url.description
        guard let connection = OwnedSSL(context: context.context), let rbio = MemoryBIO(), let wbio = MemoryBIO() else {
            throw HTTPFetchError(.tls, url: url.description, reason: "\(url): cannot set up TLS (out of memory)")
        }
        self.connection = connection
        readBIO = rbio
        writeBIO = wbio
        connection.attach(readBIO: rbio, writeBIO: wbio)
        let ssl = connection.pointer
        SSL_set_connect_state(ssl)
        if IPAddress(url.host) != nil {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), url.host)
        } else {
            _ = atsc_SSL_set_tlsext_host_name(ssl, url.host)
            SSL_set1_host(ssl, url.host)
        }
        OpenSSLErrorQueue.clear()
    }

    /// Runs the handshake; the server's certificate is verified by OpenSSL as it arrives.
    /// - Throws: ``HTTPFetchError``: the certificate did not verify (with OpenSSL's reason), a TLS alert, a timeout.
    func handshake() throws {
        let ssl = connection.pointer
        while true {
            OpenSSLErrorQueue.clear()
            let rc = SSL_do_handshake(ssl)
            try flush()
            if rc == 1 { return }
            switch SSL_get_error(ssl, rc) {
            case SSL_ERROR_WANT_READ:
                guard try receive() else {
                    throw HTTPFetchError(
                        .tls, url: url, reason: "\(url): the server closed the connection during the TLS handshake")
                }
            case SSL_ERROR_WANT_WRITE:
                continue
            default:
                let verify = SSL_get_verify_result(ssl)
                let errors = OpenSSLErrorQueue.drain().map(\.text)
                if verify != X509_V_OK {
                    let why = String(cString: X509_verify_cert_error_string(verify))
                    throw HTTPFetchError(
                        .tls, url: url,
                        reason:
                            "\(url): the server's certificate does not verify: \(why) (a private CA goes in --ca-file)")
                }
                throw HTTPFetchError(
                    .tls, url: url,
                    reason: "\(url): TLS handshake failed"
                        + (errors.isEmpty ? "" : ": \(errors.joined(separator: "; "))"))
            }
        }
    }

    /// Sends `bytes` as application data.
    func write(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { SSL_write(connection.pointer, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(bytes.count) else {
            throw HTTPFetchError(.tls, url: url, reason: "\(url): cannot write the request over TLS")
        }
        try flush()
    }

    /// The next application bytes; nil at the end of the stream (close_notify, or the close of the connection).
    func next() throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            OpenSSLErrorQueue.clear()
            let n = buffer.withUnsafeMutableBytes { SSL_read(connection.pointer, $0.baseAddress, Int32($0.count)) }
            if n > 0 { return Array(buffer[0..<Int(n)]) }
            switch SSL_get_error(connection.pointer, n) {
            case SSL_ERROR_WANT_READ:
                try flush()  // a TLS 1.3 key update or the answer to one
                guard try receive() else { return nil }
            case SSL_ERROR_ZERO_RETURN:
                return nil
            default:
                let errors = OpenSSLErrorQueue.drain().map(\.text)
                throw HTTPFetchError(
                    .tls, url: url, reason: "\(url): TLS error while reading: \(errors.joined(separator: "; "))")
            }
        }
    }

    /// Moves what OpenSSL wrote to the socket.
    private func flush() throws {
        let bytes = writeBIO.readAll()
        guard !bytes.isEmpty else { return }
        do { try socket.sendAll(bytes, deadline: deadline) } catch {
            throw PlainFetchSource.failure(error, url: url)
        }
    }

    /// Moves what the server sent to OpenSSL; false once the server closed the connection.
    private func receive() throws -> Bool {
        var source = PlainFetchSource(socket: socket, deadline: deadline, url: url)
        guard let bytes = try source.next() else { return false }
        readBIO.write(bytes)
        return true
    }
}

/// The bytes of a plain socket, each read bounded by the fetch's deadline.
struct PlainFetchSource: FetchByteSource {
    let socket: TCPSocket
    let deadline: Deadline
    let url: String

    mutating func next() throws -> [UInt8]? {
        let read: TCPSocket.ReadResult
        do { read = try socket.receive(deadline: deadline) } catch { throw Self.failure(error, url: url) }
        switch read {
        case .data(let bytes): return bytes
        case .eof: return nil
        case .reset(let why):
            throw HTTPFetchError(.protocolError, url: url, reason: "\(url): the server reset the connection (\(why))")
        case .timeout:
            throw HTTPFetchError(.timeout, url: url, reason: "\(url): no answer before the deadline")
        }
    }

    /// A socket error as a fetch error.
    static func failure(_ error: Error, url: String) -> HTTPFetchError {
        guard let failure = error as? ProbeFailure else {
            return HTTPFetchError(.protocolError, url: url, reason: "\(url): \(error)")
        }
        switch failure.kind {
        case .timeout: return HTTPFetchError(.timeout, url: url, reason: "\(url): no answer before the deadline")
        case .unreachable: return HTTPFetchError(.unreachable, url: url, reason: "\(url): \(failure.reason)")
        default: return HTTPFetchError(.protocolError, url: url, reason: "\(url): \(failure.reason)")
        }
    }
}
