import Foundation
import Judging
import TLSModel
import Testing

/// `atscheck app`'s bundled-certificate pin findings (issue 33: moved out of the facade's `AppLivePins`), pure.
@Suite("App pin findings (bundled certificates)")
struct AppPinFindingsTests {
    func check(_ endpoint: String, mode: String, _ verdict: PinVerdict?) -> AppPinCheck {
        let evaluation = verdict.map {
            PinEvaluation(
                library: .init(rawValue: "afnetworking"), host: "h", options: [], verdict: $0,
                result: $0 == .accept ? "pins-matched" : "pin-mismatch", steps: [],
                noMatchReason: $0 == .accept ? nil : "no pinned certificate on the path")
        }
        let result = PinCheckResult(
            target: endpoint, host: "h", port: 443, address: nil, status: verdict == nil ? .error : .completed,
            error: verdict == nil ? "refused" : nil, evaluation: evaluation)
        return AppPinCheck(
            origin: .bundledCertificates, endpoint: endpoint, library: .init(rawValue: "afnetworking"), mode: mode,
            assumed: true, pinFiles: ["Demo.app/api.cer"], note: nil, result: result)
    }

    @Test("assumed modes: one warning naming the modes that reject, and the one that accepts")
    func assumed() {
        let checks = [check("a:443", mode: "certificate", .reject), check("a:443", mode: "public-key", .accept)]
        let out = AppPinFindings.host(checks, library: "AFNetworking", anchor: "Demo.app/api.cer", named: false)
        #expect(out.map(\.severity) == [.warning])
        #expect(
            out.first?.message
                == "a:443: if the app pins it with AFNetworking, certificate mode rejects it (public-key mode accepts "
                + "it): certificate: no pinned certificate on the path")
        #expect(out.first?.file == "Demo.app/api.cer")
        let accepted = [check("a:443", mode: "certificate", .accept)]
        #expect(AppPinFindings.host(accepted, library: "AFNetworking", anchor: "x", named: false).isEmpty)
    }

    @Test("a named mode's rejection is an error, as in the audit")
    func named() {
        let out = AppPinFindings.host(
            [check("a:443", mode: "certificate", .reject)], library: "AFNetworking", anchor: "x", named: true)
        #expect(out.map(\.rule) == [RuleID.Pins.rejected])
        #expect(out.map(\.severity) == [.error])
        #expect(
            out.first?.message.hasPrefix("a:443: AFNetworking in certificate mode with the bundled pins rejects it")
                == true)
    }

    @Test("no host accepts: one set-wide warning when assumed, an error when named or empty; none when one accepts")
    func setWide() throws {
        let rejecting = [check("a:443", mode: "certificate", .reject), check("b:443", mode: "certificate", .reject)]
        let warning = try #require(
            AppPinFindings.setWide(
                rejecting, library: "AFNetworking", modes: ["certificate", "public-key"],
                files: ["Demo.app/api.cer"], note: nil, empty: false, named: false, anchor: "Demo.app/api.cer"))
        #expect(warning.severity == .warning)
        #expect(
            warning.message
                == "no host accepts the bundled pins (api.cer): AFNetworking in certificate and public-key mode "
                + "rejects all 2 host(s) checked; if the app pins with AFNetworking, every pinned request fails")
        #expect(
            AppPinFindings.setWide(
                rejecting, library: "AFNetworking", modes: ["certificate"], files: [], note: nil, empty: false,
                named: true, anchor: "x") == nil)
        let empty = try #require(
            AppPinFindings.setWide(
                rejecting, library: "AFNetworking", modes: ["certificate"], files: [], note: "not supported",
                empty: true, named: true, anchor: "x"))
        #expect(empty.severity == .error)
        #expect(empty.message.hasPrefix("AFNetworking has no certificate to pin (not supported): "))
        let oneAccepts = rejecting + [check("c:443", mode: "certificate", .accept)]
        #expect(
            AppPinFindings.setWide(
                oneAccepts, library: "AFNetworking", modes: ["certificate"], files: [], note: nil, empty: false,
                named: false, anchor: "x") == nil)
        let unevaluated = [check("a:443", mode: "certificate", nil)]
        #expect(
            AppPinFindings.setWide(
                unevaluated, library: "AFNetworking", modes: ["certificate"], files: [], note: nil, empty: true,
                named: false, anchor: "x") == nil)
    }
}
