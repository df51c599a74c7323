import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import Reporting
import Synchronization
import TLSModel

/// Options every scanning command shares.
struct ScanOptions: ParsableArguments {
    @Option(name: .long, help: "Per-connection timeout in seconds.")
    var timeout: Double = 5

    @Option(
        name: .long,
        help:
            "Overall deadline per endpoint in seconds, from its first connection (default: 12 × timeout, at least 30).")
    var deadline: Double?

    @OptionGroup var certificates: CertificateOptions

    var caFiles: [String] { certificates.caFiles }
    var warnDays: Int { certificates.warnDays }

    /// The default `--concurrency`: a batch is I/O bound (round trips, not CPU), so many endpoints wait at once.
    /// Measured with `Examples/scale.sh sweep` (300 endpoints behind a 50 ms RTT, 2 cores): 8 → 21.8 s,
    /// 32 → 6.1 s, 64 → 4.4 s, 128 → 4.3 s; 64 takes nearly all of the gain at a third less memory than 128 and
    /// the threads it needed then. Since issue 34 a scan's threads do not grow with it (event loops), so more is only
    /// open connections: up to 4096, within the descriptors the process may open (``DescriptorLimit``). The per-host
    /// cap still keeps each server's share small.
    static let defaultConcurrency = 64

    @Option(name: .long, help: "Endpoints scanned at once (each also capped by --per-host per address).")
    var concurrency: Int = Self.defaultConcurrency

    /// The default `--per-host`: connections, counting those opened ahead of a step (``TLSProber``'s
    /// preconnect). Measured behind a 50 ms RTT on the many-suite server (Examples/bench-servers.json, 2 cores):
    /// 8 → 1.00 s, 12 → 0.83–0.90 s, 16 → 0.74–0.86 s: with 8, the permits are all busy with handshakes
    /// and no connection can be opened ahead.
    @Option(
        name: .customLong("per-host"),
        help:
            "Connections open at once to one host (address and port): handshakes, and connections opened ahead of one (see --no-preconnect)."
    )
    var perHost: Int = 16

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Wait at least MS milliseconds between two connections to one address (IP and port), retries included; 0: no pause.",
            valueName: "ms"))
    var delay: Int = 0

    @Flag(
        name: .customLong("no-preconnect"),
        help: ArgumentHelp(
            "Open each connection only when its handshake starts. By default a full enumeration opens the next step's connection while a step is in flight (one round trip a step instead of two), once the lead handshake took 20 ms or more; the few opened for steps that never come are closed without a byte and counted as unusedConnections. They are opened only once an answer has shown the server serving two connections at once, so a server that serves one at a time (openssl s_server) never waits on one; if a step stalls anyway, the report says what the server was seen to serve (serverConnections). Off anyway with --delay."
        ))
    var noPreconnect = false

    @Flag(
        name: .customLong("no-simulation"),
        help: ArgumentHelp(
            "Do not simulate Apple's clients (each era's own ClientHello) nor check the two-segment ClientHello of iOS 26.",
            discussion:
                "A full scan then makes 8 connections fewer per endpoint, for fleet scans that need only the enumeration and the ATS verdict from it; the per-era outcomes, quantum-secure readiness and ClientHello size tolerance are then absent (unknown), and --require-pq and diagnose --tls-diagnostics cannot be given."
        ))
    var noSimulation = false

    @Option(
        name: .long,
        help:
            "HOST:PORT:ADDRESS — connect to ADDRESS for HOST:PORT, keep HOST for SNI and certificate checks. Repeatable."
    )
    var resolve: [String] = []

    @Flag(name: .customLong("all-addresses"), help: "Scan every A/AAAA address of each name separately.")
    var allAddresses = false

    @Option(name: .long, help: "Send this SNI instead of the target host.")
    var sni: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Tunnel every connection through the HTTP proxy at URL with CONNECT: http://[user:password@]host:port (credentials percent-encoded, sent as Basic; https:// and SOCKS proxies are not supported). The proxy resolves the names; --resolve sends it the address. Default: $https_proxy or $HTTPS_PROXY, except for $no_proxy / $NO_PROXY hosts and loopback targets. See docs/usage.md, Proxy.",
            valueName: "url"))
    var proxy: String?

    @Flag(
        name: .customLong("no-proxy"),
        help: "Connect directly: ignore https_proxy, HTTPS_PROXY, no_proxy and NO_PROXY (not with --proxy).")
    var noProxy = false

    @Flag(
        name: .customLong("ats-only"),
        help:
            "Probe only what the ATS verdict reads: at most 6 handshakes per endpoint, suite lists not enumerated (the default for audit)."
    )
    var atsOnly = false

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 300 else {
            throw ValidationError("--timeout must be between 0 and 300 seconds")
        }
        if let deadline, !(timeout...3600).contains(deadline) {
            throw ValidationError("--deadline must be between --timeout and 3600 seconds")
        }
        guard concurrency >= 1, concurrency <= 4096 else { throw ValidationError("--concurrency must be 1…4096") }
        guard perHost >= 1, perHost <= 32 else { throw ValidationError("--per-host must be 1…32") }
        if let problem = ScanSettings.descriptorProblem(concurrency: concurrency, perHost: perHost) {
            throw ValidationError(problem)
        }
        guard (0...60_000).contains(delay) else { throw ValidationError("--delay must be 0…60000 milliseconds") }
        for rule in resolve {
            do { _ = try ResolveRule(parsing: rule) } catch let error as TargetError {
                throw ValidationError(error.reason)
            }
        }
        // --proxy and --no-proxy here; the environment's proxy when the run connects (``settings(connects:)``).
        _ = try proxySettings(environment: [:])
    }

    /// The run's proxy from `--proxy`, `--no-proxy` and `environment`.
    /// - Throws: `ExitCode` 64 after one line on stderr (``ProxySettingsError``: never holds the credentials).
    func proxySettings(environment: [String: String]) throws -> ProxySettings? {
        do {
            return try ProxySettings.resolve(option: proxy, ignoreEnvironment: noProxy, environment: environment)
        } catch let error as ProxySettingsError {
            Terminal.fail(error.message)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }

    /// The scan settings; reads every `--ca-file` first, so a missing or malformed one is an input error (exit 65).
    /// - Parameters:
    ///   - connects: whether the run connects: only then is the environment's proxy read (a malformed `HTTPS_PROXY`
    ///     is a usage error for a scan, not for judging saved profiles).
    ///   - environment: the process environment (tests inject their own).
    func settings(
        connects: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ScanSettings {
        var settings = ScanSettings()
        if connects { settings.proxy = try proxySettings(environment: environment) }
        try certificates.apply(to: &settings)
        settings.timeout = timeout
        settings.endpointDeadline = deadline
        settings.concurrency = concurrency
        settings.perHost = perHost
        settings.connectionDelay = Double(delay) / 1000
        settings.preconnect = !noPreconnect
        settings.simulatesClients = !noSimulation
        settings.resolve = try resolve.map { try ResolveRule(parsing: $0) }
        settings.allAddresses = allAddresses
        settings.sni = sni
        settings.scope = atsOnly ? .atsOnly : .full
        return settings
    }

    /// Exit 64 naming every `--resolve` rule that matches none of the targets: it would otherwise be ignored
    /// without a word, and the run would connect somewhere the user did not mean.
    /// - Throws: `ExitCode` 64 after one line on stderr.
    /// - Parameter settings: the run's settings (``settings()``, made once: it reads the CA files).
    func requireResolveRulesUsed(_ settings: ScanSettings, targets: [Target], entries: [EndpointEntry] = []) throws {
        let unused = settings.unusedResolveRules(targets: targets, entries: entries)
        if !unused.isEmpty { throw Terminal.usage(UnusedResolveRules(unused)) }
    }
}

/// How certificates are judged: whose roots, which CT logs, at what time, how soon an expiry warns. Shared by every
/// command that judges a chain, live (`scan`, `audit`, `pins check`, …) or from a file (`cert`).
struct CertificateOptions: ParsableArguments {
    @Option(
        name: .customLong("ca-file"),
        help: "PEM file of extra trust anchors (counted as user/MDM-installed roots). Repeatable.")
    var caFiles: [String] = []

    @Option(
        name: .customLong("trust-store"),
        help: ArgumentHelp(
            "Roots that stand in for the device's preinstalled ones: apple (Apple's published store of each iOS release, bundled; the default), host (this machine's OpenSSL store, not Apple's), none (no system roots: only --ca-file anchors), or a PEM file (counted as Apple system roots: CT and the 398-day cap apply). See `atscheck roots`.",
            valueName: "apple|host|none|path"))
    var trustStore: String = "apple"

    @Option(
        name: .customLong("ct-log-list"),
        help: ArgumentHelp(
            "A Certificate Transparency log list in Apple's JSON format (log_list.json) to check SCTs against, instead of the bundled copy of Apple's.",
            valueName: "path"))
    var ctLogList: String?

    @Option(
        name: .customLong("apple-data"),
        help: ArgumentHelp(
            "Judge with the Apple data `atscheck data update` stored in DIR (its CT log list) instead of the data folder ($XDG_DATA_HOME/atscheck, else ~/.local/share/atscheck), which is used when present; none: the data bundled in the binary. --ct-log-list wins over both.",
            valueName: "dir|none"))
    var appleData: String?

    @Flag(
        name: .customLong("no-fetch"),
        help:
            "Do not fetch an issuer the server does not send from its certificate's AIA caIssuers URL (iOS fetches it): such a chain is then judged ambiguous, not trusted."
    )
    var noFetch = false

    @Option(
        name: .customLong("warn-days"),
        help: ArgumentHelp(
            "Warn (rule trust.expiry.soon) about any certificate on the path that expires within N days; 0: never.",
            valueName: "n"))
    var warnDays: Int = ExpiryWarnings.defaultDays

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Judge certificates as of DATE (ISO 8601: 2027-01-15 or 2027-01-15T09:30:00Z) instead of now: expiry, lifetime caps, Apple's distrust dates and CT log states at that time.",
            valueName: "date"))
    var at: String?

    func validate() throws {
        guard (0...3650).contains(warnDays) else { throw ValidationError("--warn-days must be 0…3650") }
        if appleData?.isEmpty == true { throw ValidationError("--apple-data takes a folder, or none") }
        if let at, JudgingTime.parse(at) == nil {
            throw ValidationError("--at '\(at)' is not an ISO 8601 date (2027-01-15 or 2027-01-15T09:30:00Z)")
        }
    }

    /// The time to judge at: `--at`, else nil (now, or when a saved chain was verified).
    var judgingTime: Date? { at.flatMap(JudgingTime.parse) }

    /// Sets the trust inputs on `settings`; reads every `--ca-file` and the log list first, so a missing or malformed
    /// one is an input error (exit 65).
    func apply(to settings: inout ScanSettings) throws {
        try PEMFile.validate(caFiles)
        settings.caFiles = caFiles
        settings.trustSource = try TrustInputs.trustSource(trustStore)
        let logs = try TrustInputs.logList(path: ctLogList, appleData: appleData)
        settings.ctLogList = logs.list
        settings.trustData = TrustDataInfo(ctLogList: logs.info, roots: TrustInputs.rootsInfo(settings.trustSource))
        RunTrustData.record(settings.trustData)
        settings.fetchIssuers = !noFetch
        settings.expiryWarningDays = warnDays
        settings.now = judgingTime
    }
}

/// The trust data this run judges with, as ``CertificateOptions/apply(to:)`` resolved it: every report of the run
/// names it (``OutputOptions/emit(_:streamed:)`` fills a scan report's `trustData`). One value per process: a run
/// resolves its trust inputs once.
enum RunTrustData {
    private static let value = Mutex<TrustDataInfo?>(nil)

    static func record(_ info: TrustDataInfo?) { value.withLock { $0 = info } }

    static var current: TrustDataInfo? { value.withLock { $0 } }
}

enum Terminal {
    /// Exit 64 naming every `--resolve` rule that matches no target, after one line on stderr.
    static func usage(_ error: UnusedResolveRules) -> ExitCode {
        let names = error.rules.map { "\($0.host):\($0.port)" }
        fail("--resolve \(list(names)) matches no target (a rule applies to the target with the same host and port)")
        return ExitCode(ExitStatus.usage.rawValue)
    }

    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether the terminal understands escape sequences: `TERM` is not `dumb`.
    static var termIsCapable: Bool { ProcessInfo.processInfo.environment["TERM"] != "dumb" }

    /// Colour on standard output: only on a terminal, never with `NO_COLOR` set, never with `TERM=dumb`.
    static var colorOnStdout: Bool {
        stdoutIsTTY && termIsCapable && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// The display columns text is fitted to (docs/usage.md, "Terminal output"): `COLUMNS` when it is a positive
    /// number, else the size of the terminal on `fd`, else 80 (a pipe, a file). Never under 20.
    /// - Parameters:
    ///   - fd: the descriptor whose terminal is measured; nil: none (text for a file).
    ///   - environment: the process environment (read for `COLUMNS`).
    static func width(
        of fd: Int32? = STDOUT_FILENO, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int {
        let minimum = 20
        if let text = environment["COLUMNS"]?.trimmingCharacters(in: .whitespaces), let columns = Int(text),
            columns > 0
        {
            return max(columns, minimum)
        }
        var size = winsize()
        if let fd, isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return max(Int(size.ws_col), minimum)
        }
        return TextLayout.defaultWidth
    }

    /// Progress lines rewrite themselves with escape sequences: only when stderr is a capable terminal.
    static var showsProgress: Bool { stderrIsTTY && termIsCapable }

    /// One line on stderr; control characters (from file names, keys, hosts) are escaped (``ControlEscaping``).
    static func fail(_ message: String) {
        let line = message.hasPrefix("atscheck:") ? message : "atscheck: \(message)"
        FileHandle.standardError.write(Data(ControlEscaping.escape(line).utf8 + [10]))
    }

    /// The closing line of a run on stderr (why it fails): one line in a pipe or a log, for grep; on a terminal,
    /// wrapped at spaces to its width under the text after `atscheck: `.
    static func close(_ message: String) {
        let line = ControlEscaping.escape(message.hasPrefix("atscheck:") ? message : "atscheck: \(message)")
        let text = stderrIsTTY ? TextLayout.wrap(line, width: width(of: STDERR_FILENO), hang: 10) : line
        FileHandle.standardError.write(Data(text.utf8 + [10]))
    }

    /// `a, b, c, d, e and 3 more`: at most `limit` items, then how many were left out.
    static func list(_ items: [String], limit: Int = 5) -> String {
        ExitStatus.list(items, limit: limit)
    }

    /// A progress line that rewrites itself, only when stderr is a capable terminal.
    static func progress(_ message: String) {
        guard showsProgress else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(ControlEscaping.escape(message))".utf8))
    }

    static func endProgress() {
        guard showsProgress else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

extension Terminal {
    /// Runs synchronous facade work; an ``InputFileError`` becomes one line on stderr and exit 65.
    static func exitingOnInputErrors<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as InputFileError {
            fail(error.description)
            throw ExitCode(ExitStatus.badInput.rawValue)
        }
    }

    /// Runs facade work; its typed file errors become one line on stderr and their exit status
    /// (``InputFileError`` 65, ``OutputFileError`` 73).
    static func exitingOnFileErrors<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as UnusedResolveRules {
            endProgress()
            throw usage(error)
        } catch let error as InputFileError {
            endProgress()
            fail(error.description)
            throw ExitCode(ExitStatus.badInput.rawValue)
        } catch let error as OutputFileError {
            endProgress()
            fail(error.description)
            throw ExitCode(ExitStatus.cannotWrite.rawValue)
        }
    }
}
