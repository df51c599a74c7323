// atscheck-demo-servers: the example TLS servers of Examples/demo-servers.json on loopback.
import Foundation
import TLSTestSupport

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("atscheck-demo-servers: \(message)\n".utf8))
    exit(status)
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    guard let message = error.message else {
        print(Options.usage)
        exit(0)
    }
    fail("\(message)\n\(Options.usage)", status: 64)
}

let catalog: DemoCatalog
do { catalog = try DemoCatalog.load(from: URL(fileURLWithPath: options.config)) } catch {
    fail("\(error) (pass another file with --config)", status: 65)
}

// Turn off the default (terminating) action of the stop signals; dispatch sources below observe them.
let stopSignals = [SIGINT, SIGTERM]
for number in stopSignals { signal(number, SIG_IGN) }

/// A demo server and, with `--latency`, the delaying relay in front of it (the address clients use); or, with
/// `--front`, only a relay in front of a server started by someone else.
struct Running: Sendable {
    var name: String
    var server: TestTLSServer?
    var relay: FaultRelay?
    var target: String { relay?.target ?? server?.target ?? "" }
    var port: Int { relay?.port ?? server?.port ?? 0 }
    /// TCP connections clients made (counted where they arrive: the relay when there is one).
    var connections: Int { relay?.acceptedConnections ?? server?.acceptedConnections ?? 0 }
}

let servers: [Running]
let pki: TestPKI
do {
    pki = try TestPKI.make(name: "atscheck demo")
    var started: [Running] = []
    for address in options.addresses {
        for spec in catalog.servers {
            // One certificate per server and address: copies differ only in their port.
            let configuration = try spec.configuration(pki: pki, address: address)
            for copy in 1...options.copies {
                let server = try TestTLSServer(configuration)
                let relay =
                    options.latency > 0
                    ? try FaultRelay.delaying(server, roundTrip: Double(options.latency) / 1000) : nil
                var name = copy == 1 ? spec.name : "\(spec.name)-\(copy)"
                if options.extraAddresses != nil { name += "@\(address)" }
                started.append(Running(name: name, server: server, relay: relay))
            }
        }
    }
    for front in options.fronts {
        let relay = try FaultRelay(
            upstreamHost: front.host, upstreamPort: front.port, fault: .none, latency: Double(options.latency) / 2000,
            address: front.host, acceptDelay: Double(options.latency) / 1000)
        started.append(Running(name: front.name, server: nil, relay: relay))
    }
    servers = started
} catch {
    fail("cannot start the servers: \(error)", status: 1)
}

do {
    if let path = options.writeCA {
        try pki.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
    }
    if let path = options.writeTargets {
        let lines = servers.map { entry in
            // 127.0.0.1 and ::1 as `localhost`/`[::1]` (as before); other loopback addresses as IP literals,
            // which their certificates carry as IP SANs.
            let bound = entry.relay?.host ?? entry.server?.host ?? "127.0.0.1"
            let host = bound == "::1" ? "[::1]" : bound == "127.0.0.1" ? "localhost" : bound
            let url = "https://\(host):\(entry.port)"
            return url.padding(toLength: max(url.count, 28), withPad: " ", startingAt: 0) + "  # \(entry.name)"
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
} catch {
    fail("cannot write an output file: \(error.localizedDescription)", status: 73)
}

let nameWidth = servers.map(\.name.count).max() ?? 0
for entry in servers {
    print(entry.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  " + entry.target)
}
print("ready")
fflush(nil)  // stdout is block-buffered in a pipe: `ready` must reach the reader now

// SIGUSR1: the connections each server has accepted so far (`make bench` counts each tool's connections).
signal(SIGUSR1, SIG_IGN)
let statsQueue = DispatchQueue(label: "stats")
let statsSignal = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: statsQueue)
statsSignal.setEventHandler {
    for entry in servers { print("stats \(entry.name) \(entry.connections)") }
    print("stats-end")
    fflush(nil)
}
statsSignal.resume()

let done = DispatchSemaphore(value: 0)
let sources = stopSignals.map { number in
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler { done.signal() }
    source.resume()
    return source
}

/// Whether stdin can end in a way that means "stop": a pipe, a file or a terminal, but not
/// /dev/null (what a background job in a script gets), which ends at once.
func stdinIsWatchable() -> Bool {
    var info = stat()
    guard fstat(STDIN_FILENO, &info) == 0 else { return false }
    let isCharacterDevice = (info.st_mode & S_IFMT) == S_IFCHR
    return !isCharacterDevice || isatty(STDIN_FILENO) == 1
}

if !options.ignoreStdin && stdinIsWatchable() {
    let reader = Thread {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(STDIN_FILENO, &buffer, buffer.count) > 0 {}
        done.signal()
    }
    reader.start()
}

done.wait()
for entry in servers {
    entry.relay?.stop()
    entry.server?.stop()
}
_ = sources
exit(0)
