/// Biki's version: what `--version` prints and what plugins are told in `biki_host_t`.
public enum BikiVersion {
  public static let current = "0.1.0"
}
