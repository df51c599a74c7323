import ATSPolicy
import Judging
import TLSModel

extension RuleCatalogue {
    /// Every rule id atscheck emits: the registries of every module, concatenated by family in ``RuleFamily``
    /// order. Assembled here, in the facade, because only the facade sees every registry (`ATSPolicy`'s ATS, trust
    /// and plist rules, `Judging`'s audit rules, the entries `TLSModel` keeps); the CLI hands it to the renderers
    /// (`RenderOptions`) and to `atscheck rules`. A new registry is one line here.
    package static let atscheck = RuleCatalogue([
        .verdicts, .atsHTTP, .atsTLS, .trust, .scan, .endpointNotes, .requirements, .plist, .audit, .endpointLists,
        .baselines, .pins, .app,
    ])
}
