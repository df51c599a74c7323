/// Writes harvested endpoints as an endpoint list in the `audit` text format: one target a line, with `#` comments
/// naming where each was found, for a person to review before using it with `--endpoints`.
public enum EndpointListWriter {
    /// The most sources named per endpoint; the rest are counted.
    public static let maxSourcesShown = 3

    /// The list's text.
    /// - Parameters:
    ///   - endpoints: Harvested endpoints (``EndpointHarvester/harvest(_:filter:limits:)``).
    ///   - input: The bundle path, for the header.
    ///   - notShown: Endpoints the harvest found past its cap and left out (``EndpointHarvest/notShown``).
    /// - Returns: The file's text, ending in a newline.
    public static func text(_ endpoints: [HarvestedEndpoint], input: String, notShown: Int = 0) -> String {
        var lines = [
            "# Endpoints harvested by `atscheck app` from \(input).",
            "# Review before use: remove hosts the app never contacts, add the ones built at run time.",
            "# Bare host names (no scheme) are scanned as HTTPS on port 443.",
        ]
        if notShown > 0 {
            lines.append(
                "# \(notShown) more endpoint(s) were found and left out: the harvest keeps the first ones found."
            )
        }
        for endpoint in endpoints {
            lines.append("")
            let shown = endpoint.sources.prefix(maxSourcesShown).map(\.description)
            for source in shown { lines.append("# from \(source)") }
            if endpoint.sourceCount > shown.count {
                lines.append("# … and \(endpoint.sourceCount - shown.count) more")
            }
            lines.append(endpoint.target)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
