import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Owns one file descriptor (a socket or a pipe end) and closes it exactly once: in ``close()``
/// or in `deinit`, whichever comes first.
///
/// `Sendable`: the descriptor number is behind a `Mutex`, so a `close()` on one thread and a read
/// of ``fd`` on another never race (a closed descriptor reads as -1).
package final class OwnedFileDescriptor: Sendable {
    private let state: Mutex<Int32>

    /// Takes ownership of `fd`; the caller must not close it.
    package init(takingOwnership fd: Int32) { state = Mutex(fd) }

    deinit { close() }

    /// A new TCP socket for `family` (`AF_INET` / `AF_INET6`), close-on-exec; nil with `errno` set on failure.
    package static func tcpSocket(family: Int32) -> OwnedFileDescriptor? {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        return fd >= 0 ? OwnedFileDescriptor(takingOwnership: fd) : nil
    }

    /// The descriptor, or -1 once closed.
    package var fd: Int32 { state.withLock { $0 } }

    /// Closes the descriptor now (idempotent).
    package func close() {
        let fd = state.withLock { fd -> Int32 in
            defer { fd = -1 }
            return fd
        }
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// Makes calls on the descriptor return EAGAIN instead of blocking.
    package func setNonBlocking() {
        let fd = self.fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Sends small writes at once (TCP_NODELAY): a ClientHello must not wait for Nagle.
    package func setNoDelay() {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sets the blocking read and write timeouts (SO_RCVTIMEO / SO_SNDTIMEO).
    package func setTimeouts(_ seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        let size = socklen_t(MemoryLayout<timeval>.size)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, size)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, size)
    }
}
