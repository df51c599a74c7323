import TLSModel

/// The entries of the trust warnings `Judging/Gate` emits (key usage, expiry soon, the SC-081 schedule, stale data,
/// a missing intermediate): warnings about a chain that ATS accepts, judged after the ATS verdict. Their entries are
/// here, not beside their code, so the trust family keeps one registry in documentation order (``RuleRegistry/trust``
/// interleaves them with the rules' entries).
enum TrustWarnings {
    /// `keyUsage`: emitted by `Judging/Gate`.
    static let keyUsage =
        RuleDescriptor(
            RuleID.Trust.keyUsage, .trust, .warning,
            title: "The leaf's key usage does not fit a TLS server certificate.",
            help: """
                RFC 5280 allows keyCertSign only on a CA, and a TLS server key must be usable for signatures \
                (digitalSignature) or, for RSA key exchange, key encipherment. Apple's SSL policy does not check \
                the leaf's key usage (SecPolicyCreateSSL asks for none), so iOS accepts such a certificate; other \
                clients and TLS libraries refuse it. A warning, not an ATS failure; reissue the certificate with \
                digitalSignature (and keyEncipherment for RSA) only.
                """)

    /// `expirySoon`: emitted by `Judging/Gate`.
    static let expirySoon =
        RuleDescriptor(
            RuleID.Trust.expirySoon, .trust, .warning, title: "A certificate of the chain expires soon.",
            help: """
                A certificate of the verified path (or of the chain as sent, when it does not verify) expires \
                within `--warn-days` days (30 by default). It is still valid, so ATS passes today; once it expires \
                every connection fails with NSURLError −1202 and no Info.plist key helps. Renew it, or the \
                intermediate, before then. `--fail-on warning` makes this finding fail the run.
                """)

    /// `lifetimeSchedule`: emitted by `Judging/Gate`.
    static let lifetimeSchedule =
        RuleDescriptor(
            RuleID.Trust.lifetimeSchedule, .trust, .warning,
            title: "The certificate is valid longer than CA/Browser Forum ballot SC-081 allows for its issuance date.",
            help: """
                Ballot SC-081 (proposed by Apple, adopted April 2025) caps publicly trusted TLS certificates at 200 \
                days for those issued from 2026-03-15, 100 days from 2027-03-15 and 47 days from 2029-03-15. It is \
                a rule for CAs when they issue: Apple's trust evaluation still enforces 398 days (the \
                `trust.lifetime.398` rule), so such a certificate works today, but a CA should not have issued it \
                and the next renewal will be shorter. `atscheck cert --at DATE` shows what a renewal on that date \
                may have. Plan renewals (automate them) for the shorter lifetimes.
                """)

    /// `dataStale`: emitted by `Judging/Gate`.
    static let dataStale =
        RuleDescriptor(
            RuleID.Trust.dataStale, .trust, .warning,
            title: "Apple's data this run judged with is older than 90 days.",
            help: """
                Apple's devices update their CT log list and trust data over the air; the copy atscheck judges with \
                (bundled, or stored by `atscheck data update`) is older than 90 days at the judging time. A log or \
                root Apple added since is unknown to it: an SCT from such a log makes the endpoint ambiguous rather \
                than failed, and a chain to such a root may be judged untrusted. Run `atscheck data update` (it \
                prints a cache key for CI), or pass a current list with `--ct-log-list`.
                """)

    /// `missingIntermediate`: emitted by `Judging/Gate`.
    static let missingIntermediate =
        RuleDescriptor(
            RuleID.Trust.missingIntermediate, .trust, .warning,
            title: "The server does not send an intermediate certificate its chain needs.",
            help: """
                The served chain stops short of a trusted root, and the certificate it stops at names its issuer's \
                address (AIA caIssuers). trustd fetches the issuer from there (http:// only, 3 s, no redirect), so \
                iOS connects, after an extra request on the first connection, and fails wherever that fetch fails \
                (captive portals, blocked egress, the CA's server down). Android, curl, OpenSSL and many SDKs do not \
                fetch and reject the chain. atscheck fetches as trustd does and passes the chain with this warning; \
                with `--no-fetch`, or when the fetch fails, the verdict is ambiguous. Configure the server to send \
                the intermediate(s) after the leaf (the CA's "full chain" file).
                """)
}
