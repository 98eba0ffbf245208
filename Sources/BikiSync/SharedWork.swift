/// Items done by whichever threads join in, each taking the next item not yet begun as it
/// finishes one; the outputs keep the items' order. Loading the catalog compiles the pack files
/// on one thread while another starts the plugins, and that one then helps with the packs: on
/// two cores, no core waits while the other has files left.
package final class SharedWork<Item: Sendable, Output: Sendable>: Sendable {
  private let items: [Item]
  private let transform: @Sendable (Item) -> Output
  private let next = Locked(0)
  private let outputs: Handoff<Output>

  /// Work on `items`, begun in their order.
  package init(_ items: [Item], _ transform: @escaping @Sendable (Item) -> Output) {
    self.items = items
    self.transform = transform
    outputs = Handoff(count: items.count)
  }

  /// Does items until none is left to begin.
  package func help() {
    while true {
      let taken = next.withLock { taken in
        defer { taken += 1 }
        return taken
      }
      guard taken < items.count else { return }
      outputs.put(transform(items[taken]), at: taken)
    }
  }

  /// Every output, in the items' order: helps until none is left to begin, then waits for
  /// those other threads are still doing. Called once.
  package func finish() -> [Output] {
    help()
    return items.indices.map { outputs.take(at: $0) }
  }
}
