/// Writes harvested endpoints as an endpoint list in the `audit` text format: one target a line, with `#` comments
/// naming where each was found, for a person to review before using it with `--endpoints`.
public enum EndpointListWriter {
    /// The most sources named per endpoint; the rest are counted.
    public static let maxSourcesShown = 3

    /// The list's text.
    /// - Parameters:
    ///   - endpoints: Harvested endpoints (``EndpointHarvester/harvest(_:filter:)``).
    ///   - input: The bundle path, for the header.
    /// - Returns: The file's text, ending in a newline.
    public static func text(_ endpoints: [HarvestedEndpoint], input: String) -> String {
        var lines = [
            "# Endpoints harvested by `atscheck app` from \(input).",
            "# Review before use: remove hosts the app never contacts, add the ones built at run time.",
            "# Bare host names (no scheme) are scanned as HTTPS on port 443.",
        ]
        for endpoint in endpoints {
            lines.append("")
            let shown = endpoint.sources.prefix(maxSourcesShown).map(\.description)
            for source in shown { lines.append("# from \(source)") }
            if endpoint.sources.count > maxSourcesShown {
                lines.append("# … and \(endpoint.sources.count - maxSourcesShown) more")
            }
            lines.append(endpoint.target)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
