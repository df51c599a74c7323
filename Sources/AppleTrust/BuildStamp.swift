internal import AppleTrustData

/// What the binary was built from, for `atscheck --version`.
public enum BuildStamp {
    /// The commit (`git describe --always --dirty`), or nil when the binary was not built by `make`.
    public static var commit: String? {
        let text = String(cString: atsc_build_commit())
        return text.isEmpty ? nil : text
    }
}
