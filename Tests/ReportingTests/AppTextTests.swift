import Foundation
import Reporting
import TLSModel
import Testing

/// The text of `atscheck app`: header and live section against a golden file; strings from the bundle escaped.
@Suite("App text")
struct AppTextTests {
    static var text: String {
        AppText.header(DocumentFixtures.appFacts) + AppText.live(DocumentFixtures.appLive)
    }

    @Test("header and live section, golden file")
    func golden() throws {
        try Snapshot.assert(Self.text, named: "app.txt")
    }

    @Test("terminal controls from the bundle are escaped; an endpoint names at most three places")
    func escaping() {
        let text = Self.text
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{7}"))
        #expect(text.contains("com.example.demo\\u{1B}[31m"))
        #expect(text.contains("from Demo, main.jsbundle, Info.plist and 1 more"))
        #expect(AppText.sourcesShown == 3)
    }

    @Test("an empty bundle and an empty live run say so")
    func empty() {
        var facts = DocumentFixtures.appFacts
        (facts.libraries, facts.certificates, facts.harvestedEndpoints) = ([], [], [])
        (facts.trustKit, facts.pinnedDomains) = (nil, nil)
        let header = AppText.header(facts)
        #expect(header.contains("  none linked (AFNetworking, Alamofire, TrustKit)"))
        #expect(header.contains("  no .cer/.crt/.der files"))
        #expect(header.contains("  none found"))
        let live = AppText.live(
            AppSection.Live(
                endpointSource: "list.txt", eras: ["26.4"], endpoints: [],
                exceptionDebt: [], pins: []))
        #expect(live.contains("(0 endpoint(s) from list.txt; OS eras 26.4; one probe each)"))
        #expect(live.contains("  no endpoints to check"))
    }
}
