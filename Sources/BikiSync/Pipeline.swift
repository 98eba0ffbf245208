import Foundation

/// Work in chunks with its two halves overlapped: one thread makes each chunk's product while
/// the calling thread consumes the chunk before. A plugin's questions are made by its worker
/// process (or its library) and checked by the host; on two cores, a batch of them takes the
/// longer of the two instead of their sum.
package enum Pipeline {
  /// `consume(produce(chunk))` for each chunk of `items`, in order, joined. `produce` runs on a
  /// thread of its own, one chunk after another and never two at once; `consume` runs on the
  /// calling thread. No more items than one chunk holds are done on the calling thread alone.
  package static func map<Item: Sendable, Product: Sendable, Output>(
    _ items: [Item], chunkSize: Int, produce: @escaping @Sendable ([Item]) -> Product,
    consume: ([Item], Product) -> [Output]
  ) -> [Output] {
    let size = max(1, chunkSize)
    guard items.count > size else { return items.isEmpty ? [] : consume(items, produce(items)) }
    let chunks = stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min($0 + size, items.count)]) }
    let products = Handoff<Product>(count: chunks.count)
    let producer = Thread {
      for (index, chunk) in chunks.enumerated() { products.put(produce(chunk), at: index) }
    }
    // The same stack as the main thread's: a plugin loaded in this process runs on this one.
    producer.stackSize = 8 << 20
    producer.start()
    var output: [Output] = []
    output.reserveCapacity(items.count)
    for (index, chunk) in chunks.enumerated() {
      output += consume(chunk, products.take(at: index))
    }
    return output
  }
}

/// Products passed from the producing thread to the consuming one, each taken once. The
/// condition's mutex orders every put before its take (and ThreadSanitizer sees it do so).
final class Handoff<Product: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var slots: [Product?]

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func put(_ product: Product, at index: Int) {
    condition.lock()
    slots[index] = product
    condition.broadcast()
    condition.unlock()
  }

  /// The product at `index` once it is put, left in place for other readers.
  func value(at index: Int) -> Product {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let product = slots[index] { return product }
      condition.wait()
    }
  }

  func take(at index: Int) -> Product {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let product = slots[index] {
        slots[index] = nil
        return product
      }
      condition.wait()
    }
  }
}

/// A value put once by one thread and read by any number, each waiting until it is there:
/// start-up's plugins, loaded on one thread, are wanted by a request served on another
/// before the rest of the catalog is ready.
package final class Awaited<Value: Sendable>: Sendable {
  private let slot = Handoff<Value>(count: 1)

  package init() {}

  /// Called once.
  package func put(_ value: Value) { slot.put(value, at: 0) }

  /// The value, waited for until it is put.
  package var value: Value { slot.value(at: 0) }
}
