import Foundation
import Judging
import TLSModel

extension ScanPipeline {
    /// ``scan(_:lists:judge:progress:)`` for one shard, or streaming, or both.
    ///
    /// With `shard`, only the targets and list entries in it are scanned and reported, and the report carries a
    /// ``ReportShard`` (each endpoint's position in the whole list) for `atscheck merge`; the lists' own
    /// findings are in every shard's report (merge keeps one). With `onEndpoint`, each endpoint result is handed
    /// on as soon as its probe finishes (`http://` ones first), the same values the report then holds; with
    /// `streamOnly` too (nothing else will show the profiles), the report keeps the certificates without their
    /// DER, so a long batch does not hold every chain's bytes to the end.
    ///
    /// > Warning: Connects to every `https` target and entry of the shard.
    package func scan(
        _ targets: [Target], lists: [EndpointList], shard: Shard?, judge: PolicyJudge,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil,
        onEndpoint: (@Sendable (EndpointResult) -> Void)? = nil, streamOnly: Bool = false
    ) async -> ScanReport {
        let entries = lists.flatMap(\.entries)
        let targetSlots = targets.indices.filter { shard?.contains(targets[$0]) ?? true }
        let entrySlots = entries.indices.filter { shard?.contains(entries[$0]) ?? true }
        let slotMap = targetSlots + entrySlots.map { targets.count + $0 }
        let (report, slots) = await scanSlots(
            targetSlots.map { targets[$0] }, lists: lists, entries: entrySlots.map { entries[$0] }, judge: judge,
            progress: progress, onEndpoint: onEndpoint, streamOnly: streamOnly)
        guard let shard else { return report }
        var sharded = report
        sharded.shard = ReportShard(
            index: shard.index, count: shard.count, total: targets.count + entries.count, selected: slotMap.count,
            positions: slots.map { slotMap[$0] })
        return sharded
    }
}
