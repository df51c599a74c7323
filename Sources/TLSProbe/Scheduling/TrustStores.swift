import CertificateTrust
import Synchronization
import TLSModel

/// The trust stores a prober has built, by trust source and set of CA files. Each is built once, on a probe thread
/// (it reads files): endpoints that ask while it is being built wait for that one build, holding no thread.
final class TrustStores: Sendable {
    private struct Key: Hashable {
        var caFiles: [String]
        var source: TrustStoreSource
        var useSystemStore: Bool
    }

    private let pool: ProbeThreadPool
    private let executor: any TaskExecutor
    private let builds = Mutex<[Key: Task<Result<TrustStoreSet, ProbeFailure>, Never>]>([:])

    init(pool: ProbeThreadPool, executor: any TaskExecutor) {
        self.pool = pool
        self.executor = executor
    }

    /// The store for these CA files, built on first use; a CA file that cannot be read fails every
    /// endpoint that names it with the same reason.
    func store(caFiles: [String], source: TrustStoreSource, useSystemStore: Bool) async -> Result<
        TrustStoreSet, ProbeFailure
    > {
        let key = Key(caFiles: caFiles, source: source, useSystemStore: useSystemStore)
        let pool = self.pool
        let build = builds.withLock { builds in
            if let known = builds[key] { return known }
            let task = Task(executorPreference: executor) {
                await pool.run { () -> Result<TrustStoreSet, ProbeFailure> in
                    do {
                        return .success(
                            try TrustStoreSet(source: source, caFiles: caFiles, useSystemStore: useSystemStore))
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
