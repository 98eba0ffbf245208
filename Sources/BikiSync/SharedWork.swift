/// Items done by whichever threads join in, each taking the next item not yet begun as it
/// finishes one; the outputs keep the items' order. Loading the catalog compiles the pack files
/// on one thread while another starts the plugins, and that one then helps with the packs: on
/// two cores, no core waits while the other has files left. A thread that needs one item's
/// output sooner (a request for a topic before the rest of the catalog is ready) does that
/// item itself if nobody has begun it, and otherwise waits for it.
package final class SharedWork<Item: Sendable, Output: Sendable>: Sendable {
  private let items: [Item]
  private let transform: @Sendable (Item) -> Output
  /// Which items are begun, and the first in order that may not be.
  private let begun: Locked<(items: [Bool], next: Int)>
  private let outputs: Handoff<Output>

  /// Work on `items`, begun in their order.
  package init(_ items: [Item], _ transform: @escaping @Sendable (Item) -> Output) {
    self.items = items
    self.transform = transform
    begun = Locked((Array(repeating: false, count: items.count), 0))
    outputs = Handoff(count: items.count)
  }

  /// Does items until none is left to begin.
  package func help() {
    while let index = claimNext() { outputs.put(transform(items[index]), at: index) }
  }

  private func claimNext() -> Int? {
    begun.withLock { begun in
      while begun.next < begun.items.count, begun.items[begun.next] { begun.next += 1 }
      guard begun.next < begun.items.count else { return nil }
      begun.items[begun.next] = true
      return begun.next
    }
  }

  /// The output of the item at `index`: done on this thread if no thread has begun it, else
  /// waited for. The output stays for `finish`.
  package func output(at index: Int) -> Output {
    let mine = begun.withLock { begun in
      defer { begun.items[index] = true }
      return !begun.items[index]
    }
    if mine { outputs.put(transform(items[index]), at: index) }
    return outputs.value(at: index)
  }

  /// Every output, in the items' order: helps until none is left to begin, then waits for
  /// those other threads are still doing. Called once.
  package func finish() -> [Output] {
    help()
    return items.indices.map { outputs.value(at: $0) }
  }
}
