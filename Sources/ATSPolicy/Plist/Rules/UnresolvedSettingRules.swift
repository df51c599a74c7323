import TLSModel

extension RuleID.Plist {
    /// `plist.source.unresolved-setting` (its entry is below).
    package static let sourceUnresolvedSetting: RuleID = "plist.source.unresolved-setting"
}

/// `plist.source.unresolved-setting`: a `$(NAME)` reference where ATS (or TrustKit's `TSKConfiguration`) reads it,
/// with no build setting given for it. Xcode replaces it when it builds the app; atscheck does not guess its value,
/// so the hosts it could name are judged ambiguous by the engine rather than given a verdict that may be wrong.
/// References outside those configurations (`$(PRODUCT_BUNDLE_IDENTIFIER)`) are not reported: ATS never reads them.
struct UnresolvedSettingRules: PlistLintRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.sourceUnresolvedSetting, .plist, .warning,
                title: "A build setting ($(NAME)) that ATS reads is not given; the hosts it may name cannot be judged.",
                help: """
                    Xcode replaces `$(NAME)` and `${NAME}` in an Info.plist with the build setting's value when it \
                    builds the app. Where ATS reads the reference (an `NSExceptionDomains` key, a minimum TLS version), \
                    its value decides the policy, so atscheck does not guess: a host the entry could name is judged \
                    ambiguous. Give the value with `--build-setting NAME=VALUE` or `--xcconfig PATH`.
                    """)
        ]
    }

    var needsATSDictionary: Bool { false }

    func check(_ c: LintContext) { Self.check(c) }

    static func check(_ c: LintContext) {
        let document = c.document
        for unresolved in document.unresolvedSettings {
            let components =
                document.kind == .atsDictionary
                ? [ATSKey.appTransportSecurity] + unresolved.path
                : unresolved.path
            guard let root = components.first,
                root == ATSKey.appTransportSecurity || DuplicateKeyRules.pinningRoots.contains(root)
            else { continue }
            let names = unresolved.names.map { "$(\($0))" }.joined(separator: ", ")
            let settings = unresolved.names.map { "--build-setting \($0)=VALUE" }.joined(separator: " ")
            let written = components.last ?? ""
            let what: String
            if unresolved.inKey, components.count == 3, components[1] == ATSKey.exceptionDomains.name {
                what =
                    "the NSExceptionDomains key \(written) refers to \(names), which is not given: the host it names "
                    + "cannot be judged, and every host without an entry of its own is judged ambiguous where this "
                    + "entry would change its verdict"
            } else if unresolved.inKey, components.count == 3, components[1] == ATSKey.pinnedDomains.name {
                what =
                    "the NSPinnedDomains key \(written) refers to \(names), which is not given: which host it pins "
                    + "cannot be judged"
            } else if unresolved.inKey {
                what = "the key \(written) refers to \(names), which is not given: it cannot be judged"
            } else {
                let key = components.count >= 2 ? components[components.count - 1] : written
                let domain = components.count >= 4 ? " of \(components[2])" : ""
                what =
                    "\(key)\(domain) refers to \(names), which is not given: what it sets cannot be judged, and the "
                    + "hosts it governs are judged ambiguous where its value would change their verdict"
            }
            var finding = Finding(
                rule: RuleID.Plist.sourceUnresolvedSetting, severity: .warning,
                message: "\(what); give \(settings) or --xcconfig PATH", file: document.file,
                line: document.line(forKeyPath: unresolved.path), keyPath: components.joined(separator: "."))
            finding.keyPathComponents = components
            c.add([finding])
        }
    }
}
