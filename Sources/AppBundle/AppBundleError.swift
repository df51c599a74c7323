/// A bundle that could not be read or that was refused as hostile: the CLI maps it to exit status 65 and prints
/// ``description`` (`FILE: reason`).
///
/// An extensible struct (like swift-certificates' `CertificateError`): equal on ``code`` only.
public struct AppBundleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The path does not exist, cannot be read, or is not a regular file or folder (a FIFO, socket or device).
        public static let unreadable = Code("unreadable")
        /// The path is not an `.ipa`, `.app` or `.xcarchive`, or holds no app where one should be.
        public static let notABundle = Code("notABundle")
        /// The zip is truncated or corrupt (no central directory, entries missing, bad checksum, bad data).
        public static let corruptArchive = Code("corruptArchive")
        /// An entry path is absolute or climbs out with `..`.
        public static let unsafePath = Code("unsafePath")
        /// A symbolic link points outside the bundle.
        public static let symlinkEscape = Code("symlinkEscape")
        /// A symbolic link loops (`Contents -> Contents/x`) or chains through too many links.
        public static let symlinkLoop = Code("symlinkLoop")
        /// An executable has the magic of a thin 64-bit Mach-O but load commands or sections outside the file.
        public static let corruptExecutable = Code("corruptExecutable")
        /// Two entries have the same path.
        public static let duplicateEntry = Code("duplicateEntry")
        /// An entry inflates more than ``ArchiveLimits/maxCompressionRatio`` times its compressed size.
        public static let compressionRatio = Code("compressionRatio")
        /// Reading the bundle would inflate more than ``ArchiveLimits/maxTotalBytes``.
        public static let totalTooLarge = Code("totalTooLarge")
        /// The archive or folder has more than ``ArchiveLimits/maxEntries`` entries.
        public static let tooManyEntries = Code("tooManyEntries")
        /// The app's Info.plist is missing, malformed or not a dictionary.
        public static let infoPlist = Code("infoPlist")

        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The path as given by the caller.
    public var file: String
    /// What is wrong, in a few words a person can act on (names the entry when there is one).
    public var reason: String
    /// Where in atscheck the error was raised.
    public var location: String

    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - file: The bundle path as given.
    ///   - reason: What is wrong.
    public init(_ code: Code, file: String, reason: String, fileID: String = #fileID, sourceLine: Int = #line) {
        self.code = code
        self.file = file
        self.reason = reason
        self.location = "\(fileID):\(sourceLine)"
    }

    /// One line: `Demo.ipa: entry ../../etc/passwd climbs out of the archive with '..'`.
    public var description: String { "\(file): \(reason)" }

    public static func == (lhs: AppBundleError, rhs: AppBundleError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
