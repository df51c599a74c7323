internal import COpenSSL
import Foundation

/// Runs OpenSSL calls on non-blocking sockets against one overall deadline.
enum NonBlockingSSL {
    /// Repeats a non-blocking OpenSSL call, polling the socket for what it wants, until it
    /// finishes or `deadline` passes (then returns -1).
    static func drive(
        _ ssl: OpaquePointer, _ fd: Int32, deadline: Date, _ call: (OpaquePointer) -> Int32
    ) -> Int32 {
        while true {
            let result = call(ssl)
            if result > 0 { return result }
            let wanted: Int16
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ: wanted = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: wanted = Int16(POLLOUT)
            default: return result
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return -1 }
            var descriptor = pollfd(fd: fd, events: wanted, revents: 0)
            guard poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up))) > 0 else { return -1 }
        }
    }
}
