import Foundation
import Pinning

/// A certificate file in the bundle that a pinning library might load. The bytes are kept as they are:
/// parsing them into facts needs OpenSSL, which the caller has (`CertificateReader.facts(der:)`).
public struct BundledCertificate: Sendable, Equatable {
    /// How the bytes are encoded, judged by their first bytes only.
    public enum Encoding: String, Sendable, Equatable {
        /// Starts with an ASN.1 SEQUENCE (0x30): what the libraries expect.
        case der
        /// PEM text (`-----BEGIN CERTIFICATE-----`): AFNetworking crashes on it, Alamofire drops it.
        case pem
        /// Neither.
        case unknown
    }

    /// A default lookup that reads a certificate file: each pinning library declares its own
    /// (``PinningLibrary/bundleLookups``).
    public typealias Lookup = BundleLookup

    /// The path inside the archive or folder.
    public var path: String
    /// The path to show a person: the input path and the entry (`Demo.ipa/Payload/Demo.app/api.cer`).
    public var displayPath: String
    /// The file's bytes.
    public var bytes: Data
    public var encoding: Encoding
    /// The lookups that read this file by their location and extension, linked or not.
    public var lookups: [Lookup]

    /// The DER to parse: the file itself, or the first CERTIFICATE block of PEM text; nil when neither.
    public var der: [UInt8]? {
        switch encoding {
        case .der: return [UInt8](bytes)
        case .pem: return Self.firstPEMBlock(bytes)
        case .unknown: return nil
        }
    }

    static func encoding(of bytes: Data) -> Encoding {
        if bytes.first == 0x30 { return .der }
        let head = String(decoding: bytes.prefix(256), as: UTF8.self)
        return head.contains("-----BEGIN ") ? .pem : .unknown
    }

    static func firstPEMBlock(_ bytes: Data) -> [UInt8]? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let begin = text.range(of: "-----BEGIN CERTIFICATE-----"),
            let end = text.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<text.endIndex)
        else { return nil }
        let body = text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        return Data(base64Encoded: String(body)).map { [UInt8]($0) }
    }
}
