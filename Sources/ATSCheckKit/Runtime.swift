import CertificateTrust

/// Process-wide set-up that a program embedding atscheck runs once, first.
package enum ATSCheckRuntime {
    /// Keeps OpenSSL from registering its at-exit cleanup, which could otherwise free libcrypto's global state
    /// under a probe thread still running when the process exits (see `OpenSSLRuntime`). Call it before
    /// anything else touches OpenSSL; idempotent.
    package static func prepare() { OpenSSLRuntime.prepare() }
}
