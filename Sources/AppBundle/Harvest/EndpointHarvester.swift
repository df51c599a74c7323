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
    public struct Source: Sendable, Equatable {
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
    /// The first URL or name as it was found, with its path.
    public var example: String
    public var sources: [Source]

    /// - Parameters: see the properties.
    public init(kind: Kind, host: String, port: Int?, example: String, sources: [Source]) {
        self.kind = kind
        self.host = host
        self.port = port
        self.example = example
        self.sources = sources
    }

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
public enum EndpointHarvester {
    /// Harvests a bundle.
    /// - Parameters:
    ///   - contents: An opened bundle.
    ///   - filter: What to leave out (default: ``HarvestFilter/default``).
    /// - Returns: Endpoints sorted by host, then kind and port; a bare name also found in a URL is merged into it.
    public static func harvest(_ contents: AppBundleContents, filter: HarvestFilter = .default) -> [HarvestedEndpoint] {
        var inputs: [(path: String, data: Data, isExecutable: Bool)] = []
        let executables = Set(contents.executables)
        for path in contents.files.contents.keys.sorted() {
            guard let data = contents.files.contents[path], BundlePath.isInside(path, contents.layout.appRoot) else {
                continue
            }
            let ext = BundlePath.pathExtension(path).lowercased()
            if executables.contains(path) {
                inputs.append((path, data, true))
            } else if BundleReader.textExtensions.contains(ext) {
                inputs.append((path, data, false))
            }
        }
        var all: [HarvestedEndpoint] = []
        for input in inputs {
            all += harvest(
                bytes: [UInt8](input.data), file: contents.displayPath(input.path), isExecutable: input.isExecutable,
                filter: filter)
        }
        return merge(all)
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
        if !isExecutable, bytes.starts(with: Array("bplist".utf8)) {
            return BinaryPlistStrings.harvest(bytes: bytes, file: file, filter: filter)
        }
        var ranges = [0..<bytes.count]
        var isText = false
        if isExecutable, let macho = MachOFile(bytes) {
            ranges = macho.stringSectionRanges
        } else if !isExecutable {
            // Text (lines make sense) unless it has NUL bytes: binary plists, Hermes bytecode, UTF-16 `.strings`.
            isText = !bytes.prefix(8192).contains(0)
        }
        var out: [HarvestedEndpoint] = []
        for range in ranges {
            PrintableRuns.runs(in: bytes, range: range) { run in
                for match in EndpointExtractor.matches(in: run.text, filter: filter) {
                    let kind: HarvestedEndpoint.Kind =
                        match.kind == .https ? .https : match.kind == .http ? .http : .host
                    let source = HarvestedEndpoint.Source(
                        file: file, offset: isText ? nil : run.offset + match.offset, line: isText ? run.line : nil)
                    out.append(
                        HarvestedEndpoint(
                            kind: kind, host: match.host, port: match.port, example: match.text, sources: [source]))
                }
            }
        }
        return out
    }

    /// One endpoint per (kind, host, port), sources in order found; a bare host also written as a URL joins
    /// the URL (the HTTPS one when both exist).
    static func merge(_ endpoints: [HarvestedEndpoint]) -> [HarvestedEndpoint] {
        struct Key: Hashable {
            var kind: HarvestedEndpoint.Kind
            var host: String
            var port: Int?
        }
        var order: [Key] = []
        var byKey: [Key: HarvestedEndpoint] = [:]
        for endpoint in endpoints {
            let key = Key(kind: endpoint.kind, host: endpoint.host, port: endpoint.port)
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = endpoint
            } else {
                byKey[key]!.sources += endpoint.sources.filter { !byKey[key]!.sources.contains($0) }
            }
        }
        for key in order where key.kind == .host {
            let candidates = [HarvestedEndpoint.Kind.https, .http].map { Key(kind: $0, host: key.host, port: key.port) }
            guard let into = candidates.first(where: { byKey[$0] != nil }), let bare = byKey.removeValue(forKey: key)
            else { continue }
            byKey[into]!.sources += bare.sources
        }
        return byKey.values.sorted { a, b in
            (a.host, a.kind, a.port ?? 0) < (b.host, b.kind, b.port ?? 0)
        }
    }
}
