import Foundation
import TLSModel

/// Leaf validity caps (reference §2.1, as coded in trustd): 825 days + 1 hour for leaves issued from
/// 2018-03-01 under a system root and after 2019-07-01 under a user/MDM root; 398 days exactly for leaves
/// issued from 2020-09-01 under a system (preinstalled) root (support 102028). No Info.plist key relaxes them.
struct LifetimeRule: ATSRule {
    func apply(to context: inout RuleContext) {
        guard context.os.enforcesIOS13CertificateRules, let leaf = context.leaf, !leaf.selfSigned || context.anchor != .custom
        else { return }
        let seconds = leaf.lifetimeSeconds
        let days = leaf.lifetimeDays
        let anchor = context.anchor
        let issued = ChainTrustRule.day(leaf.notBefore)
        if anchor == .system && leaf.notBefore >= AppleDates.cap398 {
            if seconds > 398 * 86_400 {
                context.fail(
                    .Trust.lifetime398,
                    "the certificate is valid for \(days) days (issued \(issued)) under a preinstalled root; Apple allows at most 398 days for certificates issued from 2020-09-01")
            }
            return
        }
        let start = anchor == .system ? AppleDates.systemLifetimeCap : AppleDates.ios13Rules
        let applies = anchor == .system ? leaf.notBefore >= start : leaf.notBefore > start
        if applies && seconds > 825 * 86_400 + 3_600 {
            let root = anchor == .custom ? "a user- or MDM-installed root" : anchor == .system ? "a preinstalled root" : "an unverified chain"
            context.fail(
                .Trust.lifetime825,
                "the certificate is valid for \(days) days (issued \(issued)) under \(root); Apple allows at most 825 days")
        }
    }
}
