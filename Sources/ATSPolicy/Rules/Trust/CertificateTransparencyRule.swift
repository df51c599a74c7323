import Foundation
import TLSModel

/// Certificate Transparency for publicly trusted leaves (iOS 12.1+; support 103214, docs/apple-rules.md §2.2). It
/// applies when the OS enforces CT, the chain ends at a preinstalled (system) root, the leaf was issued from 2018-10-16
/// and has not expired. Each SCT the probe saw (embedded, TLS extension, stapled OCSP) is weighed against the log list
/// (``SCTStanding``); the leaf then needs SCTs from at least two distinct logs approved now or once, and either
/// (a) two from currently approved logs with one delivered in the TLS extension or a stapled OCSP response, or
/// (b) an embedded SCT from a currently approved log and enough embedded SCTs from distinct logs for its lifetime.
///
/// Three CONFLICTs of §2.2 are evaluated both ways where they decide: the count by lifetime (``ATSConflict/ctSCTCount``),
/// the per-operator cap (``ATSConflict/ctOperatorCap``) and the RFC 6962 log requirement
/// (``ATSConflict/ctRFC6962Log``). Chains to user- or MDM-installed roots never need CT. Reports from before the
/// probe verified SCTs, and scans without a log list, get the older check: the count of embedded SCTs.
struct CertificateTransparencyRule: ATSRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.certificateTransparency, .trust, .error,
                title: "The certificate's SCTs do not meet Apple's Certificate Transparency policy.",
                help: """
                    Leaves issued from 2018-10-16 that chain to a preinstalled root need SCTs from at least 2 distinct \
                    logs that Apple approves now or approved once, and either (a) 2 from currently approved logs with \
                    one in the TLS extension or a stapled OCSP response, or (b) one embedded from a currently approved \
                    log plus 2 to 5 embedded by lifetime (support 103214). Each SCT's signature is checked against its \
                    log's key; pending and rejected logs never count, a frozen (readonly) log stays current for SCTs \
                    up to its freeze, a retired one counts only for embedded SCTs from before it retired, a log's temporal interval must hold the leaf's notAfter, and an SCT from the future does not count. \
                    Where trustd and Apple's page differ (the count by lifetime, a per-operator cap, an RFC 6962 log) \
                    the verdict is ambiguous. Without a log list only embedded SCTs are counted. Chains to user- or \
                    MDM-installed roots need none. Ask the CA for embedded SCTs from logs of distinct operators; \
                    `NSRequiresCertificateTransparency` is obsolete.
                    """)
        ]
    }

    /// Embedded SCTs needed under policy (b) by support 103214's table (the check for reports without SCT facts).
    static func requiredSCTs(for leaf: CertificateFacts) -> Int { SCTCounts.documented(for: leaf) }

    func apply(to context: inout RuleContext) {
        guard context.os.enforcesCertificateTransparency, context.anchor == .system, let leaf = context.leaf,
            leaf.notBefore >= AppleDates.ctRequired, leaf.notAfter >= context.now
        else { return }
        // trustd requires CT only for chains to a system root that is not one of Apple's own (§2.2;
        // SecPolicyCheckSystemTrustedCTRequired).
        if context.storeOutcome?.appleAnchor == true {
            context.notes.append("Certificate Transparency: not required, the chain ends at one of Apple's own roots")
            return
        }
        guard let report = context.profile.certificate?.transparency, report.logList != "none" else {
            return applyEmbeddedCount(leaf, to: &context)
        }
        let standings = report.scts.map {
            SCTStanding($0, leaf: leaf, now: context.now, listDate: report.logListDate)
        }
        let readings = context.readings
        let judged = Judgement(standings, leaf: leaf, readings: readings)
        for conflict in [ATSConflict.ctSCTCount, .ctOperatorCap, .ctRFC6962Log]
        where Judgement(standings, leaf: leaf, readings: readings.flipped(conflict)).passed != judged.passed {
            context.consulted.insert(conflict)
        }

        let counted = standings.filter(\.counts)
        let ignored = standings.filter { !$0.counts }
        var note =
            "Certificate Transparency: \(standings.count) SCT(s) checked against \(report.logList); counted: "
            + (counted.isEmpty ? "none" : counted.map(\.logDescription).joined(separator: "; "))
        if !ignored.isEmpty { note += "; not counted: " + ignored.map(\.why).joined(separator: "; ") }
        if !report.requestedDelivered {
            note += " (SCTs in the TLS extension were not asked for on the handshake the certificate came from)"
        }
        context.notes.append(note)
        guard !judged.passed else { return }
        // Stale data is never a failure: when SCTs from logs the list is too old to know would meet the policy if
        // those logs were ones Apple approved since, the device's answer depends on its own, newer list.
        let newer = standings.filter(\.newerThanList)
        if !newer.isEmpty, Judgement(standings.map(\.asIfFromNewLog), leaf: leaf, readings: readings).passed {
            let listDate = report.logListDate.map { "published \(SCTStanding.day($0))" } ?? "of unknown date"
            context.ambiguous(
                "Certificate Transparency cannot be judged with \(report.logList), \(listDate): \(newer.count) SCT(s) "
                    + "come from log(s) it does not know and are newer than it ("
                    + newer.map { "log \($0.sct.logID), \(SCTStanding.day($0.sct.timestamp))" }.listed()
                    + "); with them the policy is met if Apple added those logs since. Update the list with "
                    + "`atscheck data update`, or pass a current one with --ct-log-list")
            return
        }
        var message =
            "the certificate's SCTs do not meet Apple's CT policy for a \(leaf.lifetimeDays)-day certificate from a "
            + "preinstalled root: " + judged.missing.joined(separator: "; ")
        if !ignored.isEmpty { message += ". Not counted: " + ignored.map(\.why).joined(separator: "; ") }
        if ignored.contains(where: { $0.sct.log == nil }) {
            // Apple adds logs over the air; a log newer than the list used is unknown here and known to devices.
            message +=
                " (checked against \(report.logList); a log Apple added since is unknown to it: "
                + "pass a current list with --ct-log-list)"
        }
        context.fail(.Trust.certificateTransparency, message)
    }

    /// The check for reports without SCT facts: embedded SCTs counted, their logs and signatures unseen.
    private func applyEmbeddedCount(_ leaf: CertificateFacts, to context: inout RuleContext) {
        let needed = Self.requiredSCTs(for: leaf)
        context.notes.append(
            "Certificate Transparency: \(leaf.embeddedSCTs) embedded SCT(s), \(needed) needed; whether their logs "
                + "are Apple-approved, and SCTs sent in the TLS extension or OCSP, cannot be seen by this scan"
        )
        if leaf.embeddedSCTs < needed {
            context.fail(
                .Trust.certificateTransparency,
                "the certificate embeds \(leaf.embeddedSCTs) SCT(s); Apple requires \(needed) for a "
                    + "\(leaf.lifetimeDays)-day certificate from a preinstalled root (SCTs in the TLS extension or a "
                    + "stapled OCSP response are not seen)"
            )
        }
    }

    /// Apple's policy over the SCTs' standings under one reading of each CT CONFLICT.
    struct Judgement {
        var passed: Bool
        /// What is missing, for the message.
        var missing: [String] = []

        init(_ standings: [SCTStanding], leaf: CertificateFacts, readings: Readings) {
            let counted = standings.filter(\.counts)
            let logs = Set(counted.map(\.sct.logID))
            let currentLogs = Set(counted.filter(\.isCurrent).map(\.sct.logID))
            let delivered = counted.filter { $0.isCurrent && $0.sct.source != .embedded }
            // (a) two currently approved logs, one SCT of them delivered in the TLS extension or by OCSP.
            let policyA = currentLogs.count >= 2 && !delivered.isEmpty
            // (b) an embedded SCT from a current log, and enough embedded SCTs from distinct logs (capped per operator).
            let embedded = counted.filter { $0.sct.source == .embedded }
            let needed = readings.documentedCTCount ? SCTCounts.documented(for: leaf) : SCTCounts.source(for: leaf)
            let cap = readings.ctOperatorCap ? SCTCounts.operatorCap(for: leaf) : nil
            var operatorOf: [String: String] = [:]
            for sct in embedded { operatorOf[sct.sct.logID] = sct.operatorName }
            let perOperator = Dictionary(grouping: operatorOf.keys, by: { operatorOf[$0]! }).mapValues(\.count)
            let embeddedCount = perOperator.values.reduce(0) { $0 + min($1, cap ?? $1) }
            let policyB = embedded.contains(where: \.isCurrent) && embeddedCount >= needed
            // A log the list is too old to know may be either kind; the favourable reading lets it be RFC 6962.
            let rfc6962 =
                !readings.ctRequiresRFC6962Log || counted.contains { $0.sct.log.map { !$0.tiled } ?? $0.newerThanList }
            passed = logs.count >= 2 && (policyA || policyB) && rfc6962

            if logs.count < 2 {
                missing.append(
                    "SCTs count from \(logs.count) log(s); Apple requires 2 distinct logs approved now or once")
            }
            if !policyA && !policyB {
                let capText = cap.map { ", at most \($0) per log operator" } ?? ""
                missing.append(
                    "neither (a) 2 SCTs from currently approved logs with one in the TLS extension or a stapled OCSP "
                        + "response (\(currentLogs.count) current log(s), \(delivered.count) delivered SCT(s)) nor (b) an "
                        + "embedded SCT from a currently approved log and \(needed) embedded SCTs from distinct "
                        + "logs\(capText) (\(embeddedCount) counted\(embedded.contains(where: \.isCurrent) ? "" : ", none from a current log"))"
                )
            }
            if !rfc6962 {
                missing.append("no counted SCT comes from an RFC 6962 log (all are from tiled, static-ct-api logs)")
            }
        }
    }
}
