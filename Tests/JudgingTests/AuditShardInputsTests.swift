import ATSPolicy
import Foundation
import Judging
import TLSModel
import Testing

@Suite("Audit shard inputs")
struct AuditShardInputsTests {
    static func inputs(trustStore: String?, ranAt: Date = Date(timeIntervalSince1970: 0)) -> AuditShardInputs {
        AuditShardInputs(
            plist: nil, endpoints: "endpoints.txt", baseline: nil, os: AppleOSVersion(26), client: .urlSession,
            caFiles: [], useSystemTrustStore: true, trustStore: trustStore, warnDays: nil, evaluationTime: nil,
            ranAt: ranAt, fingerprints: ["endpoints.txt": "00"])
    }

    @Test("shards judged with different trust stores are not the same audit; a different run time is")
    func trustStoreDecides() {
        let apple = Self.inputs(trustStore: "apple security_certificates-55349.0.11")
        #expect(apple.sameAudit(as: Self.inputs(trustStore: "apple security_certificates-55349.0.11", ranAt: Date())))
        #expect(!apple.sameAudit(as: Self.inputs(trustStore: "host")))
        #expect(!apple.sameAudit(as: Self.inputs(trustStore: "apple security_certificates-55313.0.8")))
    }
}
