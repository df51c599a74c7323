import ATSPolicy
import Foundation
import Pinning
import TLSModel

/// A TrustKit configuration TrustKit refuses (``TrustKitLaunchCheck``), located in the file it came from.
///
/// `pins check`, `audit` and `app` exit 65 on one: TrustKit raises an exception while loading it, so the app
/// crashes at launch, and nothing is judged against a configuration the app could never load.
package struct TrustKitLaunchFailure: Sendable {
    /// The file holding the configuration.
    package var file: String
    /// The line of the refused key, when known.
    package var line: Int?
    /// What TrustKit refuses.
    package var refusal: TrustKitLaunchCheck.Refusal
    /// ``refusal``'s problem as the file spells its keys (a pin-set file's `pins`, not `TSKPublicKeyHashes`).
    package var problem: String
    /// The configuration is an Info.plist's `TSKConfiguration`: TrustKit loads it by itself at launch (a library
    /// constructor reads the main bundle's Info.plist), whatever else the app does.
    package var inInfoPlist: Bool
    /// The library whose configuration it is: a refusal outside an Info.plist stops only a check of that library.
    package var library: PinLibrary { .trustkit }

    /// A located refusal.
    /// - Parameter names: TrustKit key → the file's name for it (none for a TrustKit dictionary).
    package init(
        file: String, line: Int?, refusal: TrustKitLaunchCheck.Refusal, inInfoPlist: Bool, names: [String: String] = [:]
    ) {
        self.file = file
        self.line = line
        self.refusal = refusal
        self.problem = refusal.problem(spelledAs: names)
        self.inInfoPlist = inInfoPlist
    }

    /// The exit-65 error for refusals: one line naming the file, line and domain of the first, the reason, how
    /// many more there are, and what TrustKit does; nil when there is none.
    /// - Parameter failures: The refusals, in the order to report them.
    /// - Returns: The error to throw.
    package static func error(_ failures: [TrustKitLaunchFailure]) -> InputFileError? {
        guard let first = failures.first else { return nil }
        let more = failures.count > 1 ? " (and \(failures.count - 1) more refusal\(failures.count > 2 ? "s" : ""))" : ""
        return InputFileError(
            file: first.file, line: first.line,
            reason: "\(first.problem)\(more): \(TrustKitLaunchCheck.Refusal.consequence)")
    }

    /// The refusals of a plist's `TSKConfiguration`, at the lines of the refused keys; empty when it has none.
    /// - Parameter document: An Info.plist.
    /// - Returns: The refusals, marked as loaded at launch.
    package static func inPlist(_ document: PlistDocument) -> [TrustKitLaunchFailure] {
        guard let value = document.rootDictionary["TSKConfiguration"] else { return [] }
        return TrustKitLaunchCheck.refusals(value).map {
            TrustKitLaunchFailure(
                file: document.file, line: line(of: $0.keyPath, in: document), refusal: $0, inInfoPlist: true)
        }
    }

    /// The line of the deepest key of `TSKConfiguration` + `keyPath` the plist has a line for.
    static func line(of keyPath: [String], in document: PlistDocument) -> Int? {
        var path = ["TSKConfiguration"] + keyPath
        while !path.isEmpty {
            if let line = document.line(forKeyPath: path) { return line }
            path.removeLast()
        }
        return nil
    }
}
