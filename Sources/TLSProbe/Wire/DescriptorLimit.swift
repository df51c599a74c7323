import Glibc

/// The file descriptors a scan may hold open at once (issue 34). A batch at `--concurrency 1000` with the default
/// per-host cap may hold 16,000 connections; a `socket()` refused for want of descriptors would otherwise read as an
/// unreachable endpoint. The soft limit is raised to the hard one once, and a scan that could need more is refused
/// before it starts.
package enum DescriptorLimit {
    /// Descriptors kept for what is not a probe connection: CA files, fetches, the report, the runtime.
    package static let reserve = 256

    /// Raises the soft `RLIMIT_NOFILE` to the hard limit and returns the soft limit in force after.
    @discardableResult
    package static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Nil when `concurrency` endpoints with `perHost` connections each fit in the descriptors this process may open
    /// (after ``raise()``); else the reason the scan cannot run as asked.
    package static func problem(concurrency: Int, perHost: Int) -> String? {
        let available = raise() - reserve
        let needed = concurrency * perHost
        guard needed > available else { return nil }
        return
            "--concurrency \(concurrency) × --per-host \(perHost) may need \(needed) open connections; this process "
            + "may open \(max(0, available)) (ulimit -n, less \(reserve) kept for files): lower one of them or raise "
            + "the limit"
    }
}
