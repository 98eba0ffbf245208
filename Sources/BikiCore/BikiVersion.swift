/// Biki's version: what `--version` prints and what plugins are told in `biki_host_t`.
package enum BikiVersion {
  package static let current = "0.1.0"
}
