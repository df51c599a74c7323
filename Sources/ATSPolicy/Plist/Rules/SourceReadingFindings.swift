import TLSModel

extension RuleID.Plist {
    /// `plist.source.configuration-invalid` (its entry is below).
    package static let sourceConfigurationInvalid: RuleID = "plist.source.configuration-invalid"
    /// `plist.source.configurations-limited` (its entry is below).
    package static let sourceConfigurationsLimited: RuleID = "plist.source.configurations-limited"
}

/// What reading an Info.plist source file reports about its preprocessor configurations (``PlistConfigurations``:
/// a condition that does not parse, more configurations than are linted). Not a lint rule: no lint predicate emits
/// them, so only their entries are here, in the plist registry.
struct SourceReadingFindings: Rule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.sourceConfigurationInvalid, .plist, .warning,
                title:
                    "A build configuration of a preprocessed Info.plist is not a valid plist; Xcode cannot build it.",
                help: """
                    The preprocessor conditions (`#if`, `#ifdef`, …) give several configurations and this one, as the \
                    preprocessor leaves it, does not parse (or the preprocessor itself stops, at an `#error`). If the \
                    configuration is never built, say which one is with `--define`; otherwise fix the branch. The other \
                    configurations are judged.
                    """),
            RuleDescriptor(
                RuleID.Plist.sourceConfigurationsLimited, .plist, .note,
                title: "The preprocessor conditions allow more configurations than atscheck judges; give --define.",
                help: """
                    Without `--define` or `INFOPLIST_PREPROCESSOR_DEFINITIONS`, atscheck judges every combination of the \
                    names an Info.plist's conditions test, up to eight: none defined, then each alone, then pairs. Give \
                    the definitions of the configuration you build to judge exactly that one.
                    """),
        ]
    }
}
