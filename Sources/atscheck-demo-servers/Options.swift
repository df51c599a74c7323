import Foundation

/// Command-line options of `atscheck-demo-servers`.
struct Options {
    var config = "Examples/demo-servers.json"
    var writeTargets: String?
    var writeCA: String?
    var address = "127.0.0.1"
    /// Loopback addresses to bind (`--addresses`): each server runs on each of them.
    var addresses: [String] { extraAddresses ?? [address] }
    var extraAddresses: [String]?
    /// How many copies of each server to run on each address, each on a port of its own (`--copies`).
    var copies = 1
    /// Emulated round-trip time in milliseconds (0: none): a delaying relay in front of each server.
    var latency = 0
    /// Keep running when stdin ends (for scripts that start the servers in the background).
    var ignoreStdin = false
    /// Servers started by someone else (`--front NAME=ADDR:PORT`): a relay in front of each counts its
    /// connections and, with `--latency`, delays them, so `make bench` measures servers this project did not write.
    var fronts: [(name: String, host: String, port: Int)] = []

    static let usage = """
        usage: atscheck-demo-servers [--config FILE] [--write-targets FILE] [--write-ca FILE]
                                     [--address 127.0.0.1|::1] [--addresses A,B,...] [--copies N]
                                     [--latency MS] [--front NAME=ADDR:PORT]... [--no-stdin]

        Starts the example TLS servers of FILE (default Examples/demo-servers.json) on loopback
        ports chosen by the kernel, with certificates from a PKI minted for this run. Prints one
        `NAME  ADDRESS:PORT` line per server, then `ready`; runs until SIGINT/SIGTERM or until
        stdin ends (stdin from /dev/null, as for a background job, is not watched). On SIGUSR1 it
        prints one `stats NAME CONNECTIONS` line per server: the TCP connections accepted so far.

          --config FILE         the server catalogue (JSON)
          --write-targets FILE  write an atscheck endpoint list: `https://localhost:PORT  # NAME`
          --write-ca FILE       write this run's root CA (PEM), for atscheck --ca-file
          --address ADDR        loopback address to bind: 127.0.0.1 (default) or ::1
          --addresses A,B,...   run every server on each of these loopback addresses (127.0.0.0/8 or
                                ::1; Linux routes all of 127.0.0.0/8 to lo): batch-scale runs
          --copies N            run N copies of every server on each address, each on a port of its
                                own (names get -2, -3, …); copies on one address share a certificate
          --latency MS          emulate a network with MS milliseconds of round-trip time: each server
                                gets a relay in front that delays the accept by MS and every chunk by
                                MS/2 each way; the relay's address is the one listed and written
          --front NAME=ADDR:PORT
                                also list a relay in front of a TLS server started by someone else on
                                loopback (openssl s_server, nginx): it counts that server's connections
                                for SIGUSR1 and adds --latency like the others; repeatable
          --no-stdin            do not stop when stdin ends
        """

    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` for unknown options or missing values.
    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ option: String) throws -> String {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                throw UsageError("\(option) needs a value")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--config": config = try value(argument)
            case "--write-targets": writeTargets = try value(argument)
            case "--write-ca": writeCA = try value(argument)
            case "--address": address = try value(argument)
            case "--latency":
                let text = try value(argument)
                guard let ms = Int(text), (0...10_000).contains(ms) else {
                    throw UsageError("--latency takes milliseconds, 0…10000, not '\(text)'")
                }
                latency = ms
            case "--addresses":
                extraAddresses = try value(argument).split(separator: ",").map { String($0) }
            case "--copies":
                let text = try value(argument)
                guard let n = Int(text), (1...1000).contains(n) else {
                    throw UsageError("--copies takes a number of copies, 1…1000, not '\(text)'")
                }
                copies = n
            case "--front":
                let text = try value(argument)
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let colon = parts[1].lastIndex(of: ":"),
                    let port = Int(parts[1][parts[1].index(after: colon)...]), (1...65535).contains(port),
                    Self.isLoopback(String(parts[1][..<colon]))
                else { throw UsageError("--front takes NAME=ADDR:PORT with a loopback IPv4 address, not '\(text)'") }
                fronts.append((parts[0], String(parts[1][..<colon]), port))
            case "--no-stdin": ignoreStdin = true
            case "-h", "--help": throw UsageError(nil)
            default: throw UsageError("unknown option '\(argument)'")
            }
        }
        guard address == "127.0.0.1" || address == "::1" else {
            throw UsageError("--address must be a loopback address (127.0.0.1 or ::1), not '\(address)'")
        }
        for candidate in extraAddresses ?? [] where !Self.isLoopback(candidate) {
            throw UsageError("--addresses takes loopback addresses (127.0.0.0/8 or ::1), not '\(candidate)'")
        }
        if extraAddresses?.isEmpty == true { throw UsageError("--addresses needs at least one address") }
    }
}

extension Options {
    /// Whether `text` is `::1` or a dotted IPv4 address in 127.0.0.0/8.
    static func isLoopback(_ text: String) -> Bool {
        if text == "::1" { return true }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in Int(part).map { (0...255).contains($0) && String($0) == part } ?? false }
    }
}

/// A usage error: `message` nil means help was asked for.
struct UsageError: Error {
    var message: String?
    init(_ message: String?) { self.message = message }
}
