import Foundation

/// Two independent pieces of work done at once: one on a thread of its own, the other on the
/// calling thread. Loading the catalog compiles the pack files while the plugins are started
/// and described, so on two cores it takes the longer of the two instead of their sum.
package enum Overlap {
  /// `(here(), elsewhere())`, with `elsewhere` run on a new thread while `here` runs on the
  /// calling one; returns when both are done.
  package static func both<Here, Elsewhere: Sendable>(
    _ here: () -> Here, _ elsewhere: @escaping @Sendable () -> Elsewhere
  ) -> (Here, Elsewhere) {
    let product = Handoff<Elsewhere>(count: 1)
    let thread = Thread { product.put(elsewhere(), at: 0) }
    // The same stack as the main thread's: a plugin loaded in this process runs on this one.
    thread.stackSize = 8 << 20
    thread.start()
    let mine = here()
    return (mine, product.take(at: 0))
  }
}
