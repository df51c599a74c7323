/// A plist that could not be read or parsed: the CLI maps it to exit status 65.
///
/// An extensible struct (like swift-certificates' `CertificateError`): equal on ``code`` only.
public struct PlistError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unreadable, malformed, notADictionary, tooLarge
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The file does not exist or cannot be read.
        public static let unreadable = Code(.unreadable)
        /// The bytes are not a property list (XML, binary or OpenStep).
        public static let malformed = Code(.malformed)
        /// The plist parsed, but its root (or its `NSAppTransportSecurity` value) is not a dictionary.
        public static let notADictionary = Code(.notADictionary)
        /// The file is larger than ``InputLimits/plistBytes``.
        public static let tooLarge = Code(.tooLarge)

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// The file as given by the caller.
    public var file: String
    /// The line of the problem, when the parser said.
    public var line: Int?
    /// What is wrong, in a few words a person can act on.
    public var reason: String
    /// Where in atscheck the error was raised.
    public var location: String

    public init(
        code: Code, file: String, line: Int? = nil, reason: String, fileID: String = #fileID, sourceLine: Int = #line
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.reason = reason
        self.location = "\(fileID):\(sourceLine)"
    }

    /// One line: `Info.plist:12: malformed plist: Value missing for key inside <dict>`.
    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return "\(place): \(reason)"
    }

    public static func == (lhs: PlistError, rhs: PlistError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
