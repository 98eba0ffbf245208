// Counters and units of everyday life beyond the first set: things on a table, in a house, in a
// town, on a label. Each is listed with its sources in docs/readings.md ("More counters"); the
// tests hold their readings as tables typed from those references.

extension Counter {
  // MARK: Sino-Japanese counters

  static let ships = Counter(
    id: "seki-ships", symbols: ["隻"], reading: "せき", kind: .counter,
    finalForms: Counter.sRow(geminated: "っせき"), note: "Large ships; s-row gemination after 1, 8, 10.")

  static let boats = Counter(
    id: "sou-boats", symbols: ["艘"], reading: "そう", kind: .counter,
    finalForms: Counter.sRow(geminated: "っそう"), note: "Small boats; s-row gemination after 1, 8, 10.")

  static let buildings = Counter(
    id: "tou-buildings", symbols: ["棟"], reading: "とう", kind: .counter,
    finalForms: Counter.tRow(geminated: "っとう"), note: "Buildings; t-row gemination after 1, 8, 10, as 頭.")

  static let zen = Counter(
    id: "zen", symbols: ["膳"], reading: "ぜん", kind: .counter,
    note: "Pairs of chopsticks, bowls of rice; no sound changes.")

  static let chou = Counter(
    id: "chou", symbols: ["丁"], reading: "ちょう", kind: .counter,
    finalForms: Counter.tRow(geminated: "っちょう"), note: "Blocks of tofu, tools; t-row gemination after 1, 8, 10.")

  static let jou = Counter(
    id: "jou-mats", symbols: ["畳"], reading: "じょう", kind: .unit,
    finalForms: [4: ["よじょう", "よんじょう"], 7: ["ななじょう", "しちじょう"]],
    note: "Room sizes in mats: 4 is よじょう (4畳半 よじょうはん); 7 ななじょう or しちじょう.")

  static let tsubo = Counter(
    id: "tsubo", symbols: ["坪"], reading: "つぼ", kind: .unit,
    wholeForms: [1: ["ひとつぼ"], 2: ["ふたつぼ"], 3: ["さんつぼ", "みつぼ"]],
    finalForms: [4: ["よんつぼ", "よつぼ"], 8: ["はちつぼ", "はっつぼ"], 10: ["じゅっつぼ", "じっつぼ"]],
    note: "Areas of land: ひとつぼ, ふたつぼ alone, 3 さんつぼ (みつぼ, the older form); 10 じゅっつぼ.")

  static let votes = Counter(
    id: "hyou", symbols: ["票"], reading: "ひょう", kind: .counter,
    finalForms: [
      1: ["いっぴょう"], 3: ["さんびょう", "さんぴょう"], 6: ["ろっぴょう"], 8: ["はっぴょう", "はちひょう"],
      10: ["じゅっぴょう", "じっぴょう"], 100: ["ひゃっぴょう"], 1000: ["せんびょう"], 10_000: ["まんびょう"],
    ],
    note: "Votes; h-row: p after 1, 6, 8, 10, 100; b after 3 (さんぴょう also heard) and 1000.")

  static let dishes = Counter(
    id: "hin", symbols: ["品"], reading: "ひん", kind: .counter,
    finalForms: [
      1: ["いっぴん"], 3: ["さんぴん"], 6: ["ろっぴん"], 8: ["はっぴん", "はちひん"], 10: ["じゅっぴん", "じっぴん"],
      100: ["ひゃっぴん"], 1000: ["せんぴん"],
    ],
    note: "Dishes, items; h-row with p after 3 too: さんぴん.")

  static let companies = Counter(
    id: "sha", symbols: ["社"], reading: "しゃ", kind: .counter,
    finalForms: Counter.sRow(geminated: "っしゃ"), note: "Companies; s-row gemination after 1, 8, 10.")

  static let tenths = Counter(
    id: "wari", symbols: ["割"], reading: "わり", kind: .unit, validValues: 0...10,
    note: "Tenths (3割 is 30%); no sound changes.")

  static let tablets = Counter(
    id: "jou-tablets", symbols: ["錠"], reading: "じょう", kind: .counter, note: "Tablets; no sound changes.")

  static let poems = Counter(
    id: "shu", symbols: ["首"], reading: "しゅ", kind: .counter,
    finalForms: Counter.sRow(geminated: "っしゅ"), note: "Tanka and waka; s-row gemination (百人一首 ひゃくにんいっしゅ).")

  static let haiku = Counter(
    id: "ku", symbols: ["句"], reading: "く", kind: .counter,
    finalForms: Counter.kRow(geminated: "っく"), note: "Haiku, phrases; k-row gemination after 1, 6, 8, 10, 100.")

  static let drops = Counter(
    id: "teki", symbols: ["滴"], reading: "てき", kind: .counter,
    finalForms: Counter.tRow(geminated: "ってき"), note: "Drops; t-row gemination after 1, 8, 10.")

  static let machines = Counter(
    id: "ki-machines", symbols: ["機"], reading: "き", kind: .counter,
    finalForms: Counter.kRow(geminated: "っき").merging([6: ["ろっき", "ろくき"], 100: ["ひゃっき", "ひゃくき"]]) { _, new in new },
    note: "Aircraft, machines; k-row gemination (ろくき and ひゃくき also heard).")

  static let structures = Counter(
    id: "ki-structures", symbols: ["基"], reading: "き", kind: .counter,
    finalForms: Counter.machines.finalForms, note: "Towers, tombs, reactors; as 機.")

  static let cars = Counter(
    id: "ryou", symbols: ["両"], reading: "りょう", kind: .counter, note: "Railway cars; no sound changes.")

  static let flights = Counter(
    id: "bin", symbols: ["便"], reading: "びん", kind: .counter, note: "Flights, deliveries; no sound changes.")

  static let blooms = Counter(
    id: "rin", symbols: ["輪"], reading: "りん", kind: .counter, note: "Blooms, wheels; no sound changes.")

  static let letters = Counter(
    id: "ji-letters", symbols: ["字"], reading: "じ", kind: .counter,
    finalForms: [4: ["よじ", "よんじ"], 7: ["ななじ", "しちじ"]],
    note: "Written characters: 4 is よじ (四字熟語 よじじゅくご), よんじ also; 7 ななじ or しちじ.")

  static let words = Counter(
    id: "go-words", symbols: ["語"], reading: "ご", kind: .counter, note: "Words; no sound changes.")

  static let sushi = Counter(
    id: "kan-sushi", symbols: ["貫"], reading: "かん", kind: .counter,
    finalForms: Counter.kRow(geminated: "っかん"), note: "Pieces of nigiri sushi; k-row gemination.")

  static let shouMeasure = Counter(
    id: "shou-measure", symbols: ["升"], reading: "しょう", kind: .unit,
    finalForms: Counter.sRow(geminated: "っしょう").merging([3: ["さんしょう", "さんじょう"]]) { _, new in new },
    note: "1.8 litres (一升瓶 いっしょうびん); s-row gemination; 3 さんしょう, さんじょう also.")

  static let gouMeasure = Counter(
    id: "gou-measure", symbols: ["合"], reading: "ごう", kind: .unit,
    note: "0.18 litres of rice or sake, stages of a climb; no sound changes.")

  static let loaves = Counter(
    id: "kin", symbols: ["斤"], reading: "きん", kind: .counter,
    finalForms: Counter.kRow(geminated: "っきん").merging([6: ["ろっきん", "ろくきん"]]) { _, new in new },
    note: "Loaves of bread; k-row gemination (ろくきん also heard).")

  static let bundles = Counter(
    id: "wa-bundles", symbols: ["把"], reading: "わ", kind: .counter,
    finalForms: [
      1: ["いちわ", "いっぱ"], 3: ["さんわ", "さんば"], 6: ["ろくわ", "ろっぱ"], 8: ["はちわ", "はっぱ"],
      10: ["じゅっぱ", "じっぱ"], 100: ["ひゃくわ", "ひゃっぱ"], 1000: ["せんわ", "せんば"],
    ],
    note: "Bundles (spinach, firewood): NHK gives わ throughout except 10 (じゅっぱ|じっぱ); the ば/ぱ forms of 羽 are heard too.")

  static let nights = Counter(
    id: "ban-nights", symbols: ["晩"], reading: "ばん", kind: .duration,
    wholeForms: [1: ["ひとばん"], 2: ["ふたばん"], 3: ["みばん", "さんばん"], 4: ["よばん", "よんばん"]],
    note: "Nights: ひとばん, ふたばん, みばん (三日三晩 みっかみばん), さんばん also.")

  static let schoolYear = Counter(
    id: "nensei", symbols: ["年生"], reading: "ねんせい", kind: .name,
    finalForms: [4: ["よねんせい"], 7: ["ななねんせい", "しちねんせい"]],
    note: "School years: 4 is よねんせい, as 4年 よねん.")

  static let anniversaries = Counter(
    id: "shuunen", symbols: ["周年"], reading: "しゅうねん", kind: .counter,
    finalForms: Counter.sRow(geminated: "っしゅうねん"), note: "Anniversaries; s-row gemination after 1, 8, 10 (いっしゅうねん).")

  static let centuries = Counter(
    id: "seiki", symbols: ["世紀"], reading: "せいき", kind: .counter,
    finalForms: Counter.sRow(geminated: "っせいき").merging([7: ["ななせいき", "しちせいき"]]) { _, new in new },
    note: "Centuries; s-row gemination after 1, 8, 10 (にじゅういっせいき); 7 ななせいき or しちせいき.")

  static let decades = Counter(
    id: "nendai", symbols: ["年代"], reading: "ねんだい", kind: .name, note: "Decades (1990年代); no sound changes.")

  static let prizes = Counter(
    id: "tou-prizes", symbols: ["等"], reading: "とう", kind: .name,
    finalForms: Counter.tRow(geminated: "っとう"), note: "Prize classes (1等 いっとう); t-row gemination after 1, 8, 10.")

  static let ordinal = Counter(
    id: "banme", symbols: ["番目"], reading: "ばんめ", kind: .counter, note: "Ordinals; no sound changes.")

  // MARK: Ordinals: a counter and め (the 2nd time, the 3rd day)

  static let kaime = Counter.kai.suffixed(id: "kaime", symbols: ["回目"], kana: "め", kind: .name)
  static let nichime = Counter.day.suffixed(id: "nichime", symbols: ["日目"], kana: "め", kind: .name)
  static let ninme = Counter.nin.suffixed(id: "ninme", symbols: ["人目"], kana: "め", kind: .name)
  static let honme = Counter.hon.suffixed(id: "honme", symbols: ["本目"], kana: "め", kind: .name)
  static let maime = Counter.mai.suffixed(id: "maime", symbols: ["枚目"], kana: "め", kind: .name)
  static let nenme = Counter.year.suffixed(id: "nenme", symbols: ["年目"], kana: "め", kind: .name)
  static let kome = Counter.ko.suffixed(id: "kome", symbols: ["個目"], kana: "め", kind: .name)
  static let haime = Counter.hai.suffixed(id: "haime", symbols: ["杯目"], kana: "め", kind: .name)
  static let jikanme = Counter.hours.suffixed(id: "jikanme", symbols: ["時間目"], kana: "め", kind: .name)
  static let kenme = Counter.ken.suffixed(id: "kenme", symbols: ["軒目"], kana: "め", kind: .name)
  static let dome = Counter.doCounter.suffixed(id: "dome", symbols: ["度目"], kana: "め", kind: .name)

  // MARK: Addresses and transport (names: a number that says which)

  static let choume = Counter(
    id: "choume", symbols: ["丁目"], reading: "ちょうめ", kind: .name,
    finalForms: Counter.tRow(geminated: "っちょうめ").merging([7: ["ななちょうめ", "しちちょうめ"]]) { _, new in new },
    note: "Blocks of an address: いっちょうめ, はっちょうめ, じゅっちょうめ; 7 ななちょうめ or しちちょうめ.")

  static let banchi = Counter(
    id: "banchi", symbols: ["番地"], reading: "ばんち", kind: .name, note: "Lot numbers of an address; no sound changes.")

  static let roomNumber = Counter(
    id: "goushitsu", symbols: ["号室"], reading: "ごうしつ", kind: .name,
    note: "Room numbers (101号室 ひゃくいちごうしつ); no sound changes.")

  static let routes = Counter(
    id: "gousen", symbols: ["号線"], reading: "ごうせん", kind: .name,
    note: "Road and line numbers (国道1号線); no sound changes.")

  static let exits = Counter(
    id: "bandeguchi", symbols: ["番出口"], reading: "ばんでぐち", kind: .name, note: "Station exits; no sound changes.")

  // MARK: Decimals

  /// The whole part of a decimal before てん: NHK reads it without gemination (1.5 いちてんご),
  /// except 10 (じってん first, as NHK reads it; じゅってん also); the geminated forms are heard and
  /// accepted. 2 and 5 alone
  /// may be lengthened (にいてんご). Not in the catalog: no symbol writes it.
  static let decimalPoint = Counter(
    id: "decimal-point", symbols: [], reading: "てん", kind: .unit,
    wholeForms: [2: ["にてん", "にいてん"], 5: ["ごてん", "ごおてん"]],
    finalForms: [
      1: ["いちてん", "いってん"], 6: ["ろくてん", "ろってん"], 8: ["はちてん", "はってん"], 10: ["じってん", "じゅってん"],
      100: ["ひゃくてん", "ひゃってん"],
    ],
    zeroForms: ["れいてん", "ぜろてん"], note: "The whole part of a decimal.")

  /// Digits after the point, one by one: 0 れい (ぜろ also), 4 よん, 7 なな, 9 きゅう.
  static let decimalDigits: [[String]] = [
    ["れい", "ぜろ"], ["いち"], ["に"], ["さん"], ["よん"], ["ご"], ["ろく"], ["なな"], ["はち"], ["きゅう"],
  ]

  // MARK: Native-number counters

  /// A counter said with ひと, ふた for one and two, and さん (or the older み) for three.
  private static func native(
    _ id: String, _ symbol: String, _ reading: String, note: String, four: [String]? = nil, ten: [String]? = nil
  ) -> Counter {
    var whole: [UInt64: [String]] = [1: ["ひと" + reading], 2: ["ふた" + reading], 3: ["さん" + reading, "み" + reading]]
    if let four { whole[4] = four }
    return Counter(
      id: id, symbols: [symbol], reading: reading, kind: .counter, wholeForms: whole,
      finalForms: ten.map { [10: $0] } ?? [:], note: note)
  }

  static let rooms = Counter(
    id: "heya", symbols: ["部屋"], reading: "へや", kind: .counter,
    wholeForms: [1: ["ひとへや"], 2: ["ふたへや"], 3: ["みへや", "さんへや"], 4: ["よへや", "よんへや"], 10: ["とへや", "じゅっへや"]],
    note: "Rooms: ひとへや, ふたへや, みへや, よへや, とへや as NHK gives them; さんへや, よんへや, じゅっへや also heard.")

  static let ways = Counter(
    id: "toori", symbols: ["通り"], reading: "とおり", kind: .counter,
    wholeForms: [1: ["ひととおり"], 2: ["ふたとおり"], 3: ["さんとおり", "みとおり"], 4: ["よんとおり", "よとおり"]],
    finalForms: [10: ["じゅっとおり", "じゅうとおり"]],
    note: "Ways, patterns: ひととおり, ふたとおり, さんとおり (みとおり also).")

  static let sheaves = native(
    "taba", "束", "たば", note: "Bundles, bouquets: ひとたば, ふたたば, さんたば|みたば; 10 じゅったば.",
    four: ["よんたば", "よたば"], ten: ["じゅったば", "じったば"])
  static let bunches = native(
    "fusa", "房", "ふさ", note: "Bunches (grapes, bananas): ひとふさ, ふたふさ, さんふさ|みふさ.",
    four: ["よんふさ", "よふさ"], ten: ["じゅうふさ", "じゅっぷさ"])
  static let bags = native(
    "fukuro", "袋", "ふくろ", note: "Bags: ひとふくろ, ふたふくろ, さんふくろ|みふくろ.",
    four: ["よんふくろ", "よふくろ"], ten: ["じゅうふくろ", "じゅっぷくろ"])
  static let grains = native(
    "tsubu", "粒", "つぶ", note: "Grains, drops, pills: ひとつぶ, ふたつぶ, さんつぶ|みつぶ; 10 じゅっつぶ.",
    four: ["よんつぶ", "よつぶ"], ten: ["じゅっつぶ", "じっつぶ"])
  static let balls = native(
    "tama", "玉", "たま", note: "Noodle balls, cabbages: ひとたま, ふたたま, さんたま|みたま; 10 じゅったま.",
    four: ["よんたま", "よたま"], ten: ["じゅったま", "じったま"])

  // MARK: Loanword units

  /// Final forms from the number's changed endings before a reading: `[1: ["いっ", "いち"]]` with
  /// とん gives いっとん, then いちとん. Loanword units differ digit by digit in which is heard
  /// more, so each lists its own order.
  private static func endings(_ reading: String, _ endings: [UInt64: [String]]) -> [UInt64: [String]] {
    endings.mapValues { $0.map { $0 + reading } }
  }

  static let tons = Counter(
    id: "ton", symbols: ["トン"], reading: "とん", kind: .unit,
    finalForms: endings(
      "とん", [1: ["いっ", "いち"], 6: ["ろく", "ろっ"], 8: ["はっ", "はち"], 10: ["じゅっ", "じっ"], 100: ["ひゃく", "ひゃっ"]]),
    note: "Tonnes: いっトン (NINJAL), ろくトン|ろっトン, はっトン|はちトン, じゅっトン.")
  static let calories = Counter(
    id: "calorie", symbols: ["カロリー"], reading: "かろりー", kind: .unit,
    finalForms: endings(
      "かろりー", [1: ["いち", "いっ"], 6: ["ろく", "ろっ"], 8: ["はち", "はっ"], 10: ["じゅっ", "じっ"], 100: ["ひゃく", "ひゃっ"]]),
    note: "Calories: いちカロリー, いっカロリー also; じゅっカロリー.")
  static let kilocalories = Counter.kilo.suffixed(id: "kilocalorie", symbols: ["キロカロリー", "kcal"], kana: "かろりー")
  static let sets = Counter(
    id: "set", symbols: ["セット"], reading: "せっと", kind: .counter,
    finalForms: endings(
      "せっと", [1: ["いっ", "いち"], 6: ["ろく", "ろっ"], 8: ["はっ", "はち"], 10: ["じゅっ", "じっ"], 100: ["ひゃく", "ひゃっ"]]),
    note: "Sets: いっセット, いちセット also.")
  static let cases = Counter(
    id: "case", symbols: ["ケース"], reading: "けーす", kind: .counter,
    finalForms: endings(
      "けーす", [1: ["いっ", "いち"], 6: ["ろっ", "ろく"], 8: ["はっ", "はち"], 10: ["じゅっ", "じっ"], 100: ["ひゃっ", "ひゃく"]]),
    note: "Cases (of drinks): いっケース, いちケース also; a k-row word, so ろっ and ひゃっ come first.")
  static let cups = Counter(
    id: "cup", symbols: ["カップ"], reading: "かっぷ", kind: .counter,
    finalForms: endings("かっぷ", [1: ["いち", "いっ"], 6: ["ろく", "ろっ"], 8: ["はち", "はっ"], 10: ["じゅっ", "じっ"]]),
    note: "Cups in a recipe: いちカップ, いっカップ also.")
  static let scorePoints = Counter(
    id: "point", symbols: ["ポイント"], reading: "ぽいんと", kind: .counter,
    finalForms: endings(
      "ぽいんと", [1: ["いっ", "いち"], 6: ["ろっ", "ろく"], 8: ["はっ", "はち"], 10: ["じゅっ", "じっ"], 100: ["ひゃく", "ひゃっ"]]),
    note: "Points (cards, scores): いっポイント, いちポイント also.")
  static let packs = Counter(
    id: "pack", symbols: ["パック"], reading: "ぱっく", kind: .counter,
    wholeForms: [1: ["ひとぱっく", "いちぱっく", "いっぱっく"]],
    finalForms: endings(
      "ぱっく", [1: ["いち", "いっ"], 6: ["ろく", "ろっ"], 8: ["はち", "はっ"], 10: ["じゅっ", "じっ"], 100: ["ひゃっ"]]),
    note: "Packs: ひとパック, いちパック, いっパック for one (all heard); then いち|いっ, ろく|ろっ, はち|はっ, じゅっ.")

  static let hectares = Counter(
    id: "hectare", symbols: ["ヘクタール", "ha"], reading: "へくたーる", kind: .unit, note: "No sound changes.")
  static let inches = Counter(
    id: "inch", symbols: ["インチ"], reading: "いんち", kind: .unit, note: "No sound changes.")
  static let miles = Counter(
    id: "mile", symbols: ["マイル"], reading: "まいる", kind: .unit, note: "No sound changes.")
  static let dozens = Counter(
    id: "dozen", symbols: ["ダース"], reading: "だーす", kind: .unit, note: "No sound changes.")
  static let games = Counter(
    id: "game", symbols: ["ゲーム"], reading: "げーむ", kind: .counter, note: "No sound changes.")
  static let rounds = Counter(
    id: "round", symbols: ["ラウンド"], reading: "らうんど", kind: .counter, note: "No sound changes.")
  static let bytes = Counter(
    id: "byte", symbols: ["バイト"], reading: "ばいと", kind: .unit, note: "No sound changes.")
  static let watts = Counter(
    id: "watt", symbols: ["ワット", "W"], reading: "わっと", kind: .unit, note: "No sound changes.")

  /// The counters of this file, in the catalog's order.
  static let everyday: [Counter] = [
    .ships, .boats, .buildings, .zen, .chou, .jou, .tsubo, .votes, .dishes, .companies, .tenths, .tablets, .poems,
    .haiku,
    .drops, .machines, .structures, .cars, .flights, .blooms, .letters, .words, .sushi, .shouMeasure, .gouMeasure,
    .loaves, .bundles,
    .nights, .schoolYear, .anniversaries, .centuries, .decades, .prizes, .ordinal, .kaime, .nichime, .ninme, .honme,
    .maime,
    .nenme, .kome, .haime, .jikanme, .kenme, .dome, .choume, .banchi, .roomNumber, .routes,
    .exits, .rooms, .ways, .sheaves, .bunches, .bags, .grains, .balls, .tons, .calories, .kilocalories, .sets, .cases,
    .cups,
    .scorePoints, .packs, .hectares, .inches, .miles, .dozens, .games, .rounds, .bytes, .watts,
  ]
}
