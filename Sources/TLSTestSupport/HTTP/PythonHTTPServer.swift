import Foundation

/// Python's `http.server` serving a folder on 127.0.0.1 port 0: an HTTP server atscheck did not write, for the
/// fetches that must work against an independent implementation (caIssuers URLs). It logs each request; the log
/// counts them.
///
/// > Warning: Starts a python3 process until ``stop()`` or deinit.
package final class PythonHTTPServer: @unchecked Sendable {  // the log is behind `Locked`
    /// The folder served.
    package let folder: URL
    /// The port Python bound.
    package let port: Int
    private let process: ChildProcess
    private let log = Locked("")

    /// Starts `python3 -m http.server` on `folder` and waits (at most 10 s) for it to say its port.
    /// - Throws: ``TestSupportError`` when python3 cannot start or never says its port.
    package init(serving folder: URL) throws {
        self.folder = folder
        do {
            process = try ChildProcess(
                "python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path],
                standardOutput: .pipe, standardError: .pipe)
        } catch {
            throw TestSupportError(.process, "cannot start python3 -m http.server: \(error)")
        }
        let log = self.log
        let announced = Locked<Int?>(nil)
        process.standardOutput?.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
            if let range = text.range(of: "port "), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) {
                announced.withLock { $0 = port }
            }
        }
        process.standardError?.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            log.withLock { $0 += text }
        }
        var port: Int?
        for _ in 0..<200 {
            port = announced.withLock { $0 }
            if port != nil || !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let port else {
            process.stop()
            process.standardOutput?.readabilityHandler = nil
            process.standardError?.readabilityHandler = nil
            throw TestSupportError(.process, "python3 -m http.server did not start: \(log.withLock { $0 })")
        }
        self.port = port
    }

    deinit { stop() }

    /// Stops the process and reaps it (idempotent).
    package func stop() {
        process.stop()
        process.standardOutput?.readabilityHandler = nil
        process.standardError?.readabilityHandler = nil
    }

    /// `http://127.0.0.1:PORT` + `path`.
    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Requests Python logged for `path` so far (`"GET /path HTTP/1.1" 200 -`).
    package func requests(for path: String) -> Int {
        log.withLock { $0 }.components(separatedBy: "\n").filter { $0.contains("\"GET \(path) HTTP/1.1\"") }.count
    }
}
