// Counters of numbers as they are written in the wild: on a scoreboard, a weather map, a
// receipt, a floor plan, an exam certificate. Each is listed with its sources in
// docs/readings.md ("Numbers in the wild"); the tests hold their readings as tables typed from
// those references.

extension Counter {
  // MARK: Tenths, hundredths and thousandths (割分厘, 度分)

  /// 分 after 割 or 度: a tenth of it, read ぶ with no sound change (3割5分 さんわりごぶ, 37度5分
  /// さんじゅうななどごぶ). Not in the catalog: alone, 分 is minutes; the reader chooses this one
  /// by what comes before.
  static let tenthBu = Counter(
    id: "bu-tenth", symbols: ["分"], reading: "ぶ", kind: .unit, finalForms: [7: ["ななぶ", "しちぶ"], 9: ["きゅうぶ", "くぶ"]],
    validValues: 1...9, note: "A tenth of a 割 or a 度: no sound changes; 7 ななぶ|しちぶ, 9 きゅうぶ|くぶ (九分九厘 くぶくりん).",
    formLabel: "分(ぶ)")

  static let rin = Counter(
    id: "rin-thousandth", symbols: ["厘"], reading: "りん", kind: .unit,
    finalForms: [7: ["ななりん", "しちりん"], 9: ["きゅうりん", "くりん"]],
    validValues: 1...9, note: "A tenth of a 分 (3割2分1厘): no sound changes.")

  static let tenthsOff = Counter(
    id: "waribiki", symbols: ["割引き", "割引"], reading: "わりびき", kind: .unit, validValues: 1...9,
    note: "Tenths off a price (2割引き にわりびき); no sound changes.")

  static let tenthsMore = Counter(
    id: "warimashi", symbols: ["割増し", "割増"], reading: "わりまし", kind: .unit, validValues: 1...9,
    note: "Tenths added to a price (3割増し さんわりまし); no sound changes.")

  // MARK: Years, ages, grades

  /// 年度, a fiscal or school year (2026年度, 令和8年度): read as 年, then ど.
  static let fiscalYear = Counter.year.suffixed(id: "nendo", symbols: ["年度"], kana: "ど")

  static let generations = Counter(
    id: "dai-decades", symbols: ["代"], reading: "だい", kind: .age,
    note: "Decades of age (30代 さんじゅうだい) and generations (第3代); no sound changes.")

  static let nurseryAge = Counter(
    id: "saiji", symbols: ["歳児"], reading: "さいじ", kind: .age, finalForms: Counter.sRow(geminated: "っさいじ"),
    zeroForms: ["ぜろさいじ", "れいさいじ"], validValues: 0...6,
    note: "A nursery class by age (3歳児 さんさいじ, 0歳児 ぜろさいじ): 歳, then じ; 0–6.")

  static let grades = Counter(
    id: "kyuu-grades", symbols: ["級"], reading: "きゅう", kind: .name,
    finalForms: Counter.kRow(geminated: "っきゅう").merging([
      6: ["ろっきゅう", "ろくきゅう"], 8: ["はちきゅう", "はっきゅう"],
    ]) { _, new in new },
    note: "Grades (英検2級 にきゅう, 1級 いっきゅう); k-row gemination after 1, 6, 10; 8 はちきゅう, as grades are said.")

  // MARK: Money

  static let coins = Counter.yen.suffixed(id: "endama", symbols: ["円玉"], kana: "だま")
  static let notes = Counter.yen.suffixed(id: "ensatsu", symbols: ["円札"], kana: "さつ")

  static let cents = Counter(
    id: "cent", symbols: ["セント"], reading: "せんと", kind: .money, finalForms: Counter.sRow(geminated: "っせんと"),
    note: "Cents; s-row gemination after 1, 8, 10 (50セント ごじゅっせんと).")

  // MARK: Sports

  static let wins = Counter(
    id: "shou-wins", symbols: ["勝"], reading: "しょう", kind: .counter, finalForms: Counter.sRow(geminated: "っしょう"),
    note: "Wins; s-row gemination after 1, 8, 10 (1勝 いっしょう).")

  static let losses = Counter(
    id: "hai-losses", symbols: ["敗"], reading: "はい", kind: .counter,
    finalForms: [
      1: ["いっぱい"], 3: ["さんぱい"], 4: ["よんはい", "よんぱい"], 6: ["ろっぱい"], 8: ["はっぱい", "はちはい"],
      10: ["じゅっぱい", "じっぱい"], 100: ["ひゃっぱい"], 1000: ["せんぱい"],
    ],
    note: "Losses; h-row with p after 1, 3, 6, 8, 10, 100 (3敗 さんぱい).")

  static let topOfInning = Counter.kai.suffixed(id: "kai-omote", symbols: ["回表"], kana: "おもて")
  static let bottomOfInning = Counter.kai.suffixed(id: "kai-ura", symbols: ["回裏"], kana: "うら")

  /// Outs, strikes and balls are counted in English on the field: 2アウト つーあうと.
  private static func englishCount(_ id: String, _ symbol: String, _ kana: String, upTo last: UInt64) -> Counter {
    let numbers: [UInt64: [String]] = [1: ["わん"], 2: ["つー"], 3: ["すりー"], 4: ["ふぉあ", "ふぉー"]]
    return Counter(
      id: id, symbols: [symbol], reading: kana, kind: .counter,
      wholeForms: numbers.filter { $0.key <= last }.mapValues { $0.map { $0 + kana } },
      zeroForms: ["のー" + kana], validValues: 0...last,
      note: "Counted in English on the field (2\(symbol) つー\(kana)); 0 is のー\(kana).")
  }

  static let outs = englishCount("out", "アウト", "あうと", upTo: 3)
  static let strikes = englishCount("strike", "ストライク", "すとらいく", upTo: 3)
  static let ballCount = englishCount("ball", "ボール", "ぼーる", upTo: 4)

  static let homeRuns = Counter(
    id: "dan", symbols: ["弾"], reading: "だん", kind: .counter,
    note: "Shots, home runs, instalments (第2弾); no sound changes.")

  /// A batting line and a season's record: 3打数2安打 さんだすうにあんだ, 5打点, 3連勝, 2死.
  static let atBats = Counter(
    id: "dasuu", symbols: ["打数"], reading: "だすう", kind: .counter, note: "At bats; no sound changes.")
  static let hits = Counter(
    id: "anda", symbols: ["安打"], reading: "あんだ", kind: .counter, note: "Hits; no sound changes.")
  static let runsBattedIn = Counter(
    id: "daten", symbols: ["打点"], reading: "だてん", kind: .counter, note: "Runs batted in; no sound changes.")
  static let winningStreak = Counter(
    id: "renshou", symbols: ["連勝"], reading: "れんしょう", kind: .counter, note: "Wins in a row; no sound changes.")
  static let losingStreak = Counter(
    id: "renpai", symbols: ["連敗"], reading: "れんぱい", kind: .counter, note: "Losses in a row; no sound changes.")
  static let gamesBehind = Counter(
    id: "game-sa", symbols: ["ゲーム差"], reading: "げーむさ", kind: .counter, note: "Games behind; no sound changes.")
  static let outsWritten = Counter(
    id: "shi-outs", symbols: ["死"], reading: "し", kind: .counter, finalForms: [1: ["いっし"]], validValues: 1...2,
    note: "Outs as a scoreboard writes them (1死 いっし, 2死 にし); none is 無死.")

  static let matchesPlayed = Counter(
    id: "shiai", symbols: ["試合"], reading: "しあい", kind: .counter, wholeForms: [1: ["いちしあい", "ひとしあい"]],
    note: "Games, matches: し合い is a native word and does not geminate (一試合 いちしあい, ひとしあい).")
  /// A home run with runners on: 2ラン つーらん, 3ラン すりーらん (one alone is a solo, four a grand slam).
  static let runs = Counter(
    id: "run", symbols: ["ラン"], reading: "らん", kind: .counter, wholeForms: [2: ["つーらん"], 3: ["すりーらん"]],
    validValues: 2...3, note: "Home runs by the runs they score, in English: つーらん, すりーらん.")

  static let homeRunsHit = Counter(
    id: "honruida", symbols: ["本塁打"], reading: "ほんるいだ", kind: .counter, note: "Home runs; no sound changes.")
  static let steals = Counter(
    id: "tourui", symbols: ["盗塁"], reading: "とうるい", kind: .counter, note: "Stolen bases; no sound changes.")
  static let strikeouts = Counter(
    id: "datsusanshin", symbols: ["奪三振"], reading: "だつさんしん", kind: .counter, note: "Strikeouts; no sound changes.")
  static let tournamentRounds = Counter(
    id: "kaisen", symbols: ["回戦"], reading: "かいせん", kind: .name, finalForms: Counter.kRow(geminated: "っかいせん"),
    note: "Rounds of a tournament (2回戦 にかいせん); as 回.")
  static let pointsBehind = Counter.points.suffixed(id: "tensa", symbols: ["点差"], kana: "さ")

  static let episodes = Counter(
    id: "wa-episodes", symbols: ["話"], reading: "わ", kind: .counter,
    note: "Episodes, stories (第5話 だいごわ); no sound changes.")

  // MARK: Laws, rules

  static let articles = Counter(
    id: "jou-articles", symbols: ["条"], reading: "じょう", kind: .name, finalForms: [7: ["ななじょう", "しちじょう"]],
    note: "Articles of a law (第9条 だいきゅうじょう); no sound changes; 7 ななじょう|しちじょう.")

  static let clauses = Counter(
    id: "kou-clauses", symbols: ["項"], reading: "こう", kind: .name, finalForms: Counter.kRow(geminated: "っこう"),
    note: "Clauses of an article (第1項 だいいっこう); k-row gemination after 1, 6, 8, 10, 100.")

  // MARK: Homes, weather

  /// Floor plans: 3LDK さんえるでぃーけー; one room is said in English first (1K わんけー), いち also.
  private static func floorPlan(_ id: String, _ symbol: String, _ kana: String) -> Counter {
    Counter(
      id: id, symbols: [symbol], reading: kana, kind: .name, wholeForms: [1: ["わん" + kana, "いち" + kana]],
      validValues: 1...9, note: "Rooms of a floor plan; 1 わん, as estate agents say it (ワンケー), or いち.")
  }

  static let ldk = floorPlan("ldk", "LDK", "えるでぃーけー")
  static let dk = floorPlan("dk", "DK", "でぃーけー")
  static let kitchenRoom = floorPlan("k-room", "K", "けー")

  static let floorsWritten = Counter(
    id: "floor-f", symbols: ["F", "Ｆ"], reading: "かい", kind: .counter, finalForms: Counter.floor.finalForms,
    note: "Floors as signs write them (2F にかい), read as 階.")
  static let millilitres = Counter(
    id: "millilitre", symbols: ["ミリリットル", "ml", "mL", "ｍｌ"], reading: "みりりっとる", kind: .unit,
    note: "Millilitres; no sound changes.")
  static let decilitres = Counter(
    id: "decilitre", symbols: ["デシリットル", "dl", "dL"], reading: "でしりっとる", kind: .unit,
    note: "Decilitres; no sound changes.")

  static let heibei = Counter(
    id: "heibei", symbols: ["平米"], reading: "へいべい", kind: .unit, note: "Floor areas in square metres; no sound changes."
  )
  static let squareMetres = Counter(
    id: "square-metre", symbols: ["平方メートル", "㎡"], reading: "へいほうめーとる", kind: .unit,
    note: "Square metres; no sound changes.")

  static let pounds = Counter(
    id: "pound", symbols: ["ポンド"], reading: "ぽんど", kind: .money, note: "No sound changes.")
  static let won = Counter(
    id: "won", symbols: ["ウォン"], reading: "うぉん", kind: .money, note: "No sound changes.")

  static let screenSize = Counter(
    id: "gata", symbols: ["型"], reading: "がた", kind: .name, note: "Screen sizes (32型 さんじゅうにがた); no sound changes.")
  static let stages = Counter(
    id: "ji-stages", symbols: ["次"], reading: "じ", kind: .name, finalForms: [4: ["よじ", "よんじ"], 7: ["ななじ", "しちじ"]],
    note: "Stages, rounds of an exam (2次試験 にじ); 4 よじ (四次元 よじげん), 7 ななじ or しちじ.")
  static let brothers = Counter(
    id: "kyoudai", symbols: ["兄弟"], reading: "きょうだい", kind: .counter, note: "Siblings (3兄弟); no sound changes.")
  static let sisters = Counter(
    id: "shimai", symbols: ["姉妹"], reading: "しまい", kind: .counter, note: "Sisters (4姉妹); no sound changes.")

  static let familySize = Counter.nin.suffixed(id: "nin-kazoku", symbols: ["人家族"], kana: "かぞく")
  static let siblings = Counter.nin.suffixed(id: "nin-kyoudai", symbols: ["人兄弟"], kana: "きょうだい")

  static let hectopascals = Counter(
    id: "hpa", symbols: ["ヘクトパスカル", "hPa"], reading: "へくとぱすかる", kind: .unit, note: "Air pressure; no sound changes.")

  /// 時 past 24 on a late-night timetable (25時 にじゅうごじ, 1 a.m. of the night before's day).
  static let lateHour = Counter(
    id: "hour-late", symbols: ["時"], reading: "じ", kind: .time, finalForms: Counter.hour.finalForms,
    validValues: 25...30, note: "As 時, for the hours a late-night day runs on to (25時 to 30時).")

  /// Counters the reader chooses by what comes before them, kept out of the catalog's symbols so
  /// that 分 alone stays minutes and 時 an hour of the day; packs name them by id.
  static let chosenByContext: [Counter] = [.tenthBu, .lateHour]

  /// The counters of this file that are written after a number (not 分 as a tenth, nor the late hour).
  static let wild: [Counter] = [
    .rin, .tenthsOff, .tenthsMore, .fiscalYear, .generations, .nurseryAge, .grades, .coins, .notes, .cents, .wins,
    .losses, .topOfInning, .bottomOfInning, .outs, .strikes, .ballCount, .homeRuns, .ldk, .dk, .kitchenRoom,
    .hectopascals,
    .articles, .clauses, .atBats, .hits, .runsBattedIn, .winningStreak, .losingStreak, .gamesBehind, .outsWritten,
    .matchesPlayed, .runs, .floorsWritten, .millilitres, .decilitres, .homeRunsHit, .steals, .strikeouts,
    .tournamentRounds, .pointsBehind, .screenSize, .stages, .brothers, .sisters,
    .episodes, .heibei, .squareMetres, .pounds, .won, .familySize, .siblings,
  ]
}
