import BikiJSON
import Foundation

/// How soon a cancelled request is answered: `biki/generate` for 1,000 questions of the
/// sample plugin's topic (made in its worker, one at a time), cancelled 5 ms after it was sent.
/// Each figure is from the `$/cancelRequest` written to its -32800 read, over 40 requests, the
/// first of which meets a cold worker.
struct CancelBench {
  let server: ServerBench

  func run(seconds: () -> Double) throws -> [String] {
    let running = try server.started()
    defer { running.stop() }
    var waits: [Double] = []
    var finishedFirst = 0
    for id in 1...40 {
      running.send(
        ServerBench.request(id, "biki/generate", #"{"topicId":"prices.man-yen","seed":\#(id),"count":1000}"#))
      Thread.sleep(forTimeInterval: 0.005)
      let cancelled = seconds()
      running.send(ServerBench.frame(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(id)}}"#))
      while true {
        let body = running.receive()
        guard let message = try? JSONParser.value(body), message["id"]?.integerValue == Int64(id) else { continue }
        if message["error"]?["code"]?.integerValue == -32800 {
          waits.append((seconds() - cancelled) * 1000)
        } else {
          finishedFirst += 1
        }
        break
      }
    }
    guard !waits.isEmpty else { throw BenchFailure("serve.cancel: every request finished before its cancel") }
    let spread = Spread(waits)
    return [
      String(
        format:
          "serve.cancel: p95 %.2f ms from $/cancelRequest to its -32800 answer (median %.2f, worst %.2f)  (target ≤ 50 ms: %@)  [biki/generate of 1,000 plugin questions, cancelled after 5 ms; %d of 40 cancelled, %d finished first]",
        spread.p95, spread.median, spread.high, spread.high <= 50 ? "met" : "NOT met", waits.count, finishedFirst)
    ]
  }
}
