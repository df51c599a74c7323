import Testing
@Test func placeholderTLSProbeTests() { #expect(Bool(true)) }
