import TLSModel

extension RuleID.Plist {
    /// `plist.os.catalyst-minimum` (its entry is below).
    package static let osCatalystMinimum: RuleID = "plist.os.catalyst-minimum"
}

/// A Mac Catalyst app's `LSMinimumSystemVersion` is its macOS minimum, not its iOS one: a note that the lint judges
/// the iOS releases from elsewhere (``LowestOS/ignoredCatalystMinimum(of:)``).
struct CatalystMinimumRule: PlistLintRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.osCatalystMinimum, .plist, .note,
                title: "LSMinimumSystemVersion in an iOS app is its Mac Catalyst minimum, not its iOS minimum.",
                help: """
                    An iOS app (`LSRequiresIPhoneOS`, `UIDeviceFamily`, …) that also runs on the Mac states its macOS \
                    minimum in `LSMinimumSystemVersion`. The iOS releases it supports come from `MinimumOSVersion` or \
                    the deployment target (`--deployment-target`, `IPHONEOS_DEPLOYMENT_TARGET`), so atscheck does not \
                    take its iOS eras from the macOS key. Give the deployment target to judge the oldest iOS release.
                    """,
                appleKey: "LSMinimumSystemVersion")
        ]
    }

    var needsATSDictionary: Bool { false }

    func check(_ c: LintContext) {
        if let catalyst = LowestOS.ignoredCatalystMinimum(of: c.document) {
            let judged =
                c.lowest.map { "the oldest iOS release judged is \($0.described)" }
                ?? "with no MinimumOSVersion or deployment target, severities assume iOS \(c.rulesOS) and "
                + "--explain lists every era (give --deployment-target)"
            c.emit(
                RuleID.Plist.osCatalystMinimum, .note,
                "LSMinimumSystemVersion \(catalyst) is the Mac Catalyst minimum of this iOS app, not its iOS minimum: "
                    + judged,
                filePath: ["LSMinimumSystemVersion"], keyPath: "LSMinimumSystemVersion")
        }
    }
}
