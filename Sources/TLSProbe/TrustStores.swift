import Synchronization
import TLSModel

/// The trust stores a prober has built, by set of CA files. Each is built once, on a probe thread
/// (it reads files): endpoints that ask while it is being built wait for that one build, holding no thread.
final class TrustStores: Sendable {
    private struct Key: Hashable {
        var caFiles: [String]
        var useSystemStore: Bool
        var systemBundle: String?
    }

    private let pool: ProbeThreadPool
    private let orchestrator: ProbeOrchestrator
    private let builds = Mutex<[Key: Task<Result<TrustStore, ProbeFailure>, Never>]>([:])

    init(pool: ProbeThreadPool, orchestrator: ProbeOrchestrator) {
        self.pool = pool
        self.orchestrator = orchestrator
    }

    /// The store for these CA files, built on first use; a CA file that cannot be read fails every
    /// endpoint that names it with the same reason.
    func store(caFiles: [String], useSystemStore: Bool, systemBundle: String? = nil) async
        -> Result<TrustStore, ProbeFailure>
    {
        let key = Key(caFiles: caFiles, useSystemStore: useSystemStore, systemBundle: systemBundle)
        let pool = self.pool
        let build = builds.withLock { builds in
            if let known = builds[key] { return known }
            let task = Task(executorPreference: orchestrator) {
                await pool.run { () -> Result<TrustStore, ProbeFailure> in
                    do {
                        return .success(
                            try TrustStore(
                                caFiles: caFiles, useSystemStore: useSystemStore, systemBundle: systemBundle))
                    } catch {
                        return .failure(error as? ProbeFailure ?? ProbeFailure(.local, "\(error)"))
                    }
                }
            }
            builds[key] = task
            return task
        }
        return await build.value
    }
}
