import Testing

@testable import ATSPolicy

/// `$(NAME)` expansion as Xcode does it in an Info.plist.
@Suite("BuildSettings")
struct BuildSettingsTests {
    static let settings = BuildSettings([
        "API_HOST": "api.example.com", "CONFIGURATION": "Debug", "HOST_Debug": "dev.example.com",
        "SELF": "$(SELF)x", "NAME": "My App",
    ])

    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var expanded: String
        var unresolved: [String]
        var description: String { text }
    }

    static let cases: [Case] = [
        Case(text: "$(API_HOST)", expanded: "api.example.com", unresolved: []),
        Case(text: "${API_HOST}", expanded: "api.example.com", unresolved: []),
        Case(text: "$(HOST_$(CONFIGURATION))", expanded: "dev.example.com", unresolved: []),
        Case(text: "https:/$()/x", expanded: "https://x", unresolved: []),
        Case(text: "$(MISSING).example.com", expanded: "$(MISSING).example.com", unresolved: ["MISSING"]),
        Case(text: "$(MISSING:default=b.example)", expanded: "b.example", unresolved: []),
        Case(text: "$(NAME:rfc1034identifier)", expanded: "My-App", unresolved: []),
        Case(text: "$(NAME:lower)", expanded: "my app", unresolved: []),
        Case(text: "$(NAME:quote)", expanded: "$(NAME:quote)", unresolved: ["NAME"]),
        Case(text: "no reference", expanded: "no reference", unresolved: []),
    ]

    @Test("references expand, nested too; what is not set stays as written", arguments: cases)
    func expands(_ c: Case) {
        let result = Self.settings.expand(c.text)
        #expect(result.text == c.expanded)
        #expect(result.unresolved == c.unresolved)
    }

    @Test("a setting that refers to itself stops")
    func cycle() {
        #expect(Self.settings.expand("$(SELF)").text.hasSuffix("x"))
    }

    @Test("INFOPLIST_ settings: preprocess, definitions, expansion")
    func infoPlistSettings() {
        let s = BuildSettings([
            "INFOPLIST_PREPROCESS": "YES", "INFOPLIST_PREPROCESSOR_DEFINITIONS": "DEBUG LEVEL=$(L)", "L": "2",
            "INFOPLIST_EXPAND_BUILD_SETTINGS": "NO",
        ])
        #expect(s.preprocess == true)
        #expect(s.preprocessorDefinitions?["LEVEL"]?.value == "2")
        #expect(!s.expandsInfoPlist)
        #expect(BuildSettings().expandsInfoPlist && BuildSettings().preprocess == nil)
        #expect(BuildSettings.parse(assignment: "A = b=c")?.value == " b=c")
        #expect(BuildSettings.parse(assignment: "no-equals") == nil)
    }
}
