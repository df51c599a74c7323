import ATSPolicy
import Foundation
import Reporting
import TLSModel

/// Saved profiles: a JSON array of `ServerProfile` (a whole `scan --format json` report, or a single
/// profile, is accepted too). Judging a saved profile again needs no connection.
package enum ProfileFile {
    /// Writes `profiles` as JSON to `path`.
    /// - Throws: ``OutputFileError`` (exit 73) when the file cannot be written.
    package static func save(_ profiles: [ServerProfile], to path: String) throws {
        let data = try JSONRendering.encoder().encode(profiles)
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw OutputFileError(
                file: path, description: "cannot write profile \(path): \(error.localizedDescription)")
        }
    }

    /// Reads the profiles saved in `path`.
    /// - Throws: ``InputFileError`` (exit 65) when the file is missing, unreadable, over
    ///   ``InputLimits/profileBytes``, not JSON (`FILE:LINE: malformed JSON: …`) or JSON that holds no profile.
    package static func load(_ path: String) throws -> [ServerProfile] {
        let data: Data
        do { data = try BoundedFileReader.read(path: path, limit: InputLimits.profileBytes) } catch {
            throw InputFileError(file: path, reason: error.reason)
        }
        // Syntax first: a JSON syntax error has a place, which the decoder's message would lose.
        do { _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            let line = StructuredFile.jsonErrorLine(detail, text: String(decoding: data, as: UTF8.self))
            throw InputFileError(file: path, line: line, reason: "malformed JSON: \(detail)")
        }
        let decoder = JSONRendering.decoder()
        if let profiles = try? decoder.decode([ServerProfile].self, from: data) { return profiles }
        if let report = try? decoder.decode(ScanReport.self, from: data) { return report.endpoints.map(\.profile) }
        do { return [try decoder.decode(ServerProfile.self, from: data)] } catch {
            throw InputFileError(file: path, reason: "not a saved profile: \(describe(error))")
        }
    }

    /// Reads the profiles of every file, in order.
    /// - Throws: ``InputFileError`` (exit 65) for the first file that is unreadable or malformed.
    package static func load(_ paths: [String]) throws -> [ServerProfile] {
        try paths.flatMap { try load($0) }
    }

    /// A one-line description of a decoding error.
    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            let path = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            return "missing \(path)"
        default:
            return "\(error)"
        }
    }
}

extension ProfileFile {
    /// The saved profiles with their certificates verified again from the saved chain (DER), at `settings.now` (or
    /// now), against `settings`' trust store, CA files and CT log list: a saved `trusted`, path or SCT verdict is
    /// never reused, so an edited profile cannot flip a verdict and a chain can be judged at another time (`--at`).
    /// SCTs delivered in the handshake and the stapled OCSP response are checked again from their saved bytes;
    /// profiles saved before the bytes were kept lose them (a note says so for SCTs).
    /// - Parameter judge: who judges the chains (default: the settings' ``ScanSettings/makeChainJudge(fetchingIssuers:)``,
    ///   which fetches nothing: the saved issuers stand in).
    /// - Throws: ``InputFileError`` when the trust inputs cannot be built.
    package static func reverified(
        _ profiles: [ServerProfile], settings: ScanSettings, judge: (any ChainJudging)? = nil
    ) throws -> [ServerProfile] {
        let at = settings.now ?? Date()
        guard profiles.contains(where: { !($0.certificate?.chain.isEmpty ?? true) }) else { return profiles }
        let reports: any ChainJudging
        do {
            reports = try judge ?? settings.makeChainJudge(fetchingIssuers: false)
        } catch let error as ProbeFailure {
            throw InputFileError(file: "--profile", reason: "cannot verify the saved chain again: \(error.reason)")
        }
        return try profiles.map { profile in
            guard let saved = profile.certificate, !saved.chain.isEmpty else { return profile }
            var copy = profile
            let transparency = saved.transparency
            let delivered = transparency.flatMap {
                $0.requestedDelivered ? $0.scts.filter { $0.source != .embedded } : nil
            }
            do {
                // Issuers the scan fetched come from the profile, as fetched then: judging again never connects.
                var report = try reports.report(
                    chain: saved.chain.map(\.der), delivered: delivered, ocspStapled: saved.ocspStapled,
                    stapledOCSP: saved.revocation?.stapled?.response, host: profile.host, now: at, saved: saved)
                if delivered?.contains(where: { $0.serialized == nil }) == true {
                    report.transparency?.requestedDelivered = false
                }
                copy.certificate = report
            } catch let error as ProbeFailure {
                throw InputFileError(file: "--profile", reason: "cannot verify the saved chain again: \(error.reason)")
            }
            return copy
        }
    }
}
