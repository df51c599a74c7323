import Foundation

/// Pins that are placeholders: `AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=` and the like. A SHA-256 digest of a real
/// key is never one byte repeated, so such a pin matches no certificate. They are common in TrustKit configurations,
/// written only to pass TrustKit's rule that a domain has two pins, which leaves the app without a real backup.
public enum PinPlaceholder {
    /// Whether a Base64 pin is a placeholder: its text (padding aside) is one character repeated, or it decodes to
    /// one byte repeated.
    /// - Parameter base64: The pin as written.
    public static func isPlaceholder(base64: String) -> Bool {
        let body = base64.trimmingCharacters(in: .whitespaces).filter { $0 != "=" }
        guard body.count >= 8 else { return false }
        if Set(body).count == 1 { return true }
        guard let bytes = Data(base64Encoded: base64.trimmingCharacters(in: .whitespaces)), bytes.count >= 16 else {
            return false
        }
        return Set(bytes).count == 1
    }
}
