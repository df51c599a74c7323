import Foundation
import Pinning
import Testing

/// Issue 33: the CLI's pin flags come from the libraries' option declarations. ArgumentParser's option groups are
/// static, so a library that declares an option the CLI does not expose fails here, not in a user's hands.
@Suite("pin flags from the registry (CLI)", .serialized)
struct PinFlagsTests {
    @Test("every registered library's option is a flag of pins check, with the library's help")
    func everyDeclaredFlagIsExposed() throws {
        let result = try CLI.run(["pins", "check", "--help"], environment: ["COLUMNS": "400"])
        #expect(result.status == 0, "\(result.stderr)")
        for spec in PinPolicyOptions.allOptions {
            #expect(result.stdout.contains(spec.flag), "\(spec.flag) (\(spec.key)) is not a pins check flag")
            #expect(result.stdout.contains(spec.help), "\(spec.flag): the help is not the library's")
        }
    }

    @Test("the value-taking options are flags of app and cert too")
    func libraryOptionsAreShared() throws {
        for command in [["app"], ["cert"]] {
            let result = try CLI.run(command + ["--help"], environment: ["COLUMNS": "400"])
            #expect(result.status == 0, "\(result.stderr)")
            for spec in PinPolicyOptions.allOptions {
                if case .boolean = spec.kind { continue }
                #expect(result.stdout.contains(spec.flag), "\(command): \(spec.flag) is missing")
            }
        }
    }
}
