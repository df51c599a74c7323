extension RuleID {
    /// Ids of notes about an endpoint that are no ATS rule (`info.*`): what a scan learnt, reported as a note and
    /// never as a failure. They are not problems (``RuleRegistry/endpointNotes``): no CI format counts them, and
    /// `--fail-on` never fails a run on them.
    public enum Info: RuleNamespace {
        public static let family = RuleFamily.info
        /// Whether the endpoint accepts a post-quantum hybrid key exchange (X25519MLKEM768) in TLS 1.3.
        public static let postQuantum: RuleID = "info.tls.post-quantum"
        /// Whether the endpoint's iOS 26 connections, simulated with iOS 26's own ClientHello, negotiate the
        /// post-quantum hybrid X25519MLKEM768: the quantum-secure readiness of issue 36.
        public static let quantumSecure: RuleID = "info.tls.quantum-secure"
        /// What each Apple client, simulated with its own ClientHello, negotiates with the endpoint or how it fails:
        /// the per-era lines of issue 36, one note per endpoint.
        public static let appleClients: RuleID = "info.tls.apple-clients"
    }
}

extension RuleRegistry {
    /// Notes about an endpoint that are no ATS rule (`info.*`).
    public static let endpointNotes = RuleRegistry(
        "info",
        entries: [
            RuleDescriptor(
                RuleID.Info.postQuantum, .info, .note,
                title: "Whether the endpoint accepts a post-quantum hybrid key exchange in TLS 1.3.",
                help: """
                    A note for each endpoint whose TLS 1.3 key-exchange groups were enumerated (not in an ats-only \
                    scan), saying whether the server accepts a hybrid of a classical curve and ML-KEM: \
                    X25519MLKEM768 (0x11EC), SecP256r1MLKEM768 or SecP384r1MLKEM1024 (draft-ietf-tls-ecdhe-mlkem). \
                    iOS 26 offers X25519MLKEM768 first, with a key share for it and one for x25519 \
                    (Apple support article 122756); a server that accepts it protects today's traffic against \
                    being recorded now and decrypted by a quantum computer later. ATS does not require it: a \
                    server without it still passes, and the client falls back to a classical group. To accept it, use a TLS \
                    library that implements ML-KEM (OpenSSL 3.5, BoringSSL, Go 1.24, rustls) \
                    and list X25519MLKEM768 first in the server's groups.
                    """),
            RuleDescriptor(
                RuleID.Info.quantumSecure, .info, .note,
                title: "Whether the endpoint's iOS 26 connections negotiate the post-quantum hybrid X25519MLKEM768.",
                help: """
                    A note for each endpoint whose Apple clients were simulated, each with its own ClientHello: \
                    whether the iOS 26 clients' handshakes negotiate X25519MLKEM768, the key exchange Apple calls \
                    quantum-secure (Apple support article 122756). Unlike info.tls.post-quantum, which says what the \
                    server accepts when atscheck offers each group on its own, this is what the server chooses when \
                    iOS 26 offers X25519MLKEM768 and x25519 together, with a key share for each: a server that \
                    accepts the hybrid but prefers x25519 is not quantum-secure for iOS 26. Unknown when iOS 26 was \
                    not simulated (an ats-only scan) or did not connect. ATS does not require it, so it never fails \
                    the ATS verdict; --require-pq turns a classical key exchange into a required.quantum-secure \
                    error. To become quantum-secure, accept X25519MLKEM768 and prefer it over the classical groups.
                    """),
            RuleDescriptor(
                RuleID.Info.appleClients, .info, .note,
                title: "What each simulated Apple client negotiates with the endpoint, or how it fails.",
                help: """
                    A note for each endpoint whose Apple clients were simulated, listing every client (iOS 12.2 to \
                    iOS 26, URLSession and Safari where it differs), each sent with its own ClientHello: the TLS \
                    version, cipher suite, group and signature scheme the server chose with it, or how the \
                    handshake failed (refused, reset or closed, no answer, an answer the client does not accept). \
                    The same lines as the text report; the result's properties carry them as the JSON report's \
                    simulations. A note, never a failure on its own: when the client of the release the verdict is \
                    for fails, that verdict fails through ats.tls.simulated-handshake-failed; the other releases' \
                    clients are told here only. Nothing to fix unless a client of a release you support fails.
                    """),
        ])
}
