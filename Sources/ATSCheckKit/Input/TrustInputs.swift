import ATSPolicy
import AppleTrust
import CertificateTrust
import Foundation
import TLSModel

/// `--trust-store` and `--ct-log-list`: whose roots and which CT logs stand in for the device's.
package enum TrustInputs {
    /// `apple` (Apple's published store of each iOS release, bundled), `host` (this machine's OpenSSL store) or the
    /// path of a PEM bundle that stands in for Apple's system roots.
    /// - Throws: ``InputFileError`` for a PEM bundle that is missing or holds no certificate.
    package static func trustSource(_ text: String) throws -> TrustStoreSource {
        switch text {
        case "apple": return .apple(AppleTrustBundle.bundled)
        case "host": return .host
        case "none": return .none
        default:
            try PEMFile.validate([text])
            return .pemBundle(text)
        }
    }

    /// A CT log list in Apple's JSON format.
    /// - Throws: ``InputFileError`` naming the file and the first problem.
    package static func logList(path: String) throws -> CTLogList {
        let data: Data
        do { data = try BoundedFileReader.read(path: path, limit: InputLimits.pemBytes) } catch {
            throw InputFileError(file: path, reason: "cannot read the CT log list: \(error.reason)")
        }
        let list: CTLogList
        do { list = try CTLogList.parse(data, source: path) } catch let error as CTLogListError {
            throw InputFileError(file: path, reason: error.description.replacingOccurrences(of: "\(path): ", with: ""))
        }
        if let problem = CTLogKeys.problems(list).first { throw InputFileError(file: path, reason: problem) }
        return list
    }

    /// The bundled data (`atscheck roots`).
    package static var bundled: AppleTrustData { AppleTrustBundle.bundled }
}

/// `--at DATE`: the time certificates are judged at.
package enum JudgingTime {
    /// `2027-01-15` (midnight UTC), `2027-01-15T09:30:00Z` or with an offset (`+02:00`); nil when it is neither.
    package static func parse(_ text: String) -> Date? {
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime]
        if let date = full.date(from: text) { return date }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = full.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        day.timeZone = TimeZone(identifier: "UTC")
        return text.count == 10 ? day.date(from: text) : nil
    }
}
