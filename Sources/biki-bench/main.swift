// `biki-bench`: speed figures for docs/performance.md. Run in release:
//   swift run -c release biki-bench [--filter NAME] [--seconds S]
import BikiCore
import BikiHost
import BikiJSON
import BikiJapanese
import BikiPacks
import BikiPluginABI
import BikiPlugins
import BikiProtocol
import Foundation

// The plugin benchmarks start workers from this same executable.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == PluginWorker.flag {
  exit(PluginWorker.run(path: CommandLine.arguments[2]))
}

var options = BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
// The checkout the packs come from, for the commit every report is stamped with.
let repositoryRoot = Installation.locate(
  executable: TopicRegistry.ownExecutable, environment: ProcessInfo.processInfo.environment, fileSystem: .live
).packs
  .map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
print(BenchStamp.line(repository: repositoryRoot))

if options.compare {
  // The references ship beside the repository (../shared/bench), or where BIKI_BENCH_REFERENCES says.
  let environment = ProcessInfo.processInfo.environment
  let references = environment["BIKI_BENCH_REFERENCES"] ?? repositoryRoot.map { $0 + "/../shared/bench" } ?? ""
  guard FileManager.default.fileExists(atPath: references + "/lspbench.c") else {
    FileHandle.standardError.write(
      Data(
        "Error: compare: no lspbench.c in '\(references)'; set BIKI_BENCH_REFERENCES to the directory with floor_server.c and lspbench.c\n"
          .utf8))
    exit(66)
  }
  let biki = URL(fileURLWithPath: TopicRegistry.ownExecutable).deletingLastPathComponent().appendingPathComponent(
    "biki"
  ).path
  do {
    for line in try CompareBench(biki: biki, references: references).run() { print(line) }
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("Error: compare: \(error)\n".utf8))
    exit(1)
  }
}
// The speed tricks, each against the plain way it replaced, held to the floors CI records.
if options.filter?.hasPrefix("tricks") == true {
  let baseline =
    ProcessInfo.processInfo.environment["BIKI_BENCH_BASELINE"] ?? repositoryRoot.map { $0 + "/.ci/bench-baseline" }
    ?? ""
  guard let text = try? String(contentsOfFile: baseline, encoding: .utf8) else {
    FileHandle.standardError.write(Data("Error: tricks: cannot read the baseline '\(baseline)'\n".utf8))
    exit(66)
  }
  let (lines, met) = TricksBench.run(
    seconds: options.seconds, floors: TricksBench.floors(in: text), selects: options.selects)
  for line in lines { print(line) }
  exit(met ? 0 : 1)
}
let benchmarks: [Benchmark] = [
  Benchmark(
    name: "readings.integers", unit: "readings/s", target: 2_000_000,
    note: "random integers below 10^16, standard reading spelled"
  ) {
    var random = SeededRandom(seed: 1)
    let inputs = (0..<65_536).map { _ in UInt128(random.next() % 10_000_000_000_000_000) }
    return { iteration in
      let reading = try! JapaneseNumber.reading(of: inputs[iteration & 65_535])
      return reading.standard.utf8.count
    }
  },
  Benchmark(
    name: "readings.counters", unit: "readings/s", target: 2_000_000,
    note: "random 1–10,000 with a random built-in counter"
  ) {
    var random = SeededRandom(seed: 2)
    let counters = CounterCatalog.standard.counters.filter { $0.validValues == nil }
    let inputs = (0..<65_536).map { _ in
      (UInt128(random.next() % 10_000 + 1), counters[Int(random.next() % UInt64(counters.count))])
    }
    return { iteration in
      let (value, counter) = inputs[iteration & 65_535]
      return try! JapaneseNumber.reading(of: value, with: counter).standard.utf8.count
    }
  },
  Benchmark(name: "readings.phrases", unit: "phrases/s", target: nil, note: "biki read's parser on mixed phrases") {
    let phrases = ["8本", "¥1,500", "令和元年", "午後4時", "9時30分", "2024年5月5日", "三百五十", "1時間30分"]
    let reader = PhraseReader()
    return { iteration in try! reader.read(phrases[iteration & 7]).standard.utf8.count }
  },
  // What `biki serve` does with every request before and after its handler: the pipelined
  // `biki/generate` figure in --compare is these two and the handler.
  Benchmark(
    name: "protocol.read-request", unit: "requests/s", target: nil,
    note: "a biki/generate body classified and its three fields read, as the server reads them"
  ) {
    let bodies = (0..<1_024).map { seed in
      Array(
        #"{"jsonrpc":"2.0","id":\#(seed),"method":"biki/generate","params":{"topicId":"numbers.beginner","seed":\#(seed),"count":1}}"#
          .utf8)
    }
    return { iteration in
      guard case .request(_, let method, let params?) = IncomingMessage.parse(bodies[iteration & 1_023]),
        let topic = params["topicId"]?.stringValue, let seed = params["seed"]?.integerValue,
        let count = params["count"]?.integerValue, params["params"] == nil
      else { throw BenchFailure("the request was not read") }
      return method.utf8.count &+ topic.utf8.count &+ Int(seed) &+ Int(count)
    }
  },
  Benchmark(
    name: "protocol.write-response", unit: "responses/s", target: nil,
    note: "a biki/generate answer of written bytes framed into the output, 64 responses to a buffer"
  ) {
    let answer = JSON.written(
      Array(
        #"{"questions":[{"topicId":"numbers.beginner","index":"17","display":"四百二十","speechText":"四百二十","expected":"420","readings":["よんひゃくにじゅう"],"accepted":["420"]}]}"#
          .utf8))
    var output: [UInt8] = []
    var writer = JSONWriter()
    return { iteration in
      if iteration & 63 == 0 { output.removeAll(keepingCapacity: true) }
      OutgoingMessage.result(id: .number(Int64(iteration)), answer).frame(into: &output, using: &writer)
      return output.count
    }
  },
]

for benchmark in benchmarks where options.selects(benchmark.name) {
  print(benchmark.run(seconds: options.seconds))
}

// Built-in packs: loading and validating them all, then each topic's generation rate.
guard
  let builtIn = Installation.locate(
    executable: TopicRegistry.ownExecutable, environment: ProcessInfo.processInfo.environment, fileSystem: .live
  ).packs
else {
  print("packs: TopicPacks not found (set BIKI_BUILTIN_PACKS)")
  exit(1)
}
let loader = PackLoader(fileSystem: .live)
let files = try loader.packFiles(in: [builtIn], requireExistence: true)
if options.selects("packs.load") {
  let clock = ContinuousClock()
  var times: [Double] = []
  var topicCount = 0
  for _ in 0..<20 {
    let start = clock.now
    let load = loader.load(files: files)
    let elapsed = start.duration(to: clock.now)
    times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    guard load.packs.allSatisfy({ $0.compilation.diagnostics.allSatisfy { $0.severity != .error } }) else {
      FileHandle.standardError.write(
        Data("Error: packs.load: a built-in pack failed to load, so nothing is measured\n".utf8))
      exit(1)
    }
    topicCount = load.topics.count
  }
  let spread = Spread(times)
  let verdict = spread.median < 20 ? "met" : "NOT met"
  print(
    "packs.load: \(String(format: "%.2f", spread.median)) ms median (\(String(format: "%.2f", spread.low))–\(String(format: "%.2f", spread.high)))  (target < 20 ms: \(verdict))  [read, parse, validate and compile \(files.count) packs, \(topicCount) topics; 20 loads]"
  )
}
let topics = loader.load(files: files).topics.map(\.topic)
for compiled in topics where options.selects("questions." + compiled.topic.id) || options.filter == "topics" {
  let generator = try compiled.generator()
  let target: Double? = compiled.topic.category == .number ? 1_000_000 : nil
  let benchmark = Benchmark(
    name: "questions.\(compiled.topic.id)", unit: "questions/s", target: target, note: "\(generator.spaceSize) possible"
  ) {
    { iteration in try! generator.question(seed: UInt64(iteration)).display.utf8.count }
  }
  print(benchmark.run(seconds: min(options.seconds, 0.3)))
}

// Native plugins: the samples built next to this executable (`swift build -c release` builds them).
let benchDirectory = URL(fileURLWithPath: TopicRegistry.ownExecutable).deletingLastPathComponent().path
let seconds = MonotonicClock.live()
for (name, library, topic) in [("c", "libbiki-calendar.so", "eras"), ("swift", "libbiki-prices.so", "man-yen")]
where options.selects("plugins.\(name)") {
  let path = benchDirectory + "/" + library
  guard FileManager.default.fileExists(atPath: path) else {
    print("plugins.\(name): \(path) not built; run `swift build -c release` first")
    continue
  }
  let inProcess = try PluginLibrary(path: path)
  // A benchmark whose operation fails reports the failure and stops: no failed call is
  // counted as throughput.
  do {
    _ = try inProcess.generate(topic: topic, parameters: [:], seed: 1)
    _ = try PluginTopics.question(
      try inProcess.generate(topic: topic, parameters: [:], seed: 1), topicID: "\(inProcess.id).\(topic)", seed: 1,
      path: path, displayReadings: DisplayReadings())
  } catch {
    FileHandle.standardError.write(
      Data("Error: plugins.\(name): the plugin's questions fail, so nothing is measured: \(error)\n".utf8))
    exit(1)
  }
  let rawRate = Benchmark(
    name: "plugins.\(name).abi-call", unit: "calls/s", target: nil, note: "PluginLibrary.generate: writer, lock, copy"
  ) {
    { iteration in try inProcess.generate(topic: topic, parameters: [:], seed: UInt64(iteration % 100)).count }
  }
  print(rawRate.run(seconds: options.seconds))
  // Checking what a plugin wrote, alone: the same 100 questions, pre-generated.
  let written = try (0..<100).map { try inProcess.generate(topic: topic, parameters: [:], seed: UInt64($0)) }
  let fullID = "\(inProcess.id).\(topic)"
  let displayReadings = DisplayReadings()
  print(
    Benchmark(
      name: "plugins.\(name).validate", unit: "questions/s", target: nil,
      note: "PluginTopics.question on written output, displays remembered"
    ) {
      { iteration in
        try PluginTopics.question(
          written[iteration % 100], topicID: fullID, seed: 0, path: path, displayReadings: displayReadings
        ).display.utf8.count
      }
    }.run(seconds: options.seconds))
  let directCall = try DirectCall(path: path, topic: topic)
  let direct = Benchmark(
    name: "plugins.\(name).direct-call", unit: "calls/s", target: nil,
    note: "the same generate function pointer, minimal writer"
  ) {
    directCall.call
  }
  print(direct.run(seconds: options.seconds))
  let topics = try PluginTopics(backend: .inProcess(path))
  let generator = try topics.generator(for: topics.topics.first { $0.id.hasSuffix("." + topic) }!)
  print(
    Benchmark(
      name: "plugins.\(name).in-process", unit: "questions/s", target: nil, note: "validated questions, in this process"
    ) {
      { iteration in try generator.question(seed: UInt64(iteration)).display.utf8.count }
    }.run(seconds: options.seconds))

  let isolated = IsolatedPlugin(
    path: path, spawner: .live(executable: TopicRegistry.ownExecutable, now: seconds), now: seconds)
  let isolatedTopics = try PluginTopics(backend: .isolated(isolated))
  let isolatedGenerator = try isolatedTopics.generator(
    for: isolatedTopics.topics.first { $0.id.hasSuffix("." + topic) }!)
  print(
    Benchmark(
      name: "plugins.\(name).isolated-single", unit: "questions/s", target: nil, note: "one round trip per question"
    ) {
      { iteration in try isolatedGenerator.question(seed: UInt64(iteration)).display.utf8.count }
    }.run(seconds: options.seconds))
  // Batches of 1,000: the figure per question.
  var rates: [Double] = []
  let deadline = seconds() + options.seconds
  var batchNumber: UInt64 = 0
  // At least one batch, however short the time given: a figure of no batches is none.
  while seconds() < deadline || rates.isEmpty {
    let seeds = (0..<UInt64(1000)).map { $0 + batchNumber * 1000 }
    let start = seconds()
    let results = isolatedGenerator.questions(seeds: seeds)
    let elapsed = seconds() - start
    if case .failure(let error)? = results.first(where: { if case .failure = $0 { true } else { false } }) {
      FileHandle.standardError.write(
        Data("Error: plugins.\(name).isolated-batched: a question failed, so nothing is measured: \(error)\n".utf8))
      exit(1)
    }
    rates.append(Double(results.count) / elapsed)
    batchNumber += 1
  }
  let batched = Spread(rates)
  print(
    "plugins.\(name).isolated-batched: \(Int(batched.median)) questions/s median (\(Int(batched.low))–\(Int(batched.high)))  (target ≥ 200000: \(batched.median >= 200_000 ? "met" : "NOT met"))  [batches of 1,000, validated]"
  )
  // Worker start: spawn, load, describe, answered.
  var starts: [Double] = []
  for _ in 0..<20 {
    let start = seconds()
    _ = try IsolatedPlugin(
      path: path, spawner: .live(executable: TopicRegistry.ownExecutable, now: seconds), now: seconds
    ).describe()
    starts.append(seconds() - start)
  }
  let start = Spread(starts)
  print(
    "plugins.\(name).worker-start: \(String(format: "%.2f", start.median * 1000)) ms median (\(String(format: "%.2f", start.low * 1000))–\(String(format: "%.2f", start.high * 1000)))  (target < 10 ms: \(start.median < 0.010 ? "met" : "NOT met"))  [spawn, load, describe; 20 starts]"
  )
}

if options.selects("startup.hashing") {
  let libraries = ["libbiki-calendar.so", "libbiki-prices.so"].map { benchDirectory + "/" + $0 }.filter {
    FileManager.default.fileExists(atPath: $0)
  }
  for line in StartupHashBench(files: files, plugins: libraries, executable: TopicRegistry.ownExecutable).run() {
    print(line)
  }
}

// Packs written to cost the compiler: each compiled at size n and 2n, so the ratio shows the
// work grows linearly (about 2×), where it used to be quadratic or worse.
if options.selects("packs.hostile") {
  func topicPack(variables: String, part: String = #"{"number": "n"}"#, answer: String = "n") -> [UInt8] {
    Array(
      #"{"format": 1, "id": "h", "title": "H", "version": "1", "topics": [{"id": "t", "title": "T", "description": "d", "category": "number", "skills": ["reading"], "variables": {\#(variables)}, "question": {"parts": [\#(part)], "answer": {"value": "\#(answer)"}}}]}"#
        .utf8)
  }
  let cases: [(name: String, make: (Int) -> [UInt8])] = [
    (
      "chained-derives",
      { size in
        topicPack(
          variables: (1...size).reversed().map { #""v\#($0)": {"derive": "v\#($0 - 1) + 1"}"# }.joined(separator: ",")
            + #", "v0": {"range": {"min": 1, "max": 10}}"#,
          part: #"{"number": "v\#(size)"}"#, answer: "v\(size)")
      }
    ),
    (
      "undefined-names",
      { size in
        topicPack(
          variables: #""n": {"range": {"min": 1, "max": 10}}, "#
            + (0..<size).map { #""v\#($0)": {"derive": "missing\#($0)"}"# }.joined(separator: ","))
      }
    ),
    (
      "wide-topics",
      { size in
        let topic =
          #"{"id": "t%d", "title": "T", "description": "d", "category": "number", "skills": ["reading"], "variables": {"n": {"range": {"min": 0, "max": 1000000000000}}}, "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}"#
        return Array(
          (#"{"format": 1, "id": "h", "title": "H", "version": "1", "topics": ["#
            + (0..<size).map { String(format: topic, $0) }.joined(separator: ",") + "]}").utf8)
      }
    ),
    (
      "many-objects",
      { size in
        // Each thing counted once, so the reading check grows with them too (lint checks all).
        let objects = (0..<size).map { #"{"name": "物\#($0)", "reading": "もの", "counters": ["個"]}"# }.joined(
          separator: ",")
        let names = (0..<size).map { "\"物\($0)\"" }.joined(separator: ",")
        return Array(
          (#"{"format": 1, "id": "h", "title": "H", "version": "1", "objects": ["# + objects
            + #"], "topics": [{"id": "t", "title": "T", "description": "d", "category": "counter", "skills": ["counter"], "variables": {"o": {"objects": ["#
            + names
            + #"]}, "n": {"range": {"min": 1, "max": 1}}}, "question": {"parts": [{"number": "n", "counter": "o"}], "answer": {"value": "n"}}}]}"#)
            .utf8)
      }
    ),
  ]
  for (name, make) in cases {
    let sizes = name == "wide-topics" ? (500, 1000) : name == "many-objects" ? (20_000, 40_000) : (1500, 3000)
    var times: [Double] = []
    for size in [sizes.0, sizes.1] {
      let bytes = make(size)
      var runs: [Double] = []
      for _ in 0..<3 {
        let start = seconds()
        let compilation = PackCompiler.compile(bytes)
        runs.append(seconds() - start)
        guard compilation.pack != nil else { fatalError("packs.hostile.\(name): the pack did not decode") }
      }
      times.append(runs.sorted()[1])
    }
    let ratio = times[1] / times[0]
    print(
      "packs.hostile.\(name): \(String(format: "%.1f", times[0] * 1000)) ms at \(sizes.0), \(String(format: "%.1f", times[1] * 1000)) ms at \(sizes.1): \(String(format: "%.2f", ratio))× for twice the size  (target ≤ 2.5×: \(ratio <= 2.5 ? "met" : "NOT met"))  [median of 3, lint's thorough check]"
    )
  }
}

if options.selects("learner") {
  // A topic with many forms: counters mixed (本 匹 杯 個 冊 枚 台 回 階 人 …, 1–10).
  guard let mixed = topics.first(where: { $0.topic.id == "counters.mixed" }), let generator = try? mixed.generator()
  else {
    FileHandle.standardError.write(Data("Error: learner: counters.mixed is not loaded\n".utf8))
    exit(1)
  }
  for line in LearnerBench(generator: generator).run() { print(line) }
}

if options.selects("fit") {
  for line in FitBench().run() { print(line) }
}

if options.selects("speech") {
  let sayer = URL(fileURLWithPath: TopicRegistry.ownExecutable).deletingLastPathComponent().appendingPathComponent(
    "biki"
  ).path
  for line in SpeechBench(biki: sayer).run() { print(line) }
}

if options.selects("history") {
  let executable = benchDirectory + "/biki"
  if FileManager.default.isExecutableFile(atPath: executable) {
    for line in try HistoryBench(executable: executable).run() { print(line) }
  } else {
    print("history: \(executable) not built; run `swift build -c release` first")
  }
}

if options.selects("serve") {
  let executable = benchDirectory + "/biki"
  if FileManager.default.isExecutableFile(atPath: executable) {
    for line in try ServerBench(executable: executable).run(seconds: seconds) { print(line) }
  } else {
    print("serve: \(executable) not built; run `swift build -c release` first")
  }
}

if options.selects("serve.cancel") {
  let executable = benchDirectory + "/biki"
  if FileManager.default.isExecutableFile(atPath: executable),
    FileManager.default.fileExists(atPath: benchDirectory + "/libbiki-prices.so")
  {
    for line in try CancelBench(server: ServerBench(executable: executable)).run(seconds: seconds) { print(line) }
  } else {
    print("serve.cancel: biki and the sample plugins not built beside biki-bench; run `swift build -c release` first")
  }
}

// Not in a plain run: it writes 40 MB of packs and checks every one of their topics.
if options.filter == "serve.many-topics" {
  let executable = benchDirectory + "/biki"
  if FileManager.default.isExecutableFile(atPath: executable) {
    for line in try ManyTopicsBench(executable: executable).run(seconds: seconds) { print(line) }
  } else {
    print("serve.many-topics: \(executable) not built; run `swift build -c release` first")
  }
}

if options.selects("serve.memory.open-packs") {
  let executable = benchDirectory + "/biki"
  if FileManager.default.isExecutableFile(atPath: executable) {
    for line in try OpenPacksBench(executable: executable).run() { print(line) }
  } else {
    print("serve.memory.open-packs: \(executable) not built; run `swift build -c release` first")
  }
}

if options.selects("serve.latency") {
  let executable = benchDirectory + "/biki"
  let packTool = benchDirectory + "/biki-pack"
  if let repository = repositoryRoot, FileManager.default.isExecutableFile(atPath: executable),
    FileManager.default.isExecutableFile(atPath: packTool)
  {
    for line in try LatencyBench(executable: executable, packTool: packTool, repository: repository).run(
      seconds: seconds)
    { print(line) }
  } else {
    print(
      "serve.latency: biki and biki-pack not built beside biki-bench, or the repository not found; run `swift build -c release` first"
    )
  }
}

/// Calls a plugin's generate function pointer with the least possible host code, as the
/// baseline the ABI layer's overhead is measured against.
struct DirectCall {
  let generate:
    @convention(c) (UnsafePointer<CChar>?, UnsafePointer<biki_parameter_list_t>?, UInt64, UnsafePointer<biki_call_t>?)
      -> biki_status_t
  let topic: UnsafeMutablePointer<CChar>

  /// Fails, naming the library, when it does not load or offers no generate function: the
  /// benchmark stops rather than timing nothing.
  init(path: String, topic: String) throws {
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
      throw BenchFailure("cannot load \(path): \(dlerror().map { String(cString: $0) } ?? "unknown reason")")
    }
    guard let symbol = dlsym(handle, "biki_plugin_entry") else {
      throw BenchFailure("\(path) exports no biki_plugin_entry")
    }
    let entry = unsafeBitCast(
      symbol, to: (@convention(c) (UnsafePointer<biki_host_t>?) -> UnsafePointer<biki_plugin_descriptor_t>?).self)
    // A host with no extensions, kept for the process as the ABI asks.
    let host = UnsafeMutablePointer<biki_host_t>.allocate(capacity: 1)
    host.initialize(
      to: biki_host_t(
        size: UInt32(MemoryLayout<biki_host_t>.size), abi_version: UInt32(BIKI_PLUGIN_ABI_VERSION), name: nil,
        version: nil, host_data: nil,
        get_extension: { _, _ in nil }, abi_minor: UInt32(BIKI_PLUGIN_ABI_MINOR)))
    guard let generate = entry(host)?.pointee.generate else {
      throw BenchFailure("\(path) gave no descriptor with generate")
    }
    self.generate = generate
    self.topic = strdup(topic)
  }

  func call(_ iteration: Int) -> Int {
    var count = 0
    withUnsafeMutablePointer(to: &count) { counter in
      let write: @convention(c) (UnsafePointer<biki_writer_t>?, UnsafePointer<CChar>?, Int) -> Int32 = {
        writer, _, length in
        writer!.pointee.context!.assumingMemoryBound(to: Int.self).pointee += length
        return 0
      }
      var output = biki_writer_t(
        size: UInt32(MemoryLayout<biki_writer_t>.size), context: UnsafeMutableRawPointer(counter), write: write)
      var error = output
      var parameters = biki_parameter_list_t(
        size: UInt32(MemoryLayout<biki_parameter_list_t>.size),
        element_size: UInt32(MemoryLayout<biki_parameter_t>.stride), count: 0, entries: nil)
      withUnsafePointer(to: &output) { output in
        withUnsafePointer(to: &error) { error in
          var call = biki_call_t(size: UInt32(MemoryLayout<biki_call_t>.size), output: output, error: error)
          _ = generate(topic, &parameters, UInt64(iteration % 100), &call)
        }
      }
    }
    return count
  }
}

struct BenchOptions {
  var filter: String?
  var seconds = 1.0
  /// `--compare`: biki serve side by side with the C floor, lspbench and a bare Swift program.
  var compare = false

  init(arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--filter": filter = iterator.next()
      case "--seconds": seconds = iterator.next().flatMap(Double.init) ?? seconds
      case "--compare": compare = true
      case "-h", "--help":
        print(
          "USAGE: biki-bench [--filter NAME] [--seconds S] [--compare]\n  --filter topics runs every built-in topic's generation benchmark\n  --filter tricks checks that each speed trick still beats the plain way, against .ci/bench-baseline (or $BIKI_BENCH_BASELINE)\n  --compare runs biki serve side by side with ../shared/bench's floor server and lspbench, and prints the ratios"
        )
        exit(0)
      default:
        FileHandle.standardError.write(
          Data("Error: Unknown option '\(argument)'.\nUsage: biki-bench [--filter NAME] [--seconds S]\n".utf8))
        exit(64)
      }
    }
  }

  func selects(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }
}

/// One measurement: `setUp` builds inputs outside the timed loop and returns the operation.
struct Benchmark {
  var name: String
  var unit: String
  var target: Double?
  var note: String
  var setUp: () -> (Int) throws -> Int

  /// Runs the operation in batches until `seconds` have passed; reports the median batch rate
  /// and the spread of the batches. An operation that fails stops the bench with the error and
  /// status 1: a failure is never counted as throughput.
  func run(seconds: Double) -> String {
    do {
      return try measure(seconds: seconds)
    } catch {
      FileHandle.standardError.write(
        Data("Error: \(name): the operation failed, so nothing is measured: \(error)\n".utf8))
      exit(1)
    }
  }

  private func measure(seconds: Double) throws -> String {
    let operation = setUp()
    var sink = 0
    for iteration in 0..<10_000 { sink &+= try operation(iteration) }  // warm up
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(seconds))
    var rates: [Double] = []
    var iteration = 0
    let batch = 20_000
    // At least one batch, however short the time given (`--seconds 0`).
    while clock.now < deadline || rates.isEmpty {
      let start = clock.now
      for _ in 0..<batch {
        sink &+= try operation(iteration)
        iteration += 1
      }
      let elapsed = start.duration(to: clock.now)
      let perSecond =
        Double(batch) / (Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
      rates.append(perSecond)
    }
    let spread = Spread(rates)
    let verdict =
      target.map { spread.median >= $0 ? "  (target ≥ \(Int($0)): met)" : "  (target ≥ \(Int($0)): NOT met)" } ?? ""
    return
      "\(name): \(Int(spread.median)) \(unit) median (\(Int(spread.low))–\(Int(spread.high)))\(verdict)  [\(note); \(rates.count) batches; checksum \(sink & 0xFF)]"
  }
}
