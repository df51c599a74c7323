import TLSModel

extension HTMLReport {
    /// What the bundle carries: pinning libraries, pin material (every subject, key hash and expiry), the pin
    /// configurations, and the endpoints harvested (folded, as the list can be long).
    func appSection(_ facts: AppSection.Facts) -> String {
        var out = "<div class=\"columns\">\n<div>\n<h3>Pinning libraries</h3>\n"
        if facts.libraries.isEmpty {
            out += "<p class=\"dim\">None linked (AFNetworking, Alamofire, TrustKit).</p>\n"
        } else {
            out += "<ul>\n"
            for library in facts.libraries {
                let how =
                    library.linkage == "framework"
                    ? "framework " + code(library.path ?? "")
                    : "static (" + code(library.marker ?? "") + " in the executable)"
                out += "<li><b>\(e(library.name))</b> \(e(library.version ?? "(version unknown)")): \(how)</li>\n"
            }
            out += "</ul>\n"
        }
        var configurations: [String] = []
        if let trustKit = facts.trustKit {
            configurations.append("TSKConfiguration: " + domainList(Array(trustKit.domains.keys)))
        }
        if let pinned = facts.pinnedDomains {
            configurations.append("NSPinnedDomains: " + domainList(Array(pinned.domains.keys)))
        }
        if !configurations.isEmpty {
            out += "<h3>Pin configurations</h3>\n<ul>\n"
            out += configurations.map { "<li>\($0)</li>\n" }.joined() + "</ul>\n"
        }
        out += "</div>\n<div>\n<h3>Pin material</h3>\n"
        if facts.certificates.isEmpty {
            out += "<p class=\"dim\">No .cer, .crt or .der files.</p>\n"
        } else {
            out += "<ul>\n"
            for pin in facts.certificates {
                out += "<li>\(code(pin.file)): "
                if let subject = pin.subject, let spki = pin.spkiSHA256, let notAfter = pin.notAfter {
                    out += "\(e(subject)), SPKI SHA-256 \(code(spki)), expires \(e(CalendarDay.string(from: notAfter)))"
                } else {
                    out += "\(HTMLMark.error.chip) unreadable (\(e(pin.encoding)))"
                }
                let readers = pin.loadedBy.isEmpty ? "no default lookup" : pin.loadedBy.joined(separator: ", ")
                out += "; read by \(e(readers))</li>\n"
            }
            out += "</ul>\n"
        }
        out += "</div>\n</div>\n"
        out += "<details>\n<summary>\(plural(facts.harvestedEndpoints.count, "endpoint", "endpoints")) harvested "
        out += "from the bundle</summary>\n"
        if facts.harvestedEndpoints.isEmpty {
            out += "<p class=\"dim\">None found.</p>\n"
        } else {
            out += "<table class=\"harvest\">\n<thead><tr><th scope=\"col\">Endpoint</th><th scope=\"col\">Found in"
            out += "</th></tr></thead>\n<tbody>\n"
            for endpoint in facts.harvestedEndpoints {
                let shown = endpoint.sources.prefix(AppText.sourcesShown).map(code).joined(separator: ", ")
                let more = endpoint.sources.count - min(endpoint.sources.count, AppText.sourcesShown)
                out += "<tr><td>\(code(endpoint.target))</td><td>\(shown)\(more > 0 ? " and \(more) more" : "")"
                out += "</td></tr>\n"
            }
            out += "</tbody>\n</table>\n"
        }
        out += "</details>\n"
        return section("app", "The build", out)
    }

    private func domainList(_ domains: [String]) -> String {
        let sorted = domains.sorted()
        return plural(sorted.count, "domain", "domains") + (sorted.isEmpty ? "" : ": ")
            + sorted.map(code).joined(separator: ", ")
    }
}
