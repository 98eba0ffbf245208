import BikiHost
import BikiJSON
import BikiPacks
import BikiPractice
import BikiProtocol
import BikiServer
import Foundation
import FuzzDriver

/// The proof that a request read straight from its bytes is the request the parser reads
/// (issue 50): any body the fast reader takes must classify as the tree does, and the server
/// must answer both alike, field for field, through its own reading of the params (`Params` on
/// the client's text, `PlainGenerate`). A difference stops the run with both answers.
@main enum Target {
  static func main() {
    keptForTheProcess { _ = catalog() }
    runFuzzer(fuzzRequest)
  }
}

/// The built-in packs, loaded once per process.
let catalog: @Sendable () -> Catalog = {
  let repository = repositoryRoot
  let loader = PackLoader(fileSystem: .live)
  let packs = loader.load(
    files: (try? loader.packFiles(in: [repository + "/TopicPacks"], requireExistence: true)) ?? [])
  let loaded = Catalog(registry: TopicRegistry.load(packs: packs, plugins: [], isolation: .inProcess), packs: packs)
  return { loaded }
}()

let initialize = IncomingMessage.parseTree(
  Array(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#.utf8))

/// What a fresh server sends for `message`, after `initialize`.
func answer(_ message: IncomingMessage) -> [JSON] {
  let dependencies = ServerDependencies(
    loadCatalog: catalog, packStamp: { "fixed" }, history: .memory(), now: { 100 }, wallClock: { 1_800_000_000 },
    seeds: .constant(7), readingCheck: .sample(8), background: .immediate)
  var endpoint = Endpoint(server: BikiServer(version: "fuzz", dependencies: dependencies))
  _ = endpoint.receive(initialize)
  return endpoint.receive(message).map(\.json)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let body = bytes(data, size)
  let tree = IncomingMessage.parseTree(body)
  guard let fast = IncomingMessage.readRequest(body) else { return 0 }
  guard fast == tree else { fatalError("read as \(fast), parsed as \(tree)") }
  let (fastAnswer, treeAnswer) = (answer(fast), answer(tree))
  guard fastAnswer == treeAnswer else {
    fatalError("answered \(fastAnswer.map(\.serialized)) from the bytes, \(treeAnswer.map(\.serialized)) from the tree")
  }
  return 0
}
