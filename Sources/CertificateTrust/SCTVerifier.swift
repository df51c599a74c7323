internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import Synchronization
import TLSModel

/// One SCT as a handshake delivered it, serialised (`i2o_SCT`) so that it can be checked after the connection,
/// once the chain is verified and the issuer known. The prober reads them off its connection (`peer(of:)`, in
/// TLSProbe).
package struct CollectedSCT: Equatable, Sendable {
    /// Where the handshake delivered it.
    package var source: SCTFacts.Source
    /// The SCT, TLS-encoded (RFC 6962 §3.2).
    package var bytes: [UInt8]

    /// An SCT from `source`, TLS-encoded.
    package init(source: SCTFacts.Source, bytes: [UInt8]) {
        self.source = source
        self.bytes = bytes
    }

    /// The SCTs embedded in `certificate`: for a chain from a handshake that did not ask for delivered SCTs.
    package static func embedded(in certificate: X509Certificate) -> [CollectedSCT] {
        guard let raw = X509_get_ext_d2i(certificate.pointer, NID_ct_precert_scts, nil, nil) else {
            OpenSSLErrorQueue.clear()
            return []
        }
        let list = OpaquePointer(raw)
        defer { atsc_SCT_LIST_free(list) }
        return collect(list, source: .embedded)
    }

    /// - Parameter fixed: the source of every SCT of the stack; nil: each SCT's own (`SCT_get_source`).
    package static func collect(_ stack: OpaquePointer, source fixed: SCTFacts.Source?) -> [CollectedSCT] {
        var collected: [CollectedSCT] = []
        for index in 0..<atsc_sk_SCT_num(stack) {
            guard let sct = atsc_sk_SCT_value(stack, index),
                let source = fixed ?? ParsedSCT.source(SCT_get_source(sct))
            else { continue }
            var buffer: UnsafeMutablePointer<UInt8>?
            let length = i2o_SCT(sct, &buffer)
            guard length > 0, let buffer else { continue }
            collected.append(
                CollectedSCT(source: source, bytes: Array(UnsafeBufferPointer(start: buffer, count: Int(length)))))
            atsc_OPENSSL_free(buffer)
        }
        OpenSSLErrorQueue.clear()
        return collected
    }
}

/// Checks SCTs against their logs' keys with OpenSSL's CT API (`SCT_validate` under a `CT_POLICY_EVAL_CTX` holding
/// the leaf, its issuer, a log store and the time), and names each SCT's log from the request's log list. Which SCTs
/// count, and whether they are enough, is Apple's policy: `ATSPolicy`'s `CertificateTransparencyRule` judges it.
enum SCTVerifier {
    /// The transparency facts of `collected`, SCTs for `leaf`, checked against `logList` at `now`.
    /// - Parameters:
    ///   - issuer: the leaf's issuer (needed for embedded, precertificate SCTs).
    ///   - requestedDelivered: whether the handshake asked for SCTs in the TLS extension and a stapled response.
    static func report(
        leaf: X509Certificate, issuer: X509Certificate?, collected: [CollectedSCT], logList: CTLogList?, at now: Date,
        requestedDelivered: Bool
    ) -> CertificateTransparencyReport {
        // An SCT OpenSSL cannot read (a saved profile's bytes edited, say) is reported, never dropped in silence.
        var parsed: [ParsedSCT] = []
        var unparsed: [UnparsedSCT] = []
        for sct in collected {
            do { parsed.append(try ParsedSCT(sct)) } catch {
                unparsed.append(
                    UnparsedSCT(source: sct.source, reason: "\(error)", serialized: Data(sct.bytes)))
            }
        }
        let known = Dictionary(
            (logList?.logs ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let named = parsed.contains { known[$0.logID] != nil }
        let store = named ? logList.flatMap(CTLogStore.shared(for:)) : nil
        let facts = parsed.map { sct -> SCTFacts in
            let log = known[sct.logID]
            let signature =
                if let log, let store { sct.validate(leaf: leaf, issuer: issuer, store: store, log: log, at: now) } else
                {
                    SCTFacts.Signature.unverified
                }
            return SCTFacts(
                source: sct.source, logID: sct.logID, timestamp: sct.timestamp, signature: signature, log: log,
                serialized: sct.source == .embedded ? nil : Data(sct.bytes))
        }
        var report = CertificateTransparencyReport(
            logList: logList?.source ?? "none", scts: facts, requestedDelivered: requestedDelivered,
            logListDate: logList?.date)
        report.unparsedSCTs = unparsed.isEmpty ? nil : unparsed
        return report
    }
}

/// An SCT parsed back with `o2i_SCT` (owned, freed in `deinit`), its source set again.
final class ParsedSCT {
    let pointer: OpaquePointer
    let source: SCTFacts.Source
    /// Base64 of the log ID.
    let logID: String
    let timestamp: Date
    /// Milliseconds since the epoch, as signed.
    let milliseconds: UInt64
    /// The SCT as collected (TLS encoding).
    let bytes: [UInt8]

    /// - Throws: ``OpenSSLError`` with OpenSSL's reason when the bytes are not one TLS-encoded SCT.
    init(_ collected: CollectedSCT) throws {
        OpenSSLErrorQueue.clear()
        let sct: OpaquePointer? = collected.bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return o2i_SCT(nil, &cursor, buffer.count)
        }
        guard let sct else { throw OpenSSLError("parsing an SCT (o2i_SCT)") }
        pointer = sct
        source = collected.source
        bytes = collected.bytes
        // The source sets the entry type the signature covers: precertificate for embedded SCTs, X.509 otherwise.
        _ = SCT_set_source(sct, Self.openSSLSource(collected.source))
        var id: UnsafeMutablePointer<UInt8>?
        let length = SCT_get0_log_id(sct, &id)
        logID = id.map { Data(bytes: $0, count: length).base64EncodedString() } ?? ""
        milliseconds = SCT_get_timestamp(sct)
        timestamp = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        OpenSSLErrorQueue.clear()
    }

    deinit { SCT_free(pointer) }

    /// Whether the log's key verifies the SCT over the leaf (and, for a precertificate entry, the issuer's key).
    func validate(leaf: X509Certificate, issuer: X509Certificate?, store: CTLogStore, log: CTLog, at now: Date)
        -> SCTFacts.Signature
    {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let context = CT_POLICY_EVAL_CTX_new() else { return .unverified }
        defer { CT_POLICY_EVAL_CTX_free(context) }
        guard CT_POLICY_EVAL_CTX_set1_cert(context, leaf.pointer) == 1 else { return .unverified }
        if let issuer, CT_POLICY_EVAL_CTX_set1_issuer(context, issuer.pointer) != 1 { return .unverified }
        CT_POLICY_EVAL_CTX_set_shared_CTLOG_STORE(context, store.pointer)
        // At the SCT's own time when it is later than the verification time: OpenSSL calls an SCT from the future
        // invalid, and the policy must tell a future SCT (which Apple ignores) from a bad signature.
        let nowMilliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        CT_POLICY_EVAL_CTX_set_time(context, max(nowMilliseconds, milliseconds))
        _ = SCT_validate(pointer, context)
        switch SCT_get_validation_status(pointer) {
        case SCT_VALIDATION_STATUS_VALID: return .valid
        case SCT_VALIDATION_STATUS_INVALID: return .invalid
        default: return .unverified  // no issuer for a precertificate SCT, an unknown version, an unusable key
        }
    }

    static func source(_ source: sct_source_t) -> SCTFacts.Source? {
        switch source {
        case SCT_SOURCE_TLS_EXTENSION: return .tlsExtension
        case SCT_SOURCE_OCSP_STAPLED_RESPONSE: return .ocsp
        case SCT_SOURCE_X509V3_EXTENSION: return .embedded
        default: return nil
        }
    }

    static func openSSLSource(_ source: SCTFacts.Source) -> sct_source_t {
        switch source {
        case .tlsExtension: return SCT_SOURCE_TLS_EXTENSION
        case .ocsp: return SCT_SOURCE_OCSP_STAPLED_RESPONSE
        case .embedded: return SCT_SOURCE_X509V3_EXTENSION
        }
    }
}

/// An owned `CTLOG_STORE` holding some logs of a list.
///
/// OpenSSL has no call that adds a log to a store: a store is loaded from a file in its CONF format
/// (`CTLOG_STORE_load_file`). The logs are written to a private temporary file, loaded, and the file removed.
/// Each log's section and description is its index (log descriptions are free text, which CONF would expand).
final class CTLogStore: @unchecked Sendable {  // loaded once in init; OpenSSL only reads it after that
    let pointer: OpaquePointer

    /// One store per log list, loaded on first use and kept: loading writes and reads a file, which has no place on
    /// every endpoint's path. Keyed by the list's log IDs (each the hash of its key), so two lists with the same
    /// name but other logs get stores of their own.
    private static let stores = Mutex<[String: CTLogStore]>([:])

    static func shared(for list: CTLogList) -> CTLogStore? {
        let key = list.logs.map(\.id).joined(separator: ",")
        return stores.withLock { stores in
            if let known = stores[key] { return known }
            let store = CTLogStore(list.logs)
            stores[key] = store
            return store
        }
    }

    init?(_ logs: [CTLog]) {
        OpenSSLErrorQueue.clear()
        guard let store = CTLOG_STORE_new() else { return nil }
        pointer = store  // owned from here on
        var text = "enabled_logs = " + logs.indices.map { "log\($0)" }.joined(separator: ",") + "\n"
        for (index, log) in logs.enumerated() {
            text += "[log\(index)]\ndescription = log\(index)\nkey = \(log.key.base64EncodedString())\n"
        }
        let path = NSTemporaryDirectory() + "atscheck-ctlogs-\(UUID().uuidString).cnf"
        // A log whose key OpenSSL cannot read is skipped (the load then reports failure, the others are kept), and
        // a file that cannot be written leaves the store empty: those SCTs stay unverified.
        if FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        {
            _ = CTLOG_STORE_load_file(store, path)
            try? FileManager.default.removeItem(atPath: path)
        }
        OpenSSLErrorQueue.clear()
    }

    deinit { CTLOG_STORE_free(pointer) }
}
