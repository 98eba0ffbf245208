import BikiCore
import BikiPacks
import BikiSync

/// A catalog's packs and plugins as they load (`HostSetup.beginCatalog`). `finish` loads the
/// whole; meanwhile another thread may ask for one pack topic, which is ready as soon as the
/// files that could define it are compiled and the plugins described: a server's first
/// question need not wait for every pack.
package final class CatalogLoading: Sendable {
  private let compiling: PackCompiling
  private let plugins: [String]
  private let isolation: PluginIsolation
  private let pluginPrecedence: @Sendable (String) -> Precedence
  /// The plugins as described, put by `finish` as soon as they are.
  private let loadedPlugins = Awaited<[LoadedPlugin]>()

  init(
    compiling: PackCompiling, plugins: [String], isolation: PluginIsolation,
    pluginPrecedence: @Sendable @escaping (String) -> Precedence
  ) {
    self.compiling = compiling
    self.plugins = plugins
    self.isolation = isolation
    self.pluginPrecedence = pluginPrecedence
  }

  /// The whole load, on this thread and one more, listed as Count Biki did: numbers, money,
  /// durations, dates, counters. Called once.
  package func finish() -> (packs: PackLoad, registry: TopicRegistry) {
    // The plugins are started and described while the packs compile: neither needs the other
    // until topic ids defined twice are settled. They come first on their side, since a topic
    // served early waits for them (`topic`); that side then builds the reading tables the
    // packs' checks need, unless a pack being compiled has already begun them, and compiles
    // pack files beside the other until none is left.
    let (packs, loaded) = Overlap.both(
      { compiling.finish() },
      { [self] in
        let loaded = TopicRegistry.loadPlugins(plugins, isolation: isolation)
        loadedPlugins.put(loaded)
        PackCompiler.prepareTables()
        // Then the packs still waiting to compile, beside the other thread.
        compiling.help()
        return loaded
      })
    var registry = TopicRegistry.load(packs: packs, plugins: loaded, pluginPrecedence: pluginPrecedence)
    // By category, in load order within each: one pass a category, and no copy beside the list.
    var byCategory: [RegisteredTopic] = []
    byCategory.reserveCapacity(registry.topics.count)
    for category in Topic.Category.allCases {
      byCategory += registry.topics.lazy.filter { $0.topic.category == category }
    }
    registry.topics = byCategory
    return (packs, registry)
  }

  /// The pack topic `id` as the whole load will serve it, once the files that could define it
  /// are compiled (`PackCompiling.settling`) and the plugins described; nil when no pack
  /// defines it, or a plugin does too: settling that runs the plugin's code, and it is left to
  /// the whole load. Waits for `finish`, on another thread, to describe the plugins.
  package func topic(_ id: String) -> RegisteredTopic? {
    // The packs first: the plugins are being described meanwhile.
    guard let found = compiling.settling(id).topics.first(where: { $0.topic.topic.id == id }) else { return nil }
    let pluginDefines = loadedPlugins.value.contains { plugin in
      guard case .topics(let topics) = plugin.outcome else { return false }
      return topics.contains { $0.topic.id == id }
    }
    return pluginDefines ? nil : RegisteredTopic(found.topic, source: found.path)
  }
}
