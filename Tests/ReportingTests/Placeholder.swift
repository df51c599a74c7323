import Testing
@Test func placeholderReportingTests() { #expect(Bool(true)) }
