internal import COpenSSL
import CertificateTrust
import Foundation
internal import OpenSSLSupport
import TLSModel

/// What one handshake attempt found.
struct HandshakeResult {
    struct Accepted {
        var version: TLSVersion
        var suite: CipherSuite
        var openSSLName: String
        var group: String?
        var groupBits: Int?
        /// The certificate chain as sent, DER, leaf first.
        var chainDER: [[UInt8]]
        var ocspStapled: Bool
        /// The stapled OCSP response, DER as sent; nil when none was stapled.
        var ocspResponse: [UInt8]? = nil
        /// Every SCT seen (embedded, TLS extension, stapled OCSP) when the handshake asked for them; nil otherwise.
        var scts: [CollectedSCT]? = nil
    }

    /// What happened.
    var outcome: Outcome
    /// The address connected to (nil when no connection was made).
    var address: SocketAddress?
    /// Whether a TCP connection was made (counts toward `handshakes`).
    var connected: Bool
    /// Whether another connection of the endpoint was open at some moment of this one's life
    /// (``ConnectionLedger``): a drop is then not evidence until the step is tried alone.
    var overlapped = false
    /// The handshake stopped once the server's first flight was read, before the client's key exchange
    /// (``ServerFlight``; for a DHE suite, before the ServerKeyExchange: ``DHEKeyExchangeGate``); false for one
    /// that ran to its end or failed.
    var stoppedAtServerFlight = false
    /// What a ClientHello of our own learnt beyond the accepted suite (``Exchange/hello(_:)``); nil for OpenSSL's.
    var hello: HelloFacts? = nil

    var accepted: Accepted? {
        if case .answered(let a) = outcome { return a }
        return nil
    }
}

/// What one connection carries once it is made.
enum Exchange {
    /// OpenSSL's handshake with `context`, offering `legacy` (≤1.2) and `tls13` suites.
    case openSSL(ClientContext, legacy: [OfferedSuite], tls13: [CipherSuite])
    /// A ClientHello of our own (``HelloExchange``): codepoints and groups OpenSSL cannot offer.
    case hello(HelloOffer)
    /// An Apple client's whole ClientHello (``SimulatedHelloExchange``), read as that client reads the answer.
    case simulated(SimulatedHello)
}

/// Runs single TLS handshakes over a non-blocking socket, with OpenSSL driven through memory
/// BIOs: atscheck moves the bytes itself, so it sees exactly what the peer sent (and can say
/// "plain HTTP" rather than "wrong version number") and no call ever blocks past its deadline.
struct Handshaker {
    var sni: String?
    /// The CONNECT tunnel to open on each connection before the handshake (nil: `addresses` are the server's).
    var tunnel: ProxyTunnel? = nil

    /// One handshake with `context`, offering `legacySuites` (≤1.2) and `tls13Suites`.
    func run(
        context: ClientContext, legacySuites: [OfferedSuite], tls13Suites: [CipherSuite],
        addresses: [SocketAddress], deadline: Deadline, connected: TCPSocket? = nil,
        onConnected: (_ fd: Int32) -> Void = { _ in },
        beforeClose: (_ answered: Bool, _ serverWaiting: Bool) -> Void = { _, _ in }
    ) async -> HandshakeResult {
        await run(
            .openSSL(context, legacy: legacySuites, tls13: tls13Suites), addresses: addresses, deadline: deadline,
            connected: connected, onConnected: onConnected, beforeClose: beforeClose)
    }

    /// One connection carrying `exchange`: OpenSSL's handshake, or a ClientHello of our own.
    func run(
        _ exchange: Exchange, addresses: [SocketAddress], deadline: Deadline, connected: TCPSocket? = nil,
        onConnected: (_ fd: Int32) -> Void = { _ in },
        beforeClose: (_ answered: Bool, _ serverWaiting: Bool) -> Void = { _, _ in }
    ) async -> HandshakeResult {
        // Connect: the first address that accepts wins (so `localhost` → ::1 refused → 127.0.0.1 works).
        // `connected`: a connection opened ahead (``PreconnectedSockets``), its connect already finished.
        // Through a proxy, `addresses` are the proxy's and the tunnel is opened on the connection made.
        var socket = connected
        var lastFailure = ProbeFailure(.unreachable, "no address to connect to")
        for address in addresses where socket == nil {
            do {
                socket = try await TCPSocket.connect(to: address, deadline: deadline)
                break
            } catch let failure as ProbeFailure {
                if failure.kind == .closed {  // connected, then reset before a byte was exchanged: a drop
                    let outcome: HandshakeResult.Outcome =
                        tunnel.map { .proxyFailed("\($0.name): \(failure.reason)", retryable: true) }
                        ?? .dropped(.init(signal: .reset, afterBytes: 0, phase: .connect(failure.reason)))
                    return HandshakeResult(outcome: outcome, address: address, connected: true)
                }
                lastFailure = failure
                if failure.kind == .timeout || failure.kind == .cancelled { break }
            } catch {
                lastFailure = ProbeFailure(.local, "\(error)")
            }
        }
        guard let socket else {
            let outcome: HandshakeResult.Outcome
            if lastFailure.kind == .cancelled {
                outcome = .notRun(lastFailure.reason)
            } else if let tunnel {
                outcome =
                    lastFailure.kind == .timeout
                    ? .silent(.init(phase: .connect("\(tunnel.name): \(lastFailure.reason)")))
                    : .proxyFailed("\(tunnel.name) unreachable: \(lastFailure.reason)", retryable: false)
            } else {
                outcome =
                    lastFailure.kind == .timeout
                    ? .silent(.init(phase: .connect(lastFailure.reason))) : .unreachable(lastFailure.reason)
            }
            return HandshakeResult(outcome: outcome, address: nil, connected: false)
        }
        if let tunnel {
            do { try await tunnel.open(on: socket, deadline: deadline) } catch {
                socket.descriptor.close()
                let outcome: HandshakeResult.Outcome
                switch error {
                case .refused(let why, let retryable): outcome = .proxyFailed(why, retryable: retryable)
                case .closed(let why): outcome = .proxyFailed(why, retryable: true)
                case .timeout(let why): outcome = .silent(.init(phase: .tunnel(why)))
                }
                return HandshakeResult(outcome: outcome, address: socket.address, connected: true)
            }
        }
        onConnected(socket.fd)
        var received = 0
        var stopped = false
        var facts: HelloFacts?
        let outcome: HandshakeResult.Outcome
        switch exchange {
        case .openSSL(let context, let legacySuites, let tls13Suites):
            outcome = await handshake(
                on: socket, context: context, legacySuites: legacySuites, tls13Suites: tls13Suites,
                deadline: deadline, received: &received, stoppedAtServerFlight: &stopped)
        case .hello(let offer):
            (outcome, facts) = await HelloExchange(sni: sni).run(
                offer, on: socket, deadline: deadline, received: &received)
            stopped = true
        case .simulated(let hello):
            (outcome, facts) = await SimulatedHelloExchange(sni: hello.sni ?? sni).run(
                hello.client, on: socket, deadline: deadline, received: &received)
            stopped = true
        }
        // Told before the server can see the close (and serve its next connection), so that whoever counts the
        // connections open at once never counts this one after it.
        switch outcome {
        case .answered: beforeClose(received > 0, true)
        case .refused: beforeClose(received > 0, false)
        default: beforeClose(false, false)
        }
        // Closed here, not when the last reference goes: a connection opened ahead is also referenced by the
        // step that took it, and the server must see the close as soon as the probe is done.
        socket.descriptor.close()
        return HandshakeResult(
            outcome: outcome, address: socket.address, connected: true, stoppedAtServerFlight: stopped, hello: facts)
    }

    /// - Parameters:
    ///   - received: set to the bytes the server sent (a close after some is a truncated handshake; a refusal after
    ///     none is the client's own: nothing could be offered).
    ///   - stoppedAtServerFlight: set when ``ServerFlight`` or ``DHEKeyExchangeGate`` ended the handshake.
    private func handshake(
        on socket: TCPSocket, context: ClientContext, legacySuites: [OfferedSuite], tls13Suites: [CipherSuite],
        deadline: Deadline, received: inout Int, stoppedAtServerFlight: inout Bool
    ) async -> HandshakeResult.Outcome {
        guard let connection = OwnedSSL(context: context.context) else { return .notRun("SSL_new failed") }
        guard let rbio = MemoryBIO(), let wbio = MemoryBIO() else { return .notRun("BIO_new failed") }
        connection.attach(readBIO: rbio, writeBIO: wbio)  // the SSL frees both BIOs from here on
        defer { withExtendedLifetime(connection) {} }  // `ssl` is lent by `connection`: keep it alive to the end
        let ssl = connection.pointer
        SSL_set_connect_state(ssl)

        let legacyList = legacySuites.map(\.openSSLName).joined(separator: ":")
        if context.minVersion < .tls1_3 {
            // An empty ≤1.2 list is legal only when TLS 1.3 is also offered.
            let cipherString = legacyList.isEmpty ? "" : legacyList + ":@SECLEVEL=0"
            if SSL_set_cipher_list(ssl, cipherString) != 1 && !legacyList.isEmpty {
                return .notRun(
                    "OpenSSL refused the cipher list: \(OpenSSLErrorQueue.drain().map(\.text).joined(separator: "; "))")
            }
        }
        if context.maxVersion >= .tls1_3 {
            let names = tls13Suites.compactMap { $0.info?.ianaName }.joined(separator: ":")
            if SSL_set_ciphersuites(ssl, names) != 1 { return .notRun("OpenSSL refused the TLS 1.3 suites \(names)") }
        }
        if let sni, IPAddress(sni) == nil { _ = atsc_SSL_set_tlsext_host_name(ssl, sni) }
        // Always asked: a staple is a fact the report holds, and the request is what makes OpenSSL call
        // ``ServerFlight``'s callback, where the handshake stops.
        _ = atsc_SSL_set_tlsext_status_type_ocsp(ssl)
        OpenSSLErrorQueue.clear()

        var firstBytes: [UInt8] = []
        var gate = DHEKeyExchangeGate()
        while true {
            OpenSSLErrorQueue.clear()
            let rc = SSL_do_handshake(ssl)
            let error = rc == 1 ? SSL_ERROR_NONE : SSL_get_error(ssl, rc)
            if error == SSL_ERROR_SSL && ServerFlight.wasRead(ssl) {
                // The server's first flight is read and checked; the client stopped before its key exchange.
                OpenSSLErrorQueue.clear()
                stoppedAtServerFlight = true
                return .answered(describeAccepted(ssl))
            }
            // Always flush what OpenSSL wrote (the ClientHello, or an alert we are sending).
            do { try await flush(wbio, to: socket, deadline: deadline) } catch let failure as ProbeFailure {
                if rc != 1 { return Self.classify(failure, received: received) }
            } catch {}
            if rc == 1 { return .answered(describeAccepted(ssl)) }
            switch error {
            case SSL_ERROR_WANT_READ:
                if let keyExchange = gate.serverKeyExchange {
                    // OpenSSL has read everything before the held-back ServerKeyExchange (``DHEKeyExchangeGate``).
                    OpenSSLErrorQueue.clear()
                    stoppedAtServerFlight = true
                    return .answered(describeAccepted(ssl, heldBackKeyExchange: keyExchange))
                }
                switch await Self.receiveNext(
                    on: socket, deadline: deadline, firstBytes: &firstBytes, received: &received)
                {
                case .bytes(let bytes):
                    let passed = gate.take(bytes)
                    if !passed.isEmpty { rbio.write(passed) }
                case .ended(let outcome):
                    return outcome
                }
            case SSL_ERROR_WANT_WRITE:
                continue
            default:
                return failure(errors: OpenSSLErrorQueue.drain(), firstBytes: firstBytes)
            }
        }
    }

    private func flush(_ wbio: MemoryBIO, to socket: TCPSocket, deadline: Deadline) async throws {
        let bytes = wbio.readAll()
        guard !bytes.isEmpty else { return }
        try await socket.sendAll(bytes, deadline: deadline)
    }

    /// What one read of the server's answer gave.
    enum Received {
        case bytes([UInt8])
        /// The connection ended, or the read failed, before the answer was complete.
        case ended(HandshakeResult.Outcome)
    }

    /// The server's next bytes, counted in `received` with the first 16 kept in `firstBytes` (to name a peer that is
    /// not TLS); or how the connection ended: a close or a reset (a drop), a timeout (silence), a socket failure.
    /// Shared by OpenSSL's handshake and the ClientHellos of our own (``HelloExchange``).
    static func receiveNext(
        on socket: TCPSocket, deadline: Deadline, firstBytes: inout [UInt8], received: inout Int
    ) async -> Received {
        let read: TCPSocket.ReadResult
        do { read = try await socket.receive(deadline: deadline) } catch let failure as ProbeFailure {
            return .ended(classify(failure, received: received))
        } catch {
            return .ended(.broken("\(error)"))
        }
        switch read {
        case .data(let bytes):
            if firstBytes.count < 16 { firstBytes += bytes.prefix(16 - firstBytes.count) }
            received += bytes.count
            return .bytes(bytes)
        case .eof: return .ended(.dropped(.init(signal: .closed, afterBytes: received)))
        case .reset(let why): return .ended(.dropped(.init(signal: .reset, afterBytes: received, cause: why)))
        case .timeout: return .ended(.silent(.init(phase: .handshake, afterBytes: received)))
        }
    }

    /// A socket failure while sending the client's bytes or waiting for the server's, after `received` bytes.
    static func classify(_ failure: ProbeFailure, received: Int) -> HandshakeResult.Outcome {
        switch failure.kind {
        // Only a send times out or is refused by the peer (a read's timeout and close are results, not errors).
        case .timeout: return .silent(.init(phase: .send(failure.reason), afterBytes: received))
        case .closed: return .dropped(.init(signal: .reset, afterBytes: received, phase: .send(failure.reason)))
        case .unreachable: return .unreachable(failure.reason)
        case .protocolError, .local: return .broken(failure.reason)
        case .cancelled: return .notRun(failure.reason)
        }
    }

    /// OpenSSL's reasons (library SSL) for a ServerHello whose version or suite was not offered, or for an offer
    /// that could not be made (no version or suite left to offer).
    private static let declineReasons: Set<Int32> = [
        SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_WRONG_SSL_VERSION, SSL_R_WRONG_CIPHER_RETURNED, SSL_R_NO_PROTOCOLS_AVAILABLE,
        SSL_R_UNKNOWN_CIPHER_RETURNED, SSL_R_WRONG_VERSION_NUMBER, SSL_R_NO_CIPHERS_AVAILABLE,
    ]

    /// Turns a failed handshake into "the server said no" or "that is not TLS".
    private func failure(errors: [OpenSSLErrorQueue.Entry], firstBytes: [UInt8]) -> HandshakeResult.Outcome {
        let text = errors.map(\.text).joined(separator: "; ")
        // OpenSSL reports a received alert as reason SSL_AD_REASON_OFFSET + the alert's description byte.
        let alertOffset = atsc_SSL_AD_REASON_OFFSET()
        if let alert = errors.first(where: { $0.reason >= alertOffset && $0.reason < alertOffset + 256 }) {
            let code = AlertDescription(rawValue: UInt8(truncatingIfNeeded: alert.reason - alertOffset))
            return .refused(.alert(code, said: alert.text))
        }
        if let first = firstBytes.first,
            !(first == 0x15 || first == 0x16) || (firstBytes.count > 1 && firstBytes[1] != 3)
        {
            return .notTLS(PeerBytes(bytes: firstBytes))
        }
        // A ServerHello for a version or suite we did not offer: the server cannot do what we asked. Told by
        // OpenSSL's reason codes, not its words.
        if errors.contains(where: { $0.library == ERR_LIB_SSL && Self.declineReasons.contains($0.reason) }) {
            return .refused(.declined(text))
        }
        return .broken(text.isEmpty ? "handshake failed" : "handshake failed: \(text)")
    }

    /// `heldBackKeyExchange`: the DHE ServerKeyExchange body ``DHEKeyExchangeGate`` kept from OpenSSL, whose
    /// group is read from the message.
    private func describeAccepted(_ ssl: OpaquePointer, heldBackKeyExchange: [UInt8]? = nil) -> HandshakeResult.Accepted
    {
        let version = TLSVersion(rawValue: UInt16(truncatingIfNeeded: SSL_version(ssl)))
        // Before the client's key exchange (``ServerFlight``) a TLS ≤ 1.2 suite is still the pending one.
        let cipher = SSL_get_current_cipher(ssl) ?? SSL_get_pending_cipher(ssl)
        let code = cipher.map { UInt16(truncatingIfNeeded: SSL_CIPHER_get_protocol_id($0)) } ?? 0
        let name = cipher.map { String(cString: SSL_CIPHER_get_name($0)) } ?? ""
        var group: String?
        var groupBits: Int?
        var key: OpaquePointer?
        if let heldBackKeyExchange {
            if let (prime, generator) = DHEKeyExchangeGate.parameters(heldBackKeyExchange) {
                (group, groupBits) = KeyNames.describeDH(prime: prime, generator: generator)
            }
        } else if atsc_SSL_get_peer_tmp_key(ssl, &key) == 1, let key {
            let owned = OwnedEVPKey(takingOwnership: key)
            (group, groupBits) = KeyNames.describeEphemeral(owned.pointer)
        }
        var chain: [[UInt8]] = []
        if let stack = SSL_get_peer_cert_chain(ssl) {
            for i in 0..<atsc_sk_X509_num(stack) {
                if let cert = atsc_sk_X509_value(stack, i), let der = OwnedX509.der(ofBorrowed: cert) {
                    chain.append(der)
                }
            }
        }
        var staple: UnsafePointer<UInt8>?
        let stapleLength = atsc_SSL_get_tlsext_status_ocsp_resp(ssl, &staple)
        let response = staple.flatMap {
            stapleLength > 0 ? Array(UnsafeBufferPointer(start: $0, count: stapleLength)) : nil
        }
        return .init(
            version: version, suite: CipherSuite(code), openSSLName: name, group: group, groupBits: groupBits,
            chainDER: chain, ocspStapled: response != nil, ocspResponse: response,
            scts: SSL_ct_is_enabled(ssl) == 1 ? CollectedSCT.peer(of: ssl) : nil)
    }
}

/// Names for keys as the report spells them: curves and groups as certificate reading spells them
/// (``CurveNames``), plus the ephemeral keys of a handshake.
enum KeyNames {
    /// `P-256` for `prime256v1`, and so on.
    static func curveName(_ openSSLName: String) -> String { CurveNames.curveName(openSSLName) }

    static func groupName(_ pkey: OpaquePointer) -> String? { CurveNames.groupName(pkey) }

    /// A DH group from its prime and generator, named as ``describeEphemeral(_:)`` names the key OpenSSL
    /// builds from a ServerKeyExchange (the same parameters make the same key; nil: OpenSSL refused them).
    static func describeDH(prime: [UInt8], generator: [UInt8]) -> (String?, Int?) {
        guard let builder = OSSL_PARAM_BLD_new() else { return (nil, nil) }
        defer { OSSL_PARAM_BLD_free(builder) }
        let p = BN_bin2bn(prime, Int32(prime.count), nil)
        let g = BN_bin2bn(generator, Int32(generator.count), nil)
        defer { BN_free(p); BN_free(g) }
        guard let p, let g, let context = EVP_PKEY_CTX_new_from_name(nil, "DH", nil) else { return (nil, nil) }
        defer { EVP_PKEY_CTX_free(context) }
        // The parameters point at their names (not copies) until the key is made: the names stay alive to then.
        let key: OpaquePointer? = "p".withCString { primeName in
            "g".withCString { generatorName in
                guard OSSL_PARAM_BLD_push_BN(builder, primeName, p) == 1,
                    OSSL_PARAM_BLD_push_BN(builder, generatorName, g) == 1,
                    let params = OSSL_PARAM_BLD_to_param(builder)
                else { return nil }
                defer { OSSL_PARAM_free(params) }
                var key: OpaquePointer?
                guard EVP_PKEY_fromdata_init(context) == 1,
                    EVP_PKEY_fromdata(context, &key, EVP_PKEY_KEY_PARAMETERS, params) == 1
                else { return nil }
                return key
            }
        }
        guard let key else { return (nil, nil) }
        let owned = OwnedEVPKey(takingOwnership: key)
        return describeEphemeral(owned.pointer)
    }

    /// The negotiated ephemeral key: X25519, P-256, DH-2048.
    static func describeEphemeral(_ pkey: OpaquePointer) -> (String?, Int?) {
        let bits = Int(EVP_PKEY_get_bits(pkey))
        switch EVP_PKEY_get_base_id(pkey) {
        case EVP_PKEY_X25519: return ("X25519", 253)
        case EVP_PKEY_X448: return ("X448", 448)
        case EVP_PKEY_EC: return (groupName(pkey).map(curveName), bits)
        case EVP_PKEY_DH, EVP_PKEY_DHX:
            if let named = groupName(pkey), named.hasPrefix("ffdhe") { return (named, bits) }
            return ("DH-\(bits)", bits)
        default: return (groupName(pkey), bits)
        }
    }
}
