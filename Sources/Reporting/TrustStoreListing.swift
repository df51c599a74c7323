import Foundation
import TLSModel

/// `atscheck roots`: the bundled Apple trust stores with their provenance, or one release's store in full.
package enum TrustStoreListing {
    /// The summary of every store, or (with `release`) that release's store: its roots and what changed from the
    /// store before it; fitted to `width` (``TextLayout``).
    /// - Parameters:
    ///   - data: the bundled trust data.
    ///   - release: the iOS release whose store is listed in full; nil: every store's summary.
    ///   - width: the display columns lines are fitted to (`Int.max`: as long as they are).
    /// - Returns: text ending in a newline.
    package static func text(
        _ data: AppleTrustData, release: [Int]?, width: Int = TextLayout.defaultWidth, updated: TrustDataSource? = nil
    ) -> String {
        TextLayout.fit(unfitted(data, release: release, width: width) + updatedLine(updated), width: width)
    }

    /// The line on the data `atscheck data update` stored (nil: none, the bundled list is used).
    static func updatedLine(_ updated: TrustDataSource?) -> String {
        guard let updated else {
            return "\nUpdated data: none (`atscheck data update` downloads Apple's current CT log list).\n"
        }
        var line = "\nUpdated data (judged with instead of the bundled CT log list): \(updated.summary)"
        if let location = updated.location { line += " from \(location)" }
        if let fetched = updated.fetchedAt { line += ", downloaded \(CalendarDay.string(from: fetched))" }
        return line + "\n"
    }

    /// The listing with its tables laid out for `width`; ``text(_:release:width:)`` wraps the other lines.
    static func unfitted(_ data: AppleTrustData, release: [Int]?, width: Int) -> String {
        var out = "Apple trust data bundled with atscheck, from \(data.provenance.repository)\n"
        out += "generated \(data.provenance.generated) by scripts/apple-trust/generate.py\n\n"
        guard let release, let snapshot = data.snapshot(forIOS: release) else {
            let rows = data.snapshots.reversed().map { snapshot in
                [
                    "iOS \(snapshot.iOS)", "macOS \(snapshot.macOS)", "store \(snapshot.version)",
                    "\(String(snapshot.roots.count).leftPad(3)) roots",
                    "\(snapshot.tag) (\(snapshot.date))" + (snapshot.overTheAir ? "  + over-the-air updates" : ""),
                ]
            }
            // The tag and date stay on one line: when their column is narrower than the longest, rows are stacked.
            let tags = data.snapshots.map { TextLayout.columns("\($0.tag) (\($0.date))") }.max() ?? 0
            for row in TextLayout.table(rows, indent: 0, width: width, minimumLast: tags) { out += row + "\n" }
            out += "\n\(data.removedRoots.count) removed roots (certificates/removed/); "
            out += "\(data.restrictions.groups.count) CA restrictions from \(data.restrictions.source)\n"
            for entry in data.announcedDistrust {
                out += "Distrusted for certificates issued after \(CalendarDay.string(from: entry.effective)): "
                out += "\(entry.ca), \(entry.roots.count) roots (\(entry.source))\n"
            }
            if let logs = data.logList {
                let approved = logs.logs.filter { [.usable, .qualified].contains($0.state) }.count
                out += "CT: \(logs.source): \(logs.logs.count) logs, \(approved) usable or qualified, "
                out += "\(Set(logs.logs.map(\.operator)).count) operators\n"
            }
            out += "\nHow releases were matched to stores: \(data.provenance.mapping)\n"
            for note in data.provenance.notes { out += "- \(note)\n" }
            out += "\n`atscheck roots --os-version N` lists one release's roots.\n"
            return out
        }
        out += "\(snapshot.label): \(snapshot.roots.count) roots\n"
        out += "macOS \(snapshot.macOS); \(snapshot.mapping)\n"
        if snapshot.overTheAir { out += "Devices on this release also receive trust-store updates over the air.\n" }
        if let index = data.snapshots.firstIndex(of: snapshot), index > 0 {
            let before = data.snapshots[index - 1]
            let added = Set(snapshot.roots).subtracting(before.roots)
            let dropped = Set(before.roots).subtracting(snapshot.roots)
            out += "Since iOS \(before.iOS) (store \(before.version)): +\(added.count) −\(dropped.count)\n"
            let changes =
                added.sorted().map { ["+ \(name(data, $0))", $0] }
                + dropped.sorted().map {
                    ["− \(name(data, $0))", $0]
                }
            for row in TextLayout.table(changes, indent: 2, width: width, minimumLast: 64) { out += row + "\n" }
        }
        out += "\n"
        let rows = snapshot.roots.map { (name(data, $0), $0) }.sorted { $0.0.lowercased() < $1.0.lowercased() }
        let marked = rows.map { sha, name in
            [
                sha,
                name
                    + (data.announcedDistrust(root: sha).map {
                        " (distrusted after \(CalendarDay.string(from: $0.effective)))"
                    } ?? ""),
            ]
        }
        for row in TextLayout.table(marked, indent: 0, width: width) { out += row + "\n" }
        return out
    }

    /// The same as JSON: provenance and stores (each with its roots' names), or one release's store; `updatedData`:
    /// the CT log list `atscheck data update` stored, which runs judge with (absent when there is none).
    package static func json(_ data: AppleTrustData, release: [Int]?, updated: TrustDataSource? = nil) throws -> String
    {
        struct Root: Encodable {
            var sha256: String
            var name: String
            /// For a root under an announced distrust (support 121668): leaves issued after this day are rejected.
            var distrustedAfter: String?
            var distrustSource: String?

            init(sha256: String, name: String, distrust: AnnouncedDistrust? = nil) {
                self.sha256 = sha256
                self.name = name
                distrustedAfter = distrust.map { CalendarDay.string(from: $0.effective) }
                distrustSource = distrust.map { "\($0.source), \($0.url)" }
            }
        }
        struct Store: Encodable {
            var version, tag, date, iOS, macOS, mapping: String
            var overTheAir: Bool
            var roots: [Root]
        }
        struct Listing: Encodable {
            var provenance: AppleTrustData.Provenance
            var stores: [Store]
            var removedRoots: [Root]
            var restrictions: String
            var restrictionGroups: Int
            var ctLogList: String?
            var ctLogs: Int?
            var updatedData: TrustDataInfo?
        }
        let chosen = release.flatMap { data.snapshot(forIOS: $0) }.map { [$0] } ?? data.snapshots
        let listing = Listing(
            provenance: data.provenance,
            stores: chosen.map { snapshot in
                Store(
                    version: snapshot.version, tag: snapshot.tag, date: snapshot.date, iOS: snapshot.iOS,
                    macOS: snapshot.macOS, mapping: snapshot.mapping, overTheAir: snapshot.overTheAir,
                    roots: snapshot.roots.map {
                        Root(sha256: $0, name: name(data, $0), distrust: data.announcedDistrust(root: $0))
                    })
            },
            removedRoots: data.removedRoots.map { Root(sha256: $0.sha256, name: $0.name) },
            restrictions: data.restrictions.source, restrictionGroups: data.restrictions.groups.count,
            ctLogList: data.logList?.source, ctLogs: data.logList?.logs.count,
            updatedData: updated.map { TrustDataInfo(ctLogList: $0) })
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(listing), as: UTF8.self) + "\n"
    }

    private static func name(_ data: AppleTrustData, _ sha: String) -> String { data.root(sha256: sha)?.name ?? "?" }
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
