import ATSPolicy
import CertificateTrust
import Foundation
import TLSModel

/// PEM certificate files (`--ca-file`, an endpoint list's `caFile`), read with line numbers so that a
/// malformed one is an input error (exit 65, `FILE:LINE: reason`) before anything is scanned, not an
/// endpoint that "could not be scanned".
package enum PEMFile {
    /// One certificate of a PEM file and the line its `-----BEGIN` marker is on.
    package struct Certificate: Sendable {
        package var line: Int
        package var facts: CertificateFacts
    }

    /// Every certificate block of the file, in order. Blocks of other kinds (a private key, parameters) are
    /// skipped: OpenSSL's trust-store loader skips them too.
    /// - Throws: ``InputFileError`` for a missing, unreadable or oversized file (``InputLimits/pemBytes``), a
    ///   file with no certificate, a block without its END line, bad base64, or bytes that are not X.509.
    package static func certificates(path: String) throws -> [Certificate] {
        let data: Data
        do { data = try BoundedFileReader.read(path: path, limit: InputLimits.pemBytes) } catch {
            throw InputFileError(file: path, reason: error.reason)
        }
        return try certificates(in: [UInt8](data), file: path)
    }

    /// The certificates of PEM text already read; `file` names it in errors.
    /// - Parameter rejectingOtherBlocks: refuse a block that is not a certificate (pins are certificates)
    ///   instead of skipping it as OpenSSL's trust-store loader does.
    package static func certificates(in bytes: [UInt8], file: String, rejectingOtherBlocks: Bool = false) throws
        -> [Certificate]
    {
        if bytes.first == 0x30 {
            throw InputFileError(
                file: file,
                reason: "a DER certificate, not PEM (convert it: openssl x509 -inform der -in FILE -out FILE.pem)")
        }
        let text = try StructuredFile.decodeUTF8(Data(bytes), file: file)
        var found: [Certificate] = []
        var block: (label: String, line: Int, base64: String)?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if let open = block {
                if line.hasPrefix("-----END ") {
                    guard line == "-----END \(open.label)-----" else {
                        throw InputFileError(
                            file: file, line: number,
                            reason: "'\(line)' closes the \(open.label) block opened on line \(open.line)")
                    }
                    if isCertificate(open.label) {
                        found.append(try certificate(open.base64, label: open.label, line: open.line, file: file))
                    }
                    block = nil
                } else if line.hasPrefix("-----BEGIN ") {
                    throw InputFileError(file: file, line: open.line, reason: "the \(open.label) block has no END line")
                } else if !line.contains(":") {  // RFC 1421 headers (Proc-Type: …) are not base64
                    block?.base64 += line
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                let label = String(line.dropFirst(11).dropLast(5))
                if rejectingOtherBlocks && !isCertificate(label) {
                    throw InputFileError(
                        file: file, line: number,
                        reason: "\(line.prefix(60)) is not a certificate block (pins are certificates)")
                }
                block = (label, number, "")
            }
        }
        if let open = block {
            throw InputFileError(file: file, line: open.line, reason: "the \(open.label) block has no END line")
        }
        guard !found.isEmpty else {
            throw InputFileError(file: file, reason: "no PEM certificate (no -----BEGIN CERTIFICATE----- line)")
        }
        return found
    }

    /// Reads every file; the first malformed one throws.
    package static func validate(_ paths: [String]) throws {
        for path in Set(paths).sorted() { _ = try certificates(path: path) }
    }

    /// Whether the bytes are PEM text rather than DER: DER starts with a SEQUENCE (0x30); PEM holds an armour
    /// line, possibly after comments.
    package static func looksLikePEM(_ data: Data) -> Bool {
        data.first != 0x30 && data.range(of: Data("-----BEGIN".utf8)) != nil
    }

    /// The labels OpenSSL's `PEM_read_bio_X509` reads as a certificate.
    static func isCertificate(_ label: String) -> Bool {
        ["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"].contains(label)
    }

    private static func certificate(_ base64: String, label: String, line: Int, file: String) throws -> Certificate {
        guard let der = Data(base64Encoded: base64), !der.isEmpty else {
            throw InputFileError(file: file, line: line, reason: "the \(label) block is not valid base64")
        }
        do {
            return Certificate(line: line, facts: try CertificateParsing.facts(der: der))
        } catch let failure as ProbeFailure {
            throw InputFileError(
                file: file, line: line, reason: "the \(label) block is not a certificate (\(failure.reason))")
        }
    }
}
