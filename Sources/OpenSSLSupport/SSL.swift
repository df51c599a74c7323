internal import COpenSSL

/// Owns one `SSL` and frees it (and any BIOs handed to it) in `deinit`.
package final class OwnedSSL {
    /// The connection; valid as long as this object lives. Do not free it.
    package let pointer: OpaquePointer
    /// BIOs handed to OpenSSL: kept only so their wrappers outlive the `SSL` that frees them.
    private var attached: [MemoryBIO] = []

    /// A new connection from `context`; nil when OpenSSL refuses (errors stay queued).
    package init?(context: OwnedSSLContext) {
        OpenSSLErrorQueue.clear()
        guard let ssl = SSL_new(context.pointer) else { return nil }
        pointer = ssl
    }

    deinit { SSL_free(pointer) }

    /// Hands both BIOs to the `SSL` (`SSL_set_bio`): from here on the `SSL` frees them.
    package func attach(readBIO: MemoryBIO, writeBIO: MemoryBIO) {
        SSL_set_bio(pointer, readBIO.pointer, writeBIO.pointer)
        readBIO.relinquish()
        writeBIO.relinquish()
        attached = [readBIO, writeBIO]
    }
}

/// Owns one `SSL_CTX` and frees it in `deinit`.
///
/// `@unchecked Sendable`: callers configure it before sharing it and only read it afterwards;
/// `SSL_new` from several threads on a context nobody modifies is safe.
package final class OwnedSSLContext: @unchecked Sendable {
    /// The context; valid as long as this object lives. Do not free it.
    package let pointer: OpaquePointer

    private init?(method: OpaquePointer?) {
        OpenSSLErrorQueue.clear()
        guard let method, let ctx = SSL_CTX_new(method) else { return nil }
        pointer = ctx
    }

    /// A context for TLS clients; nil when OpenSSL refuses (errors stay queued).
    package static func client() -> OwnedSSLContext? { OwnedSSLContext(method: TLS_client_method()) }
    /// A context for TLS servers; nil when OpenSSL refuses (errors stay queued).
    package static func server() -> OwnedSSLContext? { OwnedSSLContext(method: TLS_server_method()) }

    deinit { SSL_CTX_free(pointer) }
}
