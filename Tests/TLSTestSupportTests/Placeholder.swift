import Testing
@Test func placeholderTLSTestSupportTests() { #expect(Bool(true)) }
