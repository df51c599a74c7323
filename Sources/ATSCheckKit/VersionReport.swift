import AppleTrust
import CertificateTrust
import TLSModel

/// `atscheck --version`: the version, the commit it was built from, the OpenSSL it runs with and the Apple data it
/// carries — what a bug report needs to reproduce a verdict.
public enum VersionReport {
    /// The lines, first the bare version (what scripts parse).
    public static var text: String {
        let data = AppleTrustBundle.bundled
        var lines = [ToolInfo.currentVersion]
        lines.append("commit: \(BuildStamp.commit ?? "unknown (built without make)")")
        lines.append("OpenSSL: \(linkedOpenSSLVersion) (built against \(builtOpenSSLVersion))")
        let stores = data.snapshots
        if let first = stores.first, let last = stores.last {
            lines.append(
                "Apple trust stores: \(stores.count), iOS \(first.iOS)–\(last.iOS) (newest \(last.version), "
                    + "\(last.tag)); \(data.roots.count) roots, \(data.removedRoots.count) removed roots")
        }
        if let logs = data.logList {
            lines.append("Apple CT log list: version \(logs.version), \(logs.logs.count) logs")
        }
        lines.append("Apple data from: \(data.provenance.repository), generated \(data.provenance.generated)")
        // What `atscheck data update` stored, which runs judge with instead of the bundled list.
        switch Result(catching: { try TrustInputs.updatedLogList() }) {
        case .success(let updated?):
            lines.append(
                "Updated Apple data: CT log list version \(updated.version ?? "?")"
                    + (updated.date.map { ", dated \($0)" } ?? "")
                    + (updated.fetchedAt.map { ", downloaded \(CalendarDay.string(from: $0))" } ?? "")
                    + " (atscheck data update)")
        case .success(nil): lines.append("Updated Apple data: none (atscheck data update)")
        case .failure(let error): lines.append("Updated Apple data: unreadable: \(error)")
        }
        return lines.joined(separator: "\n")
    }
}
