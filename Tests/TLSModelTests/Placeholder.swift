import Testing
@Test func placeholderTLSModelTests() { #expect(Bool(true)) }
