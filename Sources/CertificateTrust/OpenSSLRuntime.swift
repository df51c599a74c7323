internal import COpenSSL

/// Process-wide OpenSSL set-up.
///
/// OpenSSL normally registers `OPENSSL_cleanup` with `atexit()` on its first use. When the CLI exits while a
/// probe thread is still inside libcrypto (a deadline expired, the verdict was printed), that cleanup frees
/// global state under the thread's feet: about one run in a few hundred then died with SIGSEGV or
/// "double free" after printing its result. Initialising with `OPENSSL_INIT_NO_ATEXIT` first leaves the
/// global state alone at exit; the kernel reclaims it with the process.
///
/// Here, in the lowest module that reads certificates, so that the prober, certificate trust and the facade's
/// certificate commands share it.
package enum OpenSSLRuntime {
    private static let prepared: Bool = atsc_OPENSSL_init_no_atexit() == 1

    /// Initialises OpenSSL without its at-exit cleanup. Idempotent and thread-safe; call it before any other
    /// OpenSSL use (the first OpenSSL call of a process decides whether the cleanup is registered).
    /// - Returns: whether OpenSSL initialised (it can fail only when out of memory).
    @discardableResult
    package static func prepare() -> Bool { prepared }
}

/// The linked OpenSSL's version text, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
package var linkedOpenSSLVersion: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }

/// The version text of the OpenSSL headers atscheck was compiled against.
package var builtOpenSSLVersion: String { String(cString: atsc_OPENSSL_VERSION_TEXT()) }
