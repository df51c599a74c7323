import ATSPolicy
import CertificateTrust
import Foundation
import Judging
import TLSModel

/// `atscheck cert`: a certificate chain judged from a file, before it is served — trust in Apple's store of each
/// release, hostname, EKU, key usage, keys and signatures, lifetime caps, CT (embedded SCTs) and expiry, at a chosen
/// time. One endpoint per `--host` (or one without a host check), judged by the certificate rules only: there is no
/// handshake, so no TLS version or cipher suite is judged.
package struct CertCheck: Sendable {
    /// The chain file as given.
    package var file: String
    /// The names the app connects to; empty: the hostname is not checked.
    package var hosts: [String]
    /// Trust inputs (`--trust-store`, `--ca-file`, `--ct-log-list`, `--at` as `now`, `--warn-days`).
    package var settings: ScanSettings

    package init(file: String, hosts: [String], settings: ScanSettings) {
        self.file = file
        self.hosts = hosts
        self.settings = settings
    }

    /// The time the chain is judged at.
    package var judgedAt: Date { settings.now ?? Date() }

    /// Reads the chain file.
    /// - Throws: ``InputFileError`` (exit 65) naming the file and why it cannot be judged.
    package func loadChain() throws -> ChainFile {
        let data: Data
        do { data = try BoundedFileReader.read(path: file, limit: InputLimits.pemBytes) } catch {
            throw InputFileError(file: file, reason: error.reason)
        }
        do { return try ChainFile(data: data, file: file) } catch {
            throw InputFileError(file: file, reason: error.reason)
        }
    }

    /// The profiles of the chain, one per host: certificate facts and verification, no protocols.
    ///
    /// > Warning: A chain whose issuer is missing is completed from its caIssuers URL over the network (unless
    /// > `settings.fetchIssuers` is off), on the calling thread.
    /// - Parameter judge: who judges the chain (default: the settings' ``ScanSettings/makeChainJudge(fetchingIssuers:)``).
    /// - Throws: ``InputFileError`` for an unreadable chain, ``ProbeFailure`` when the trust inputs cannot be built.
    package func profiles(_ chain: ChainFile, judge: (any ChainJudging)? = nil) throws -> [ServerProfile] {
        let at = judgedAt
        let reports = try judge ?? settings.makeChainJudge(fetchingIssuers: true)
        return try (hosts.isEmpty ? [""] : hosts).map { host in
            var certificate = try reports.report(
                chain: chain.certificates, delivered: nil, ocspStapled: nil, stapledOCSP: nil, host: host, now: at,
                saved: nil)
            if host.isEmpty { certificate.hostnameMatches = nil }
            var profile = ServerProfile(
                target: host.isEmpty ? file : "\(host) (\(file))", host: host, port: 443, status: .completed,
                certificate: certificate, scannedAt: at)
            profile.scope = "certificate"  // no handshake: the JSON says what was judged
            profile.sni = nil
            return profile
        }
    }

    /// Notes on the file itself: its order, certificates not on the leaf's chain.
    package static func fileNotes(_ chain: ChainFile, file: String) -> [String] {
        var notes: [String] = []
        if chain.reordered {
            notes.append("\(file): the certificates were not in path order (leaf first); judged in path order")
        }
        if !chain.unrelated.isEmpty {
            notes.append(
                "\(file): certificate(s) \(chain.unrelated.map(String.init).joined(separator: ", ")) are not on the "
                    + "leaf's issuer chain; a server sending them wastes bytes in every handshake")
        }
        return notes
    }

    /// Judges the chain: the report of `atscheck cert` (expiry warnings included).
    /// - Throws: ``InputFileError`` (exit 65) for an unreadable chain or trust input.
    package func report(judge: PolicyJudge) throws -> (report: ScanReport, chain: ChainFile) {
        let chain = try loadChain()
        let profiles: [ServerProfile]
        do { profiles = try self.profiles(chain) } catch let error as ProbeFailure {
            throw InputFileError(file: file, reason: error.reason)
        }
        var judge = judge
        judge.now = judgedAt
        judge.certificateOnly = true
        let notes = Self.fileNotes(chain, file: file)
        var report = ScanPipeline.report(profiles) { profile in
            var evaluation = judge.judge(profile)
            evaluation.notes += notes
            if profile.host.isEmpty { evaluation.notes.append("no --host: the hostname was not checked") }
            if let leaf = profile.certificate?.leaf,
                let note = LifetimeSchedule.renewalNote(at: judgedAt, current: leaf)
            {
                evaluation.notes.append(note)
            }
            return evaluation
        }
        // The chain file is where every endpoint's problems are (SARIF's physical location, which GitHub requires on
        // every result; the endpoint's warnings are placed there too).
        for index in report.endpoints.indices { report.endpoints[index].source = SourceLocation(file: file) }
        report = report.addingExpiryWarnings(days: settings.expiryWarningDays, now: judgedAt)
        return (report, chain)
    }
}
