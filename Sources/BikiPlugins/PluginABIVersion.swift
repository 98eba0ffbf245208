import BikiCore
import BikiPluginABI

/// A version of the plugin ABI, major.minor: the one a host speaks, or the one a plugin needs.
/// A minor only adds to its major, so a host loads every plugin of its major whose minor it
/// reaches; a major is a break, and a host loads only its own.
package struct PluginABIVersion: Comparable, CustomStringConvertible, Sendable {
  package let major: UInt32
  package let minor: UInt32

  package init(major: UInt32, minor: UInt32) {
    self.major = major
    self.minor = minor
  }

  /// The version this host speaks: the header it was built with.
  package static let host = PluginABIVersion(
    major: UInt32(BIKI_PLUGIN_ABI_VERSION), minor: UInt32(BIKI_PLUGIN_ABI_MINOR))

  package var description: String { "\(major).\(minor)" }

  /// The versions of plugins this host loads, as `--version` and refusals put it.
  package static var loaded: String { "plugins built for \(host.major).0 to \(host)" }

  /// What `biki --version` and `biki-pack --version` print: Biki's version, then the plugin
  /// ABI it speaks and the plugins it loads, as Tree-sitter publishes the range it loads.
  package static var versionLine: String { "\(BikiVersion.current) (plugin ABI \(host); loads \(loaded))" }

  package static func < (left: PluginABIVersion, right: PluginABIVersion) -> Bool {
    (left.major, left.minor) < (right.major, right.minor)
  }
}

/// A plugin's descriptor as far as its `size` covers it: fields beyond are zero, as a plugin
/// built against an older header has none of them (its static descriptor ends before them, so
/// they are never read from its memory).
struct DescriptorCopy {
  let fields: biki_plugin_descriptor_t
  /// The minor version the plugin needs: 0 when its descriptor ends before `abi_minor`.
  let neededMinor: UInt32

  init(_ pointer: UnsafePointer<biki_plugin_descriptor_t>, size: UInt32) {
    var fields = biki_plugin_descriptor_t()
    let count = min(Int(size), MemoryLayout<biki_plugin_descriptor_t>.size)
    withUnsafeMutableBytes(of: &fields) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: count)) }
    self.fields = fields
    let minorEnd = MemoryLayout<biki_plugin_descriptor_t>.offset(of: \.abi_minor).map { $0 + 4 } ?? Int.max
    self.neededMinor = Int(size) >= minorEnd ? fields.abi_minor : 0
  }
}
