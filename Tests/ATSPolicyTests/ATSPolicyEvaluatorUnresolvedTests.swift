import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// A build setting not given where ATS reads it makes the hosts it could change ambiguous, never a verdict the
/// unknown value could make wrong (issue 32).
@Suite("ATSPolicyEvaluator: unresolved build settings")
struct ATSPolicyEvaluatorUnresolvedTests {
    @Test("an exception key $(API_HOST) that would let a failing host connect makes it ambiguous")
    func unresolvedKey() throws {
        let config = Fixture.config([
            "NSExceptionDomains": ["$(API_HOST)": ["NSExceptionMinimumTLSVersion": "TLSv1.0"]]
        ])
        #expect(config.exceptionDomains.isEmpty && config.unresolvedExceptionDomains.count == 1)
        let old = Fixture.profile(Fixture.tls10Only)
        let evaluation = Fixture.evaluate(old, config)
        #expect(evaluation.verdict == .ambiguous)
        #expect(evaluation.readings.map(\.name) == ["as written", "if $(API_HOST) names api.example.com"])
        #expect(evaluation.readings.map(\.verdict) == [.fail, .pass])
        #expect(evaluation.notes.contains { $0.contains("API_HOST") && $0.contains("--build-setting") })
    }

    @Test("a host the unresolved entry could not change keeps its verdict, with a note")
    func unchanged() {
        let config = Fixture.config(["NSExceptionDomains": ["$(API_HOST)": ["NSIncludesSubdomains": true]]])
        let evaluation = Fixture.evaluate(Fixture.profile(Fixture.modern), config)
        #expect(evaluation.verdict == .pass)
        #expect(evaluation.notes.contains { $0.contains("whatever they are, the verdict is the same") })
    }

    @Test("a host with its own entry is governed by it: the unresolved key cannot name it")
    func ownEntry() {
        let config = Fixture.config([
            "NSExceptionDomains": [
                "$(API_HOST)": ["NSExceptionMinimumTLSVersion": "TLSv1.0"], "api.example.com": [String: Any](),
            ]
        ])
        #expect(Fixture.evaluate(Fixture.profile(Fixture.tls10Only), config).verdict == .fail)
    }

    @Test("an unresolved minimum TLS version is judged under each version it can take")
    func unresolvedValue() {
        let config = Fixture.config([
            "NSExceptionDomains": ["api.example.com": ["NSExceptionMinimumTLSVersion": "$(MIN_TLS)"]]
        ])
        #expect(config.exceptionDomains["api.example.com"]?.unresolvedSettingNames == ["MIN_TLS"])
        let evaluation = Fixture.evaluate(Fixture.profile(Fixture.tls10Only), config)
        #expect(evaluation.verdict == .ambiguous)
        #expect(evaluation.readings.contains { $0.name.contains("TLSv1.0") && $0.verdict == .pass })
        // A server every version accepts passes whatever the value.
        #expect(Fixture.evaluate(Fixture.profile(Fixture.modern), config).verdict == .pass)
    }
}
