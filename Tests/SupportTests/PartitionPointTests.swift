import GalleySupport
import Testing

@Suite struct PartitionPointTests {
    // The first index where the predicate holds, for every split of a sorted array, and
    // endIndex when it never holds.
    @Test func everySplit() {
        let sorted = [1, 3, 3, 5, 8, 13]
        for x in 0...14 {
            #expect(sorted.partitionPoint { $0 > x } == (sorted.firstIndex { $0 > x } ?? sorted.endIndex), "\(x)")
        }
        #expect([Int]().partitionPoint { $0 > 0 } == 0)
    }

    // On a slice, indices are the base collection's.
    @Test func sliceIndices() {
        let values = [0, 10, 20, 30, 40, 50]
        #expect(values[2..<5].partitionPoint { $0 >= 35 } == 4)
        #expect(values[2..<5].partitionPoint { $0 >= 100 } == 5)
        #expect(values[2..<5].partitionPoint { _ in true } == 2)
    }
}
