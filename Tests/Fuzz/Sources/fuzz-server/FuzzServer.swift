import BikiHost
import BikiJSON
import BikiPacks
import BikiPractice
import BikiProtocol
import BikiServer
import Foundation
import FuzzDriver

/// Any bytes from a client, through the whole server as `biki serve` runs it: the real clock,
/// work on real threads that wake the loop, the built-in packs, and the C sample plugin loaded
/// for real. Beyond "no crash": every request read gets exactly one response, once the work it
/// waits for is done.
@main enum Target {
  static func main() {
    keptForTheProcess { _ = catalog() }
    runFuzzer(fuzzServer)
  }
}

/// Loaded once per process: the built-in packs and the calendar plugin, built with `cc`.
let catalog: @Sendable () -> Catalog = {
  let repository = repositoryRoot
  let loader = PackLoader(fileSystem: .live)
  let packs = loader.load(
    files: (try? loader.packFiles(in: [repository + "/TopicPacks"], requireExistence: true)) ?? [])
  var plugins: [String] = []
  let library = NSTemporaryDirectory() + "biki-fuzz-calendar-\(getpid()).so"
  let compile = Process()
  compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  compile.arguments = [
    "cc", "-std=c99", "-shared", "-fPIC", "-I", repository + "/Sources/BikiPluginABI/include",
    repository + "/Plugins/calendar-c/calendar.c",
    "-o", library,
  ]
  if (try? compile.run()) != nil {
    compile.waitUntilExit()
    if compile.terminationStatus == 0 { plugins.append(library) }
  }
  let registry = TopicRegistry.load(packs: packs, plugins: plugins, isolation: .inProcess)
  let loaded = Catalog(registry: registry, packs: packs)
  return { loaded }
}()

func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = bytes(data, size)
  guard let first = bytes.first, let wake = WakeSignal() else { return 0 }
  let dependencies = ServerDependencies(
    loadCatalog: catalog, packStamp: { "fixed" }, history: .memory(), now: monotonicSeconds,
    wallClock: { 1_800_000_000 },
    seeds: .constant(7), readingCheck: .sample(8), background: .threads(waking: wake))
  var endpoint = Endpoint(server: BikiServer(version: "fuzz", dependencies: dependencies))
  var framer = MessageFramer(maximumBody: 1 << 16)
  var requests: [RequestID?: Int] = [:]
  var responses: [RequestID?: Int] = [:]
  func count(_ sent: [OutgoingMessage]) {
    for message in sent {
      switch message {
      case .result(let id, _), .error(let id, _): responses[id, default: 0] += 1
      case .notification, .request: break
      }
    }
  }
  // The first byte sets the chunk size, so messages are split across reads as pipes split them.
  let chunk = 1 + Int(first % 61)
  var index = 1
  reading: while index < bytes.count {
    let end = min(bytes.count, index + chunk)
    var queue = MessageQueue()
    for entry in MessageQueue.entries(for: framer.feed(bytes[index..<end]), maximumBody: framer.maximumBody) {
      queue.push(entry)
    }
    index = end
    for entry in queue.takeAll() {
      switch entry {
      case .message(let message):
        if case .request(let id, _, _) = message { requests[id, default: 0] += 1 }
        if case .invalid(let id, _) = message { requests[id, default: 0] += 1 }
        count(endpoint.receive(message))
      case .cancelled(let id):
        requests[id, default: 0] += 1
        count([Endpoint<BikiServer>.cancelled(id)])
      case .contentModified(let id):
        requests[id, default: 0] += 1
        count([Endpoint<BikiServer>.contentModified(id)])
      case .end: break
      }
      if endpoint.exitStatus != nil { break reading }
    }
    if let deadline = endpoint.nextDeadline, monotonicSeconds() >= deadline {
      count(endpoint.tick(now: monotonicSeconds()))
    }
  }
  // Work still running off the loop: wait for it as the connection does (plugin calls are bounded).
  let giveUp = monotonicSeconds() + 10
  while endpoint.isWaitingForWork && monotonicSeconds() < giveUp {
    var ready = pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&ready, 1, 50)
    wake.drain()
    count(endpoint.tick(now: monotonicSeconds()))
  }
  guard !endpoint.isWaitingForWork else { fatalError("requests still waited for work 10 s after the input ended") }
  if endpoint.exitStatus == nil {
    for (id, sent) in requests where responses[id, default: 0] != sent {
      fatalError(
        "request \(String(describing: id)) was read \(sent) time(s) and answered \(responses[id, default: 0]) time(s)")
    }
  }
  return 0
}
