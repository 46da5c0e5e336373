/// The members or elements of the containers a parser is reading, innermost last. When a
/// container closes its elements are moved out into an array of exactly their number: no
/// element is copied (retained) and released again on the way, which is what an `Array`
/// used as a stack costs when its tail is copied out and then removed.
final class PendingStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements pending.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Adds an element on top.
    func push(_ element: consuming Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from index `first` to the top out, in order.
    func take(from first: Int) -> [Element] {
        let taken = count - first
        let elements = [Element](unsafeUninitializedCapacity: taken) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: storage + first, count: taken)
            initialized = taken
        }
        count = first
        return elements
    }

    /// Drops the elements from index `first` to the top (a container that failed to parse).
    func discard(from first: Int) {
        guard count > first else { return }
        (storage + first).deinitialize(count: count - first)
        count = first
    }
}
