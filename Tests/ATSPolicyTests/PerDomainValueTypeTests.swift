import Foundation
import Testing
import ATSPolicy
import TLSModel

/// §3.4: a per-domain boolean written as a number is ignored (the default is used), while a global
/// key written as a number counts. The linter and the engine must read plists the same way.
@Suite("Per-domain value types (§3.4)")
struct PerDomainValueTypeTests {
    func configuration(_ entryXML: String) throws -> ATSConfiguration {
        let xml = """
            <plist version="1.0"><dict><key>NSExceptionDomains</key><dict><key>api.example.com</key><dict>
            \(entryXML)
            </dict></dict></dict></plist>
            """
        let root = try PropertyListSerialization.propertyList(from: Data(xml.utf8), options: [], format: nil)
        return ATSConfiguration(dictionary: try #require(root as? [String: Any]))
    }

    @Test("<integer>1</integer> for NSExceptionAllowsInsecureHTTPLoads leaves it NO; <true/> makes it YES")
    func numbersIgnored() throws {
        let number = try configuration("<key>NSExceptionAllowsInsecureHTTPLoads</key><integer>1</integer>")
        #expect(number.exceptionDomains["api.example.com"]?.allowsInsecureHTTPLoads == false)
        let boolean = try configuration("<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>")
        #expect(boolean.exceptionDomains["api.example.com"]?.allowsInsecureHTTPLoads == true)
        let rfs = try configuration("<key>NSExceptionRequiresForwardSecrecy</key><integer>0</integer>")
        #expect(rfs.exceptionDomains["api.example.com"]?.requiresForwardSecrecy == true)
    }
}
