import Foundation
import Judging
import TLSModel
import Testing

/// How `app` reports the audit's pin checks (moved from the facade's `AppLivePins`, issue 33): pure.
@Suite("An audit pin check as an app pin check")
struct AppPinCheckFromAuditTests {
    @Test("an NSPinnedDomains check keeps its origin and is noted by its entry")
    func pinnedDomains() {
        let audit = PinFindingsTests.check(.accept, findings: [])
        let app = AppPinCheck(audit)
        #expect(app.origin == .pinnedDomains)
        #expect(app.endpoint == audit.endpoint)
        #expect(app.library == audit.library)
        #expect(app.mode == nil)
        #expect(app.assumed == false)
        #expect(app.pinFiles == audit.pinFiles)
        #expect(app.note == "NSPinnedDomains entry 'a.example.com'")
        #expect(app.result == audit.result)
    }

    @Test("an endpoint-list check is noted by its pins")
    func endpointList() {
        var audit = PinFindingsTests.check(.reject, findings: [])
        audit.origin = .endpointList
        audit.domains = []
        audit.pins = "pins/api.json"
        let app = AppPinCheck(audit)
        #expect(app.origin == .endpointList)
        #expect(app.note == "pins/api.json")
    }
}
