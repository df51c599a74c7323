import Foundation

/// The rules GitHub code scanning applies to an uploaded SARIF file beyond the 2.1.0 schema, as its documentation
/// states them ("SARIF support for code scanning", docs.github.com, read 2026-11-26): every result needs a rule id, a
/// message text and at least one location with a physical location whose `artifactLocation.uri` is a non-empty
/// string (a result without one makes GitHub reject the whole file); a relative URI is resolved against its
/// `uriBaseId`, which must be declared in `originalUriBaseIds` when given there; regions start at line 1; a run has at
/// most 25,000 results; a rule's `security-severity` is a number from 0.0 to 10.0 written as a string, and its tags are
/// strings (at most 20 are kept). Checks our own output against them; the schema is checked by
/// ``SARIFSchemaValidator``.
package enum GitHubSARIFRules {
    /// What breaks GitHub's rules, one line each; empty when the file would be accepted.
    /// - Parameter json: SARIF text.
    package static func violations(_ json: String) -> [String] {
        guard let log = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            return ["not a JSON object"]
        }
        var out: [String] = []
        if log["version"] as? String != "2.1.0" { out.append("version is not 2.1.0") }
        guard let runs = log["runs"] as? [[String: Any]] else { return out + ["no runs array"] }
        for (r, run) in runs.enumerated() {
            let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
            if (driver?["name"] as? String ?? "").isEmpty { out.append("run \(r): no tool.driver.name") }
            let rules = driver?["rules"] as? [[String: Any]] ?? []
            for rule in rules {
                let id = rule["id"] as? String ?? "?"
                guard let properties = rule["properties"] as? [String: Any] else { continue }
                if let tags = properties["tags"] {
                    guard let list = tags as? [String] else {
                        out.append("rule \(id): tags are not strings")
                        continue
                    }
                    if list.count > 20 { out.append("rule \(id): \(list.count) tags (GitHub keeps 20)") }
                }
                if let severity = properties["security-severity"] {
                    guard let text = severity as? String, let value = Double(text), (0...10).contains(value) else {
                        out.append("rule \(id): security-severity \(severity) is not a number 0.0–10.0 as a string")
                        continue
                    }
                }
            }
            let bases = Set((run["originalUriBaseIds"] as? [String: Any] ?? [:]).keys)
            let results = run["results"] as? [[String: Any]] ?? []
            if results.count > 25_000 { out.append("run \(r): \(results.count) results (GitHub's limit is 25,000)") }
            for (i, result) in results.enumerated() {
                let name = "run \(r) result \(i) (\(result["ruleId"] as? String ?? "no ruleId"))"
                if (result["ruleId"] as? String ?? "").isEmpty { out.append("\(name): no ruleId") }
                if let index = result["ruleIndex"] as? Int {
                    if !rules.indices.contains(index) || rules[index]["id"] as? String != result["ruleId"] as? String {
                        out.append("\(name): ruleIndex \(index) does not name its rule")
                    }
                }
                if ((result["message"] as? [String: Any])?["text"] as? String ?? "").isEmpty {
                    out.append("\(name): no message.text")
                }
                let locations = result["locations"] as? [[String: Any]] ?? []
                if locations.isEmpty { out.append("\(name): no locations") }
                for location in locations {
                    out += check(location, in: name, bases: bases, declared: run["originalUriBaseIds"] != nil)
                }
                for related in result["relatedLocations"] as? [[String: Any]] ?? [] {
                    out += check(
                        related, in: name + " related", bases: bases, declared: run["originalUriBaseIds"] != nil)
                }
            }
        }
        return out
    }

    static func check(_ location: [String: Any], in name: String, bases: Set<String>, declared: Bool) -> [String] {
        guard let physical = location["physicalLocation"] as? [String: Any] else {
            return ["\(name): a location without a physicalLocation"]
        }
        var out: [String] = []
        let artifact = physical["artifactLocation"] as? [String: Any]
        let uri = artifact?["uri"] as? String ?? ""
        if uri.isEmpty { out.append("\(name): physicalLocation.artifactLocation.uri is empty") }
        if let base = artifact?["uriBaseId"] as? String {
            if uri.contains("://") || uri.hasPrefix("/") {
                out.append("\(name): uri \(uri) with a uriBaseId is not relative")
            }
            if declared && !bases.contains(base) {
                out.append("\(name): uriBaseId \(base) is not in originalUriBaseIds")
            }
        }
        if let region = physical["region"] as? [String: Any], let line = region["startLine"] as? Int, line < 1 {
            out.append("\(name): region.startLine \(line) < 1")
        }
        return out
    }
}
