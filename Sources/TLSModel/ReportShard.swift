/// What a `--shard I/N` run scanned, so that `atscheck merge` can rebuild the single run's report.
///
/// Present in the JSON only for a sharded run (`"shard"` beside `endpoints`); a whole run has none.
public struct ReportShard: Codable, Sendable, Equatable {
    /// This shard, 1…``count``.
    public var index: Int
    public var count: Int
    /// Endpoints (targets and list entries) in the whole list.
    public var total: Int
    /// Of those, the ones in this shard.
    public var selected: Int
    /// For each endpoint of the report, in order: its position (0-based) in the whole list — targets first,
    /// then list entries, as a single run orders them.
    public var positions: [Int]

    public init(index: Int, count: Int, total: Int, selected: Int, positions: [Int]) {
        self.index = index
        self.count = count
        self.total = total
        self.selected = selected
        self.positions = positions
    }
}
