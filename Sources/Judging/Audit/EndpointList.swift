import Foundation
import TLSModel

/// The endpoints an app talks to, as listed for `atscheck audit --endpoints FILE`.
///
/// Two shapes are read:
/// - **text**: one URL or `host[:port]` per line; `#` starts a comment (whole-line or trailing); blank lines
///   are skipped;
/// - **YAML** (`.yml`, `.yaml`) or **JSON** (`.json`): an `endpoints:` list whose items are strings or
///   mappings `{url, resolve, sni, caFile, expect, name}` and a pin check (`pins`, `library`, `mode`, …, see
///   ``EndpointPinCheck``); a bare top-level list is accepted too.
///
/// Every entry keeps the line it came from. A line that is not a target becomes an `endpoints.invalid`
/// finding and the other entries are still returned; only an unreadable or structurally malformed file
/// throws (``InputFileError``, exit 65).
public struct EndpointList: Sendable, Equatable {
    /// The file the list was read from (as given).
    public var file: String
    public var entries: [EndpointEntry]
    /// Problems with single lines (`endpoints.invalid`, `endpoints.unknown-key`), each with file and line.
    public var findings: [Finding]

    public init(file: String, entries: [EndpointEntry], findings: [Finding] = []) {
        self.file = file
        self.entries = entries
        self.findings = findings
    }
}

/// One endpoint of an ``EndpointList``.
public struct EndpointEntry: Sendable, Equatable {
    /// What the list expects ATS to decide for the endpoint (`expect:` in YAML/JSON).
    public enum Expectation: String, Sendable, Codable, Equatable {
        case pass, fail
    }

    /// The URL or `host[:port]` as parsed; `scheme == "http"` for `http://` entries.
    public var target: Target
    /// Connect to this IP address instead of resolving the name (like `--resolve`).
    public var resolve: String?
    /// The SNI to send instead of the host.
    public var sni: String?
    /// An extra trust anchor (PEM) for this endpoint, e.g. a staging CA.
    public var caFile: String?
    public var expect: Expectation?
    /// A human label.
    public var name: String?
    /// The pin check the entry asks for (`pins:`, `library:`, …), nil when none.
    public var pinCheck: EndpointPinCheck?
    /// Where the entry is written.
    public var source: SourceLocation

    public init(
        target: Target, resolve: String? = nil, sni: String? = nil, caFile: String? = nil, expect: Expectation? = nil,
        name: String? = nil, pinCheck: EndpointPinCheck? = nil, source: SourceLocation
    ) {
        self.pinCheck = pinCheck
        self.target = target
        self.resolve = resolve
        self.sni = sni
        self.caFile = caFile
        self.expect = expect
        self.name = name
        self.source = source
    }

    /// A cleartext `http://` entry: ATS judges it from the plist alone, nothing is scanned.
    public var isHTTP: Bool { target.scheme == "http" }
}
