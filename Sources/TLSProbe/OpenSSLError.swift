internal import COpenSSL

/// An error from OpenSSL, with the drained error queue.
public struct OpenSSLError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What atscheck was doing.
    public var operation: String
    /// OpenSSL's error strings, oldest first.
    public var stack: [String]
    public var fileID: String
    public var line: Int

    init(_ operation: String, fileID: String = #fileID, line: Int = #line) {
        self.operation = operation
        self.stack = OpenSSLErrorQueue.drain().map(\.text)
        self.fileID = fileID
        self.line = line
    }

    public var description: String {
        stack.isEmpty ? operation : "\(operation): \(stack.joined(separator: "; "))"
    }

    public static func == (lhs: OpenSSLError, rhs: OpenSSLError) -> Bool { lhs.operation == rhs.operation }
}

/// The thread-local OpenSSL error queue. Cleared before each call whose errors we read, and
/// drained after, so a stale error never leaks into the next probe.
enum OpenSSLErrorQueue {
    struct Entry {
        var library: Int32
        var reason: Int32
        var text: String
    }

    static func clear() { ERR_clear_error() }

    /// Removes and returns every queued error, oldest first.
    static func drain() -> [Entry] {
        var entries: [Entry] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            let reasonText = ERR_reason_error_string(code).map { String(cString: $0) }
            let text = reasonText ?? {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                return String(cString: buffer)
            }()
            entries.append(Entry(library: atsc_ERR_GET_LIB(code), reason: atsc_ERR_GET_REASON(code), text: text))
        }
        return entries
    }
}

/// The linked OpenSSL's version text, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
public var linkedOpenSSLVersion: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
