internal import COpenSSL

/// The thread-local OpenSSL error queue.
///
/// Clear it before each call whose errors you read and drain it after (as swift-nio-ssl's SSLErrors.swift does in
/// `buildErrorStack()`), so a stale error from an earlier call never reaches the next probe's or fixture's report.
package enum OpenSSLErrorQueue {
    /// One queued error.
    package struct Entry: Sendable, Equatable {
        /// OpenSSL's packed error code.
        package var code: UInt
        /// The library part of ``code`` (`ERR_GET_LIB`).
        package var library: Int32
        /// The reason part of ``code`` (`ERR_GET_REASON`); TLS alerts sit at `SSL_AD_REASON_OFFSET` + alert.
        package var reason: Int32
        /// The reason string alone, e.g. `wrong version number`; the full ``line`` when OpenSSL has none.
        package var text: String
        /// OpenSSL's one-line form, `error:0A00010B:SSL routines::wrong version number`.
        package var line: String
    }

    /// Empties the queue.
    package static func clear() { ERR_clear_error() }

    /// Removes and returns every queued error, oldest first.
    package static func drain() -> [Entry] {
        var entries: [Entry] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reasonText = ERR_reason_error_string(code).map { String(cString: $0) }
            entries.append(
                Entry(
                    code: code, library: atsc_ERR_GET_LIB(code), reason: atsc_ERR_GET_REASON(code),
                    text: reasonText ?? line, line: line))
        }
        return entries
    }
}
