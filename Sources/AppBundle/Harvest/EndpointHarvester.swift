import Foundation

/// An endpoint found in the bundle, with every place it was found.
public struct HarvestedEndpoint: Sendable, Equatable {
    /// How it was written.
    public enum Kind: String, Sendable, Equatable, Comparable {
        case https, http
        /// A bare host name (no scheme): HTTPS is assumed.
        case host

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One place the endpoint was found.
    public struct Source: Sendable, Hashable {
        /// The display path of the file (`Demo.ipa/Payload/Demo.app/Demo`).
        public var file: String
        /// The byte offset, for binary files (executables, binary plists, Hermes bytecode).
        public var offset: Int?
        /// The line, for text files.
        public var line: Int?
        /// The dotted key path, for binary plists (read as plists: their object table runs strings together).
        public var keyPath: String?

        /// - Parameters: see the properties.
        public init(file: String, offset: Int? = nil, line: Int? = nil, keyPath: String? = nil) {
            self.file = file
            self.offset = offset
            self.line = line
            self.keyPath = keyPath
        }

        /// `Demo.ipa/Payload/Demo.app/main.jsbundle:12`, `…/Demo@0x1f40` or `…/Info.plist (NSAppTransportSecurity…)`.
        public var description: String {
            if let line { return "\(file):\(line)" }
            if let keyPath { return "\(file) (\(keyPath))" }
            if let offset { return "\(file)@0x\(String(offset, radix: 16))" }
            return file
        }
    }

    public var kind: Kind
    /// Lower case.
    public var host: String
    /// The port written, nil for the scheme's default.
    public var port: Int?
    /// The first URL or name as it was found, with its path (at most 2 KB of it).
    public var example: String
    /// The places it was found, in order, at most ``HarvestLimits/maxSourcesPerEndpoint``.
    public var sources: [Source]
    /// Further places it was found, counted but not kept (0 for nearly every endpoint).
    public var moreSources: Int

    /// - Parameters: see the properties.
    public init(kind: Kind, host: String, port: Int?, example: String, sources: [Source], moreSources: Int = 0) {
        self.kind = kind
        self.host = host
        self.port = port
        self.example = example
        self.sources = sources
        self.moreSources = moreSources
    }

    /// Every place it was found: the kept ``sources`` and the ``moreSources`` counted.
    public var sourceCount: Int { sources.count + moreSources }

    /// The line of an endpoint list (`audit` text format): `https://host[:port]`, `http://host[:port]`, or
    /// `host[:port]` for a bare name.
    public var target: String {
        let authority = port.map { "\(hostForURL):\($0)" } ?? hostForURL
        switch kind {
        case .https: return "https://" + authority
        case .http: return "http://" + authority
        case .host: return authority
        }
    }

    private var hostForURL: String { host }
}

/// Harvests endpoints from the files of a bundle: executables (the string sections of a thin 64-bit Mach-O, or
/// the whole file otherwise), plists, JSON, `.strings`, JavaScript and HTML — minus what ``HarvestFilter`` drops.
///
/// Bounded by the input: files are scanned in place (never copied), each byte at most once (a Mach-O's string
/// sections are merged into disjoint ranges first), matches are merged as they are found (one dictionary lookup
/// each), and at most ``HarvestLimits/maxEndpoints`` endpoints are kept, the rest counted.
public enum EndpointHarvester {
    /// Harvests a bundle.
    /// - Parameters:
    ///   - contents: An opened bundle.
    ///   - filter: What to leave out (default: ``HarvestFilter/default``).
    ///   - limits: How many endpoints and places to keep.
    /// - Returns: Endpoints sorted by host, then kind and port (a bare name also found in a URL is merged into
    ///   it), with the count of those not kept and of the bytes scanned.
    public static func harvest(
        _ contents: AppBundleContents, filter: HarvestFilter = .default, limits: HarvestLimits = .default
    ) -> EndpointHarvest {
        var collector = EndpointCollector(limits: limits)
        let executables = Set(contents.executables)
        for path in contents.files.contents.keys.sorted() {
            guard let data = contents.files.contents[path], BundlePath.isInside(path, contents.layout.appRoot) else {
                continue
            }
            let isExecutable = executables.contains(path)
            guard isExecutable || BundleReader.textExtensions.contains(BundlePath.pathExtension(path).lowercased())
            else { continue }
            let file = contents.displayPath(path)
            let scanned = matches(in: data, isExecutable: isExecutable, filter: filter) { match, place in
                collector.add(
                    kind: match.endpointKind, host: match.host, port: match.port, example: match.text,
                    source: place.source(in: file))
            }
            collector.scannedBytes += scanned
        }
        return collector.finish()
    }

    /// Harvests one file's bytes.
    /// - Parameters:
    ///   - bytes: The file.
    ///   - file: The name sources carry.
    ///   - isExecutable: Scan Mach-O string sections when the file is a thin 64-bit Mach-O.
    ///   - filter: What to leave out.
    /// - Returns: One endpoint per match (not merged).
    public static func harvest(bytes: [UInt8], file: String, isExecutable: Bool, filter: HarvestFilter = .default)
        -> [HarvestedEndpoint]
    {
        var out: [HarvestedEndpoint] = []
        matches(in: Data(bytes), isExecutable: isExecutable, filter: filter) { match, place in
            out.append(
                HarvestedEndpoint(
                    kind: match.endpointKind, host: match.host, port: match.port, example: match.text,
                    sources: [place.source(in: file)]))
        }
        return out
    }

    /// Where in a file a match is (the file itself is named by the caller).
    struct Place {
        var offset: Int?
        var line: Int?
        var keyPath: String?

        func source(in file: String) -> HarvestedEndpoint.Source {
            HarvestedEndpoint.Source(file: file, offset: offset, line: line, keyPath: keyPath)
        }
    }

    /// Calls `body` with each match in a file and where it is, in file order.
    /// - Returns: The bytes scanned for printable runs.
    @discardableResult
    static func matches(
        in data: Data, isExecutable: Bool, filter: HarvestFilter, _ body: (EndpointExtractor.Match, Place) -> Void
    ) -> Int {
        if !isExecutable, data.starts(with: Array("bplist".utf8)) {
            BinaryPlistStrings.matches(in: data, filter: filter) { match, keyPath in
                body(match, Place(keyPath: keyPath))
            }
            return 0
        }
        return data.withUnsafeBytes { bytes in
            var ranges = [0..<bytes.count]
            var isText = false
            if isExecutable {
                if case .machO(let macho) = MachOFile.parse(bytes) { ranges = macho.stringRanges }
            } else {
                // Text (lines make sense) unless it has NUL bytes: binary plists, Hermes bytecode, UTF-16 `.strings`.
                isText = !bytes.prefix(8192).contains(0)
            }
            var scanned = 0
            for range in ranges {
                scanned += range.count
                PrintableRuns.runs(in: bytes, range: range) { run in
                    let text = UnsafeRawBufferPointer(rebasing: bytes[run.range])
                    for match in EndpointExtractor.matches(in: text, filter: filter) {
                        body(
                            match,
                            Place(
                                offset: isText ? nil : run.range.lowerBound + match.offset,
                                line: isText ? run.line : nil))
                    }
                }
            }
            return scanned
        }
    }
}

extension EndpointExtractor.Match {
    var endpointKind: HarvestedEndpoint.Kind {
        switch kind {
        case .https: return .https
        case .http: return .http
        case .host: return .host
        }
    }
}
