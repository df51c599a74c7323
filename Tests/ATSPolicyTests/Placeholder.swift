import Testing
@Test func placeholderATSPolicyTests() { #expect(Bool(true)) }
