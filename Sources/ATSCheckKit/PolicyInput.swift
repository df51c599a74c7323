import ATSPolicy
import Foundation
import Judging
import TLSModel

extension AppPolicySource {
    /// Reads a plist file: XML, binary or OpenStep, a whole Info.plist or a bare ATS dictionary, read as Xcode
    /// builds it (every build configuration of a preprocessed one).
    /// - Throws: ``InputFileError`` (exit 65) when the file is unreadable or not a dictionary plist.
    public static func load(_ path: String) throws -> AppPolicySource {
        AppPolicySource(source: try PlistSource.input(path))
    }

}

extension PolicyJudge {
    /// Judges under the policy of `plist` (the default ATS policy when nil).
    /// - Throws: ``InputFileError`` (exit 65) when the plist is unreadable or malformed.
    public init(plist: String?, for client: ATSClient = .newest) throws {
        self.init(policy: try plist.map(AppPolicySource.load) ?? .defaultPolicy, for: client)
    }

}

/// An input file that is unreadable or malformed: exit 65 with a one-line reason.
public struct InputFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var reason: String

    /// The line written to stderr, when it is not `FILE[:LINE]: REASON`.
    private var wholeLine: String?

    public init(file: String, line: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// An error whose one line names the file itself, e.g. `cannot read profile FILE`.
    public init(file: String, line: Int? = nil, message: String) {
        self.init(file: file, line: line, reason: message)
        self.wholeLine = message
    }

    public var description: String { wholeLine ?? "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)" }
}

/// An output file that cannot be written (exit 73, `EX_CANTCREAT`), with a one-line reason.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var description: String

    public init(file: String, description: String) {
        self.file = file
        self.description = description
    }
}
