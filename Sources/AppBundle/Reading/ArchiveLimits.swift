/// The caps that keep a hostile bundle from costing unbounded memory or time. Real apps are far inside
/// them; see docs/app.md for the reasoning behind each number.
public struct ArchiveLimits: Sendable, Equatable {
    /// The most entries an archive (or files a folder) may have; a real app has a few thousand.
    public var maxEntries: Int
    /// The most bytes read (inflated) from the whole bundle, summed over every file read, counted while
    /// inflating. Only the files atscheck reads count (executables, plists, scripts, certificates), not images.
    public var maxTotalBytes: Int64
    /// The most one entry may inflate relative to its compressed size, counted while inflating.
    public var maxCompressionRatio: Int64
    /// Entries that inflate to less than this are exempt from the ratio cap (a small run of zeros compresses
    /// a thousandfold and harms nobody; the total cap still bounds many of them).
    public var ratioFloorBytes: Int64
    /// The largest executable (main binary or framework) read for endpoints.
    public var maxExecutableBytes: Int64
    /// The largest text file (plist, JSON, `.strings`, JavaScript, HTML) read.
    public var maxTextBytes: Int64
    /// The largest certificate file read.
    public var maxCertificateBytes: Int64

    /// The defaults.
    public static let `default` = ArchiveLimits()

    /// - Parameters: see the properties; every one has a default.
    public init(
        maxEntries: Int = 100_000, maxTotalBytes: Int64 = 2 << 30, maxCompressionRatio: Int64 = 200,
        ratioFloorBytes: Int64 = 1 << 20, maxExecutableBytes: Int64 = 512 << 20, maxTextBytes: Int64 = 64 << 20,
        maxCertificateBytes: Int64 = 1 << 20
    ) {
        self.maxEntries = maxEntries
        self.maxTotalBytes = maxTotalBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioFloorBytes = ratioFloorBytes
        self.maxExecutableBytes = maxExecutableBytes
        self.maxTextBytes = maxTextBytes
        self.maxCertificateBytes = maxCertificateBytes
    }
}
