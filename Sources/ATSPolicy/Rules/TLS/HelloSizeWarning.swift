import TLSModel

extension RuleID.ATS {
    /// The server (or something in front of it) fails a ClientHello that spans two TCP segments, as iOS 26's does:
    /// every iOS 26 connection fails while iOS 18's connect (issue 36). Emitted by `Judging/Gate`.
    package static let helloSizeIntolerant: RuleID = "ats.tls.hello-size-intolerant"
}

/// The entry of ``RuleID/ATS/helloSizeIntolerant``: a warning `Judging/Gate` emits from the scan's
/// ``ServerProfile/helloSizeTolerance``, judged after the ATS verdict. No Info.plist key is involved and ATS's rules
/// pass; the client simply cannot complete its handshake.
enum HelloSizeWarning {
    static let entry = RuleDescriptor(
        RuleID.ATS.helloSizeIntolerant, .tls, .warning,
        title: "The server fails a ClientHello that spans two TCP segments: iOS 26 cannot connect.",
        help: """
            iOS 26 offers the post-quantum hybrid X25519MLKEM768 with a 1216-byte key share (Apple support article \
            122756), so its ClientHello is about 1,530 bytes and always spans two TCP segments. A server or a \
            middlebox that reads the first segment once and gives up when it does not hold the whole hello (the \
            "tldr.fail" family of bugs, seen in load balancers, firewalls and TLS terminators) closes or resets \
            every iOS 26 connection, while iOS 18's hello, which fits one segment, connects. atscheck sends the \
            iOS 26 hello in two segments with a pause between them and the iOS 18 hello in one, and reports both \
            outcomes. Fix the server or the device in front of it to read until the whole record has arrived \
            (RFC 8446 §5.1: a handshake message may span records and records span segments); updating the TLS \
            library or load balancer usually does it.
            """)
}
