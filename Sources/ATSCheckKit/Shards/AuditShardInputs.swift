import ATSPolicy
import Foundation
import Judging
import TLSModel

extension AuditShardInputs {
    /// The inputs of an audit shard.
    /// - Throws: ``InputFileError`` when an input file cannot be read (it was read a moment ago by the audit).
    init(
        plist: String?, endpoints: String, baseline: String?, for client: ATSClient, settings: ScanSettings, now: Date
    ) throws {
        var fingerprints: [String: String] = [:]
        var pemBundle: [String] = []
        if case .pemBundle(let path) = settings.trustSource { pemBundle = [path] }
        for path in Set([plist, endpoints, baseline].compactMap { $0 } + settings.caFiles + pemBundle) {
            fingerprints[path] = try Self.fingerprint(of: path)
        }
        self.init(
            plist: plist, endpoints: endpoints, baseline: baseline, os: client.os, client: client.kind,
            caFiles: settings.caFiles, useSystemTrustStore: settings.useSystemTrustStore,
            trustStore: settings.trustSource.recorded, warnDays: settings.expiryWarningDays,
            evaluationTime: settings.now, ranAt: now, fingerprints: fingerprints,
            plistReading: settings.plistReading == PlistReadOptions() ? nil : settings.plistReading)
    }

    /// The settings the judging reads.
    var settings: ScanSettings {
        var settings = ScanSettings()
        settings.caFiles = caFiles
        settings.useSystemTrustStore = useSystemTrustStore
        settings.expiryWarningDays = warnDays
        settings.now = evaluationTime
        settings.plistReading = plistReading ?? PlistReadOptions()
        return settings
    }

    /// FNV-1a (64 bit) of a file's bytes, in hex: a change detector, not a security check.
    static func fingerprint(of path: String) throws -> String {
        // Read as every input is (a FIFO is refused, not waited on), within the largest limit of the files
        // fingerprinted: a text endpoint list's.
        let data: Data
        do { data = try BoundedFileReader.read(path: path, limit: InputLimits.endpointTextBytes) } catch {
            throw InputFileError(file: path, reason: error.reason)
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
