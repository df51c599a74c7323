import AppleTrust
import TLSModel
import TLSProbe

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
        return lines.joined(separator: "\n")
    }
}
