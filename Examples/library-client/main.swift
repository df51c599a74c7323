// A program that uses atscheck as a library, as a user of the ATSCheckKit product would: it must compile against
// the modules' public API alone (scripts/check-library-api.sh typechecks it without the package's name, so nothing
// `package` is visible). What it does: judge an Info.plist's ATS policy, scan the endpoints given as arguments under
// it, and print each verdict and the report as JSON.
import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import TLSModel

@main
struct LibraryClient {
    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var policy = AppPolicySource.defaultPolicy
        if let index = arguments.firstIndex(of: "--plist"), index + 1 < arguments.count {
            policy = AppPolicySource(document: try PlistDocument.load(path: arguments[index + 1]))
            arguments.removeSubrange(index...(index + 1))
        }
        var settings = ScanSettings()
        settings.timeout = 5
        let pipeline = ScanPipeline(settings: settings)
        let judge = PolicyJudge(policy: policy, for: .newest)
        let report = await pipeline.scan(try arguments.map { try Target(parsing: $0) }, judge: judge)
        for endpoint in report.endpoints {
            print(endpoint.profile.host, endpoint.ats.verdict.rawValue)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
