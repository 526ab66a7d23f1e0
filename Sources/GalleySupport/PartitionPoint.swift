extension RandomAccessCollection {
    /// The first index at which `isPast` holds, by binary search: `isPast` must be false for a
    /// prefix of the collection and true for the rest (`endIndex` when it never holds). Every
    /// sorted-table lookup of the project (lines, runs, glyphs, anchors, links) is one.
    @inlinable
    public func partitionPoint(where isPast: (Element) throws -> Bool) rethrows -> Index {
        var lo = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let mid = index(lo, offsetBy: half)
            if try isPast(self[mid]) {
                count = half
            } else {
                lo = index(after: mid)
                count -= half + 1
            }
        }
        return lo
    }
}
