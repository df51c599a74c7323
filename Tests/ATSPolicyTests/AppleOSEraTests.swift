import ATSPolicy
import Foundation
import Testing

/// Issue 21, step 1: one era table. Every list, label and predicate is read from ``AppleOSEra/all``.
@Suite("AppleOSEra: the one era table")
struct AppleOSEraTests {
    @Test("the table is sorted and each change is introduced by exactly one row")
    func wellFormed() {
        let versions = AppleOSEra.all.map(\.version)
        #expect(versions == versions.sorted())
        #expect(Set(versions).count == versions.count)
        for change in AppleOSEra.Change.allCases {
            #expect(AppleOSEra.all.filter { $0.changes.contains(change) }.count == 1, "\(change)")
        }
        let macOS = AppleOSEra.all.compactMap(\.macOS)
        #expect(macOS == macOS.sorted())
    }

    @Test("--os-version's values, the newest release and the known majors are the table's")
    func listsReadTheTable() {
        // The eras up to 26.4 are history and fixed; a later row is added at the end, and the newest is the default.
        let known = ["9", "10", "11", "12", "12.1", "12.2", "13", "14", "15", "15.4", "16", "17", "18", "26", "26.4"]
        #expect(Array(AppleOSVersion.supportedValues.prefix(known.count)) == known)
        #expect(AppleOSVersion.supportedValues == AppleOSEra.judgedEras.map(\.label))
        #expect(AppleOSVersion.supportedValues.last == AppleOSEra.newest.label)
        #expect(AppleOSVersion.newest == AppleOSEra.newest.version)
        #expect(AppleOSVersion.newest >= AppleOSVersion(26, 4))
        #expect(AppleOSVersion(string: "18.4") != nil)
        #expect(AppleOSVersion(string: "19") == nil)
        #expect(AppleOSVersion(string: "25.1") == nil)
        for era in AppleOSEra.all {
            #expect(AppleOSVersion(string: era.version.description) == era.version)
        }
    }

    @Test("docs/usage.md lists --os-version's values and default from the table")
    func usageListsTheTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let usage = try String(contentsOf: root.appendingPathComponent("docs/usage.md"), encoding: .utf8)
        let row = try #require(usage.split(separator: "\n").first { $0.hasPrefix("| `--os-version X` |") })
        let values = AppleOSVersion.supportedValues.joined(separator: ", ")
        #expect(row.contains(": \(values) | \(AppleOSEra.newest.label) |"), "\(row)")
    }

    @Test("each predicate turns on at the row that introduces its change, and not one release before")
    func predicatesFollowRows() {
        let predicates: [(AppleOSEra.Change, (AppleOSVersion) -> Bool)] = [
            (.fineGrainedGlobalKeys, \.hasFineGrainedGlobalKeys),
            (.weakCertificatesRefused, \.systemTrustRefusesWeakCertificates),
            (.certificateTransparency, \.enforcesCertificateTransparency),
            (.iOS13CertificateRules, \.enforcesIOS13CertificateRules),
            (.ipLiteralsUnderATS, \.ipLiteralsRequireATS),
            (.niapPackage, \.supportsNIAPPackage),
            (.perDomainNumbersByValue, \.readsPerDomainNumbers),
        ]
        for (change, predicate) in predicates {
            let start = AppleOSEra.introducing(change).version
            #expect(predicate(start), "\(change)")
            #expect(!predicate(AppleOSEra.release(before: start)), "\(change)")
        }
        #expect(AppleOSVersion(12, 1).offersTLS13 == false)
        #expect(AppleOSVersion(12, 2).offersTLS13 == nil)
        #expect(AppleOSVersion(13).offersTLS13 == true)
        #expect(AppleOSVersion(15, 3).sourceSuiteEra == .sourceUpTo2022)
        #expect(AppleOSVersion(15, 4).sourceSuiteEra == .source2022)
        #expect(AppleOSVersion(12, 2).sourceSuiteEra == .documented)
    }

    @Test("key introductions are versions of the table")
    func keyIntroductions() {
        #expect(ATSKey.allowsArbitraryLoads.introduced == AppleOSVersion(9))
        #expect(ATSKey.allowsLocalNetworking.introduced == AppleOSVersion(10))
        #expect(ATSKey.pinnedDomains.introduced == AppleOSVersion(14))
        #expect(ATSKey.requiresNIAPTLSPackageVersion.introduced == AppleOSVersion(26, 4))
    }

    @Test("the explainer's labels come from the table: 9, 10–16, 17+; 17–26.3 and 26.4+ with a NIAP key")
    func explainerLabels() {
        #expect(PolicyExplainer.eras(for: .default).map(\.label) == ["9", "10–16", "17+"])
        let niap = ATSConfiguration(dictionary: ["NSRequiresNIAPTLSPackageVersion": "FCP_v2.1"])
        #expect(PolicyExplainer.eras(for: niap).map(\.label) == ["9", "10–16", "17–26.3", "26.4+"])
    }

    @Test("the release before a boundary skips the majors Apple skipped")
    func releaseBefore() {
        #expect(AppleOSEra.release(before: AppleOSVersion(26)) == AppleOSVersion(18))
        #expect(AppleOSEra.release(before: AppleOSVersion(26, 4)) == AppleOSVersion(26, 3))
        #expect(AppleOSEra.release(before: AppleOSVersion(10)) == AppleOSVersion(9))
    }
}
