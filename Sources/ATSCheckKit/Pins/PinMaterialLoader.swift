import ATSPolicy
import CertificateTrust
import Foundation
import Pinning
import TLSModel

/// A pinned certificate read from a file.
package struct PinnedCertificateFile: Sendable, Equatable {
    /// The file it came from.
    package var file: String
    /// The certificate.
    package var facts: CertificateFacts
    /// PEM text in a file apps load as DER (`.cer`, `.der`): AFNetworking crashes on it, Alamofire drops it.
    package var pemInDERFile: Bool

    /// A loaded certificate.
    package init(file: String, facts: CertificateFacts, pemInDERFile: Bool = false) {
        self.file = file
        self.facts = facts
        self.pemInDERFile = pemInDERFile
    }
}

/// Pin material read from `--pins`: certificates, pin sets (files and `TSKConfiguration`), `NSPinnedDomains`.
package struct LoadedPins: Sendable {
    /// Every file read, in order.
    package var files: [String] = []
    /// Pinned certificates, in file order.
    package var certificates: [PinnedCertificateFile] = []
    /// The TrustKit-model pin set merged from pin-set files and `TSKConfiguration` dictionaries; nil when none.
    package var pinSet: PinSet?
    /// `NSPinnedDomains` merged from Info.plists; nil when none.
    package var pinnedDomains: PinnedDomainsConfiguration?
    /// The material libraries define for themselves, by library (``AppPins/libraryMaterial``).
    package var libraryMaterial: [PinLibrary: any LibraryPinMaterial] = [:]
    /// Findings about the material (PEM in `.cer`, malformed pins, configurations TrustKit refuses).
    package var findings: [Finding] = []
    /// What TrustKit would refuse in the TrustKit configurations read (pin-set files, TrustKit JSON/YAML,
    /// `TSKConfiguration`), in file order: an app loading one crashes at launch.
    package var trustKitRefusals: [TrustKitLaunchFailure] = []

    /// Empty material.
    package init() {}

    /// The certificates AFNetworking and Alamofire would load: a PEM blob in a `.cer`/`.der` is left out
    /// (AFNetworking's Certificate mode crashes on it, its PublicKey mode and Alamofire skip it).
    package var bundledCertificates: [CertificateFacts] { certificates.filter { !$0.pemInDERFile }.map(\.facts) }

    /// The material as the libraries read it (``AppPins``).
    package var appPins: AppPins {
        AppPins(
            certificates: bundledCertificates, pinSet: pinSet, pinnedDomains: pinnedDomainsConfiguration,
            libraryMaterial: libraryMaterial)
    }

    /// The material as the files hold it, for asking which libraries it configures: every certificate (a PEM blob
    /// in a `.cer` too) and only the configurations the files hold themselves (not one a library derives from
    /// another's pins).
    package var appPinsAsRead: AppPins {
        AppPins(
            certificates: certificates.map(\.facts), pinSet: pinSet, pinnedDomains: pinnedDomains,
            libraryMaterial: libraryMaterial)
    }

    /// The configuration NSPinnedDomains uses: the Info.plist's, else the pin sets' pins as `NSPinnedCAIdentities`.
    package var pinnedDomainsConfiguration: PinnedDomainsConfiguration? {
        if let pinnedDomains { return pinnedDomains }
        guard let pinSet else { return nil }
        return PinnedDomainsConfiguration(
            domains: pinSet.domains.mapValues {
                PinnedDomainEntry(includesSubdomains: $0.includeSubdomains, caIdentities: $0.pins)
            })
    }
}

/// Reads `--pins PATH`: a file or a directory (every pin file in it, sorted, subdirectories included).
package enum PinMaterialLoader {
    /// The file name extensions read in a directory; other files (a README) are skipped.
    package static let extensions: Set<String> = ["cer", "der", "crt", "pem", "json", "yaml", "yml", "plist"]
    /// The largest pin-set file read (parsed whole).
    package static let pinSetBytes = InputLimits.baselineBytes

    /// Loads the material at `path`.
    /// - Parameters:
    ///   - path: A file or a directory.
    ///   - plistReading: How Info.plists are read (`--define`, `--build-setting`, `--xcconfig`); a preprocessed one's
    ///     pins come from its first configuration (every name undefined unless a definition chose one).
    /// - Returns: The material.
    /// - Throws: ``InputFileError`` (exit 65) for a missing path or a malformed file, with its line when known.
    package static func load(_ path: String, plistReading: PlistReadOptions = PlistReadOptions()) throws -> LoadedPins {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputFileError(file: path, reason: "no such file or directory")
        }
        var pins = LoadedPins()
        if isDirectory.boolValue {
            let base = URL(fileURLWithPath: path)
            guard
                let walker = FileManager.default.enumerator(
                    at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            else {
                throw InputFileError(file: path, reason: "cannot read the directory")
            }
            var files: [String] = []
            for case let url as URL in walker where extensions.contains(url.pathExtension.lowercased()) {
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                    files.append(
                        (path as NSString).appendingPathComponent(String(url.path.dropFirst(base.path.count + 1))))
                }
            }
            for file in files.sorted() { try loadFile(file, into: &pins, plistReading: plistReading) }
        } else {
            guard extensions.contains((path as NSString).pathExtension.lowercased()) else {
                throw InputFileError(
                    file: path,
                    reason:
                        "not a pin file: expected .cer, .der, .crt, .pem, .json, .yaml, .yml or an Info.plist (.plist)")
            }
            try loadFile(path, into: &pins, plistReading: plistReading)
        }
        return pins
    }

    static func loadFile(
        _ file: String, into pins: inout LoadedPins, plistReading: PlistReadOptions = PlistReadOptions()
    ) throws {
        pins.files.append(file)
        switch (file as NSString).pathExtension.lowercased() {
        case "cer", "der", "crt", "pem": try loadCertificates(file, into: &pins)
        case "json", "yaml", "yml":
            let loaded = try PinSetFile.load(file)
            pins.pinSet = merge(pins.pinSet, loaded.pinSet)
            pins.findings += loaded.findings
            pins.trustKitRefusals += loaded.refusals
        default: try loadPlist(file, into: &pins, plistReading: plistReading)
        }
    }

    static func loadCertificates(_ file: String, into pins: inout LoadedPins) throws {
        let data: Data
        do { data = try BoundedFileReader.read(path: file, limit: InputLimits.pemBytes) } catch {
            throw InputFileError(file: file, reason: error.reason)
        }
        let ext = (file as NSString).pathExtension.lowercased()
        if PEMFile.looksLikePEM(data) {
            let certificates = try PEMFile.certificates(in: [UInt8](data), file: file, rejectingOtherBlocks: true).map(
                \.facts)
            let inDERFile = ext == "cer" || ext == "der"
            if inDERFile {
                pins.findings.append(
                    Finding(
                        rule: RuleID.Pins.pemInCer, severity: .error,
                        message:
                            "\(file) holds PEM text, not DER: AFNetworking's Certificate mode crashes on it and its "
                            + "PublicKey mode and Alamofire skip it silently; convert it with openssl x509 "
                            + "-outform DER",
                        file: file, line: 1))
            }
            pins.certificates += certificates.map {
                PinnedCertificateFile(file: file, facts: $0, pemInDERFile: inDERFile)
            }
        } else if ext == "pem" {
            throw InputFileError(
                file: file, line: 1, reason: "no PEM certificate (-----BEGIN CERTIFICATE-----) in a .pem file")
        } else {
            do {
                pins.certificates.append(
                    PinnedCertificateFile(
                        file: file, facts: try CertificateParsing.facts(der: data), pemInDERFile: false))
            } catch let error as ProbeFailure {
                throw InputFileError(file: file, reason: "not a DER certificate (\(error.reason))")
            }
        }
    }

    static func loadPlist(
        _ file: String, into pins: inout LoadedPins, plistReading: PlistReadOptions = PlistReadOptions()
    ) throws {
        let document: PlistDocument
        do { document = try PlistSource.load(path: file, options: plistReading).document } catch let error
            as PlistError
        {
            throw InputFileError(file: file, line: error.line, reason: error.reason)
        }
        let root = document.rootDictionary
        if root[TrustKitLibrary.infoPlistKey] != nil {
            // TrustKit loads an Info.plist's TSKConfiguration by itself at launch, whatever its type.
            pins.trustKitRefusals += TrustKitLaunchFailure.inPlist(document)
        }
        let shared = sharedMaterial(of: document, file: file)
        if let set = shared.pinSet { pins.pinSet = merge(pins.pinSet, set) }
        if let parsed = shared.pinnedDomains { pins.pinnedDomains = merge(pins.pinnedDomains, parsed) }
        pins.findings += shared.findings
        for library in PinningLibraries.all {
            guard let (material, findings) = library.material(plist: root, file: file) else { continue }
            pins.libraryMaterial[library.id] = material
            pins.findings += findings
        }
    }

    /// The material every registered library keeps in the shared fields (a TrustKit pin set, `NSPinnedDomains`)
    /// of one plist, merged in registry order, with the findings about it in that order.
    /// - Parameters:
    ///   - document: An Info.plist or a bare ATS dictionary.
    ///   - file: The path findings name; the document's own when nil.
    /// - Returns: The material; nil fields when no library found any.
    package static func sharedMaterial(of document: PlistDocument, file: String? = nil) -> SharedPinMaterial {
        let root = document.rootDictionary
        let ats = document.atsDictionary
        var out = SharedPinMaterial()
        for library in PinningLibraries.all {
            guard
                let shared = library.sharedMaterial(
                    plist: root, ats: ats, file: file ?? document.file, line: { document.line(forKeyPath: $0) })
            else { continue }
            if let set = shared.pinSet { out.pinSet = out.pinSet.map { merge($0, set) } ?? set }
            if let parsed = shared.pinnedDomains { out.pinnedDomains = merge(out.pinnedDomains, parsed) }
            out.findings += shared.findings
        }
        return out
    }

    /// The `NSAppTransportSecurity` → `NSPinnedDomains` of a plist as Apple's Security framework reads it;
    /// nil when the key is absent or not a dictionary.
    /// - Parameter document: An Info.plist or a bare ATS dictionary.
    /// - Returns: The configuration.
    package static func pinnedDomains(of document: PlistDocument) -> PinnedDomainsConfiguration? {
        PinnedDomainsLibrary().sharedMaterial(
            plist: document.rootDictionary, ats: document.atsDictionary, file: document.file,
            line: { document.line(forKeyPath: $0) }
        )?.pinnedDomains
    }

    static func merge(_ a: PinnedDomainsConfiguration?, _ b: PinnedDomainsConfiguration) -> PinnedDomainsConfiguration {
        var domains = a?.domains ?? [:]
        for (k, v) in b.domains { domains[k] = v }
        return PinnedDomainsConfiguration(domains: domains)
    }

    static func merge(_ a: PinSet?, _ b: PinSet) -> PinSet {
        var domains = a?.domains ?? [:]
        for (k, v) in b.domains { domains[k] = v }
        return PinSet(domains: domains)
    }
}
