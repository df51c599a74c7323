import Testing
@Test func placeholderATSCheckKitTests() { #expect(Bool(true)) }
