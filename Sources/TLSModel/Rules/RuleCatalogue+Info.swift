extension RuleID {
    /// Ids of notes about an endpoint that are no ATS rule (`info.*`): what a scan learnt, reported as a note and
    /// never as a failure. They are not problems (``RuleRegistry/endpointNotes``): no CI format counts them, and
    /// `--fail-on` never fails a run on them.
    public enum Info: RuleNamespace {
        public static let family = RuleFamily.info
        /// Whether the endpoint accepts a post-quantum hybrid key exchange (X25519MLKEM768) in TLS 1.3.
        public static let postQuantum: RuleID = "info.tls.post-quantum"
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
                    """)
        ])
}
