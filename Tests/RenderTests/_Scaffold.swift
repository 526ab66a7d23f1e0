import Testing

@Test func scaffold() {}
