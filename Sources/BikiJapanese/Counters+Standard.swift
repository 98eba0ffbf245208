// The built-in units and counters. Each form here was checked against the references listed
// per counter in docs/readings.md; tests hold the same readings as tables taken from those
// references, not from this file.

extension Counter {
  // MARK: Money

  package static let yen = Counter(
    id: "yen", symbols: ["円"], reading: "えん", kind: .money,
    finalForms: [4: ["よえん"]],
    note: "4 is よ (よえん); 9 is きゅうえん, never くえん.")

  // MARK: Time of day and calendar

  /// 時 as a time of day (4時 よじ, 7時 しちじ|ななじ, 9時 くじ); 0–24.
  package static let hour = Counter(
    id: "hour", symbols: ["時"], reading: "じ", kind: .time,
    finalForms: [4: ["よじ"], 7: ["しちじ", "ななじ"], 9: ["くじ"]],
    zeroForms: ["れいじ", "ぜろじ"], validValues: 0...24,
    note: "4, 7, 9 take よ, しち, く; ななじ is also said, on stations and the phone, so 7 is not heard as 1 (いちじ).")

  /// 分 as minutes, both a time of day and a duration.
  static let minute = Counter(
    id: "minute", symbols: ["分"], reading: "ふん", kind: .time,
    finalForms: [
      1: ["いっぷん"], 3: ["さんぷん"], 4: ["よんぷん", "よんふん"], 6: ["ろっぷん"], 7: ["ななふん", "しちふん"],
      8: ["はっぷん", "はちふん"], 10: ["じゅっぷん", "じっぷん"], 100: ["ひゃっぷん"],
      1000: ["せんぷん"], 10_000: ["まんぷん"],
    ],
    zeroForms: ["れいふん", "ぜろふん"],
    note: "ふん becomes ぷん after 1, 3, 4, 6, 8, 10, 100, 1000; 7 is ななふん or しちふん.")

  static let second = Counter(
    id: "second", symbols: ["秒"], reading: "びょう", kind: .time,
    zeroForms: ["れいびょう", "ぜろびょう"], note: "No sound changes.")

  /// 月 as the name of a month: 4月 しがつ, 7月 しちがつ, 9月 くがつ; 1–12.
  package static let month = Counter(
    id: "month", symbols: ["月"], reading: "がつ", kind: .date,
    wholeForms: [4: ["しがつ"], 7: ["しちがつ"], 9: ["くがつ"]],
    validValues: 1...12, note: "4, 7, 9 take し, しち, く.")

  /// 日 as a day of the month: ついたち, ふつか … とおか, じゅうよっか, はつか, にじゅうよっか; 1–31.
  package static let dayOfMonth = Counter(
    id: "dayOfMonth", symbols: ["日"], reading: "にち", kind: .date,
    wholeForms: Counter.nativeDays.merging([1: ["ついたち"]]) { _, date in date },
    finalForms: Counter.dayFinalForms, validValues: 1...31,
    note: "Native forms for 1–10, 14, 20, 24; じゅうしちにち and じゅうくにち for 17 and 19.")

  /// 日 as a number of days: 1日 いちにち, 2日 ふつか … 10日 とおか, 14日 じゅうよっか, 20日 はつか.
  static let day = Counter(
    id: "day", symbols: ["日"], reading: "にち", kind: .duration,
    wholeForms: Counter.nativeDays, finalForms: Counter.dayFinalForms,
    note: "As a date except 1日, which counts as いちにち.")

  static let days = Counter.day.suffixed(id: "days", symbols: ["日間"], kana: "かん")

  /// 日 and 日間 past 31, where NHK puts the number's own reading first (34日間
  /// さんじゅうよんにちかん): よっか is the calendar's custom, up to 31.
  static let dayPastMonth = Counter(
    id: "day", symbols: ["日"], reading: "にち", kind: .duration,
    finalForms: Counter.dayFinalForms.merging([4: ["よんにち", "よっか"]]) { _, past in past })
  static let daysPastMonth = Counter.dayPastMonth.suffixed(id: "days", symbols: ["日間"], kana: "かん")

  private static let nativeDays: [UInt64: [String]] = [
    1: ["いちにち"], 2: ["ふつか"], 3: ["みっか"], 4: ["よっか"], 5: ["いつか"], 6: ["むいか"],
    7: ["なのか", "なぬか"], 8: ["ようか"], 9: ["ここのか"], 10: ["とおか"], 20: ["はつか"],
  ]
  private static let dayFinalForms: [UInt64: [String]] = [
    4: ["よっか"], 7: ["しちにち", "ななにち"], 9: ["くにち", "きゅうにち"],
  ]

  // MARK: Durations

  static let hours = Counter(
    id: "hours", symbols: ["時間"], reading: "じかん", kind: .duration,
    finalForms: [4: ["よじかん"], 7: ["しちじかん", "ななじかん"], 9: ["くじかん", "きゅうじかん"]],
    note: "As 時: よじかん, くじかん (きゅうじかん also said); 7 is しちじかん or ななじかん.")

  static let minutes = Counter.minute.suffixed(
    id: "minutes", symbols: ["分間"], kana: "かん", kind: .duration)
  static let seconds = Counter.second.suffixed(
    id: "seconds", symbols: ["秒間"], kana: "かん", kind: .duration)

  static let weeks = Counter(
    id: "weeks", symbols: ["週間"], reading: "しゅうかん", kind: .duration,
    finalForms: [
      1: ["いっしゅうかん"], 8: ["はっしゅうかん", "はちしゅうかん"],
      10: ["じゅっしゅうかん", "じっしゅうかん"],
    ],
    note: "Gemination before し after 1, 8, 10.")

  package static let months = Counter(
    id: "months", symbols: ["ヶ月", "か月", "カ月", "ケ月", "ヵ月", "箇月"], reading: "かげつ",
    kind: .duration,
    finalForms: [
      1: ["いっかげつ"], 6: ["ろっかげつ"], 8: ["はっかげつ", "はちかげつ"],
      10: ["じゅっかげつ", "じっかげつ"], 100: ["ひゃっかげつ"],
    ],
    note: "Gemination before か after 1, 6, 8, 10, 100.")

  /// 年 as a count of years and as a calendar year: 4年 よねん, 7年 しちねん|ななねん, 9年 くねん|きゅうねん.
  package static let year = Counter(
    id: "year", symbols: ["年"], reading: "ねん", kind: .date,
    finalForms: [4: ["よねん"], 7: ["しちねん", "ななねん"], 9: ["くねん", "きゅうねん"]],
    note: "4 is よ; 7 is しち or なな; 9 is くねん, with きゅうねん allowed (NHK).")

  static let years = Counter.year.suffixed(
    id: "years", symbols: ["年間"], kana: "かん", kind: .duration)

  static let age = Counter(
    id: "age", symbols: ["歳", "才"], reading: "さい", kind: .age,
    wholeForms: [20: ["はたち", "にじゅっさい", "にじっさい"]],
    finalForms: [
      1: ["いっさい"], 8: ["はっさい", "はちさい"], 10: ["じゅっさい", "じっさい"],
    ],
    note: "20 is はたち; gemination after 1, 8, 10.")

  // MARK: Counters

  static let ko = Counter(
    id: "ko", symbols: ["個"], reading: "こ", kind: .counter,
    finalForms: [
      1: ["いっこ"], 6: ["ろっこ"], 8: ["はっこ", "はちこ"], 10: ["じゅっこ", "じっこ"],
      100: ["ひゃっこ"],
    ],
    note: "k-row counter: gemination after 1, 6, 8, 10, 100.")

  package static let hon = Counter(
    id: "hon", symbols: ["本"], reading: "ほん", kind: .counter,
    finalForms: Counter.hRow(p: "ぽん", b: "ぼん", plain: "ほん"),
    note: "h-row counter: ぽん after 1, 6, 8, 10, 100; ぼん after 3, 1000, 万.")

  static let hiki = Counter(
    id: "hiki", symbols: ["匹"], reading: "ひき", kind: .counter,
    finalForms: Counter.hRow(p: "ぴき", b: "びき", plain: "ひき"),
    note: "h-row counter, as 本.")

  package static let hai = Counter(
    id: "hai", symbols: ["杯"], reading: "はい", kind: .counter,
    finalForms: Counter.hRow(p: "ぱい", b: "ばい", plain: "はい"),
    note: "h-row counter, as 本.")

  static let satsu = Counter(
    id: "satsu", symbols: ["冊"], reading: "さつ", kind: .counter,
    finalForms: [
      1: ["いっさつ"], 8: ["はっさつ", "はちさつ"], 10: ["じゅっさつ", "じっさつ"],
      100: ["ひゃくさつ", "ひゃっさつ"],
    ],
    note: "s-row counter: gemination after 1, 8, 10.")

  static let mai = Counter(
    id: "mai", symbols: ["枚"], reading: "まい", kind: .counter, note: "No sound changes.")

  static let dai = Counter(
    id: "dai", symbols: ["台"], reading: "だい", kind: .counter, note: "No sound changes.")

  static let kai = Counter(
    id: "kai", symbols: ["回"], reading: "かい", kind: .counter,
    finalForms: Counter.kRow(geminated: "っかい"),
    note: "k-row counter: gemination after 1, 6, 8, 10, 100.")

  static let floor = Counter(
    id: "floor", symbols: ["階"], reading: "かい", kind: .counter,
    finalForms: Counter.kRow(geminated: "っかい").merging([3: ["さんがい", "さんかい"], 1000: ["せんかい", "せんがい"]]) { _, new in new },
    note: "As 回, and 3階 is さんがい (さんかい also heard); 1000階 せんかい or せんがい.")

  static let nin = Counter(
    id: "nin", symbols: ["人"], reading: "にん", kind: .counter,
    wholeForms: [1: ["ひとり"], 2: ["ふたり"]],
    finalForms: [4: ["よにん"], 7: ["ななにん", "しちにん"], 9: ["きゅうにん", "くにん"]],
    note: "ひとり, ふたり alone; 4 is よにん also in 14, 24 ….")

  /// Portions of food: 人 with まえ, but one and two portions are いちにんまえ and ににんまえ.
  static let ninmae = Counter(
    id: "ninmae", symbols: ["人前"], reading: "にんまえ", kind: .counter,
    wholeForms: [1: ["いちにんまえ", "ひとりまえ"], 2: ["ににんまえ", "ふたりまえ"]],
    finalForms: [4: ["よにんまえ"], 7: ["ななにんまえ", "しちにんまえ"], 9: ["きゅうにんまえ", "くにんまえ"]],
    note: "Portions: いちにんまえ, ににんまえ (ひとりまえ, ふたりまえ also heard); 4 is よにんまえ as with 人.")

  /// つ, the native counter: ひとつ … ここのつ, とお; it is not used past 10.
  package static let tsu = Counter(
    id: "tsu", symbols: ["つ"], reading: "つ", kind: .counter,
    wholeForms: [
      1: ["ひとつ"], 2: ["ふたつ"], 3: ["みっつ"], 4: ["よっつ"], 5: ["いつつ"],
      6: ["むっつ"], 7: ["ななつ"], 8: ["やっつ"], 9: ["ここのつ"], 10: ["とお"],
    ],
    validValues: 1...10, note: "Native numbers; from 11 on, 個 or a bare number is used. 10 is written 十 alone (とお).",
    writtenWhole: [10: "十"])

  static let ken = Counter(
    id: "ken", symbols: ["軒"], reading: "けん", kind: .counter,
    finalForms: Counter.kRow(geminated: "っけん").merging([
      3: ["さんげん", "さんけん"], 1000: ["せんげん"],
    ]) { _, new in new },
    note: "k-row counter; 3軒 is さんげん.")

  static let soku = Counter(
    id: "soku", symbols: ["足"], reading: "そく", kind: .counter,
    finalForms: [
      1: ["いっそく"], 3: ["さんぞく"], 8: ["はっそく", "はちそく"], 10: ["じゅっそく", "じっそく"],
      100: ["ひゃくそく", "ひゃっそく"], 1000: ["せんぞく"],
    ],
    note: "s-row counter; 3足 is さんぞく.")

  static let chaku = Counter(
    id: "chaku", symbols: ["着"], reading: "ちゃく", kind: .counter,
    finalForms: [
      1: ["いっちゃく"], 8: ["はっちゃく", "はちちゃく"], 10: ["じゅっちゃく", "じっちゃく"],
    ],
    note: "t-row counter: gemination after 1, 8, 10.")

  static let tou = Counter(
    id: "tou", symbols: ["頭"], reading: "とう", kind: .counter,
    finalForms: [
      1: ["いっとう"], 8: ["はっとう", "はちとう"], 10: ["じゅっとう", "じっとう"],
    ],
    note: "t-row counter: gemination after 1, 8, 10.")

  static let wa = Counter(
    id: "wa", symbols: ["羽"], reading: "わ", kind: .counter,
    finalForms: [
      3: ["さんば", "さんわ"], 4: ["よんわ", "よんば"], 6: ["ろっぱ", "ろくわ"], 7: ["ななわ", "しちわ"],
      8: ["はちわ", "はっぱ"], 10: ["じっぱ", "じゅっぱ", "じゅうわ"], 100: ["ひゃっぱ", "ひゃくわ"],
      1000: ["せんば", "せんわ"], 10_000: ["まんば", "まんわ"],
    ],
    note: "3 さんば, 6 ろっぱ, 10 じっぱ first, as NHK's announcers put them; the わ forms heard today accepted.")

  static let haku = Counter(
    id: "haku", symbols: ["泊"], reading: "はく", kind: .counter,
    finalForms: [
      1: ["いっぱく"], 3: ["さんぱく", "さんばく"], 4: ["よんはく", "よんぱく"], 6: ["ろっぱく"],
      8: ["はっぱく", "はちはく"], 10: ["じゅっぱく", "じっぱく"], 100: ["ひゃっぱく"],
      1000: ["せんぱく"],
    ],
    note: "h-row counter; 3泊 is さんぱく.")

  static let kenCase = Counter(
    id: "kenCase", symbols: ["件"], reading: "けん", kind: .counter,
    finalForms: Counter.kRow(geminated: "っけん"),
    note: "k-row counter; unlike 軒, 3件 is さんけん.")

  static let doCounter = Counter(
    id: "do", symbols: ["度", "℃", "°C"], reading: "ど", kind: .counter, finalForms: [7: ["ななど", "しちど"]],
    zeroForms: ["れいど", "ぜろど"],
    note: "Degrees, times; ℃ is read ど; 0 is れいど first, as a temperature is read; no sound changes.")

  static let hako = Counter(
    id: "hako", symbols: ["箱"], reading: "はこ", kind: .counter,
    wholeForms: [1: ["ひとはこ", "いっぱこ"], 2: ["ふたはこ", "にはこ"], 3: ["さんはこ", "さんぱこ", "さんばこ", "みはこ"]],
    finalForms: [
      1: ["いっぱこ"], 3: ["さんはこ", "さんぱこ", "さんばこ"], 6: ["ろっぱこ", "ろくはこ"], 8: ["はっぱこ", "はちはこ"],
      10: ["じゅっぱこ", "じっぱこ"], 100: ["ひゃっぱこ", "ひゃくはこ"],
    ],
    note: "ひとはこ, ふたはこ alone; gemination to ぱこ after 1, 6, 8, 10, 100.")

  static let tsuu = Counter(
    id: "tsuu", symbols: ["通"], reading: "つう", kind: .counter,
    finalForms: [
      1: ["いっつう"], 8: ["はっつう", "はちつう"], 10: ["じゅっつう", "じっつう"], 100: ["ひゃくつう", "ひゃっつう"],
    ],
    note: "t-row counter: gemination after 1, 8, 10, and also heard after 100.")

  static let kan = Counter(
    id: "kan", symbols: ["缶"], reading: "かん", kind: .counter,
    wholeForms: [1: ["ひとかん", "いっかん"], 2: ["ふたかん", "にかん"]],
    finalForms: Counter.kRow(geminated: "っかん"),
    note: "ひとかん, ふたかん alone; k-row gemination.")

  static let kyoku = Counter(
    id: "kyoku", symbols: ["曲"], reading: "きょく", kind: .counter,
    finalForms: Counter.kRow(geminated: "っきょく"),
    note: "k-row counter: gemination after 1, 6, 8, 10, 100.")

  // MARK: More counters: gemination before k, s, t, h (see docs/readings.md, "Counters")

  static let kakoku = Counter(
    id: "kakoku", symbols: ["ヶ国", "か国", "カ国", "ケ国", "箇国"], reading: "かこく", kind: .counter,
    finalForms: Counter.kRow(geminated: "っかこく"), note: "Countries; k-row gemination as ヶ月.")

  static let kasho = Counter(
    id: "kasho", symbols: ["ヶ所", "か所", "カ所", "ケ所", "箇所"], reading: "かしょ", kind: .counter,
    finalForms: Counter.kRow(geminated: "っかしょ"), note: "Places; k-row gemination.")

  static let lesson = Counter(
    id: "ka-lesson", symbols: ["課"], reading: "か", kind: .counter,
    finalForms: Counter.kRow(geminated: "っか"), note: "Lessons, sections; k-row gemination.")

  static let school = Counter(
    id: "kou", symbols: ["校"], reading: "こう", kind: .counter,
    finalForms: Counter.kRow(geminated: "っこう"), note: "Schools; k-row gemination.")

  static let volume = Counter(
    id: "kan-volume", symbols: ["巻"], reading: "かん", kind: .counter,
    finalForms: Counter.kRow(geminated: "っかん"), note: "Volumes; k-row gemination; 3巻 stays さんかん.")

  static let kyaku = Counter(
    id: "kyaku", symbols: ["脚"], reading: "きゃく", kind: .counter,
    finalForms: Counter.kRow(geminated: "っきゃく"), note: "Chairs, desks; k-row gemination.")

  static let kire = Counter(
    id: "kire", symbols: ["切れ"], reading: "きれ", kind: .counter,
    wholeForms: [1: ["ひときれ"], 2: ["ふたきれ"], 3: ["さんきれ", "みきれ"]],
    finalForms: Counter.kRow(geminated: "っきれ"),
    note: "Slices: ひときれ, ふたきれ, さんきれ (みきれ, the older native form); ろっきれ, じゅっきれ as k-row counters.")

  static let sara = Counter(
    id: "sara", symbols: ["皿"], reading: "さら", kind: .counter,
    wholeForms: [1: ["ひとさら"], 2: ["ふたさら"], 3: ["さんさら", "みさら"]],
    finalForms: Counter.sRow(geminated: "っさら"),
    note: "Plates and platefuls: ひとさら, ふたさら, さんさら|みさら alone; s-row gemination (はっさら, じゅっさら).")

  static let kuchi = Counter(
    id: "kuchi", symbols: ["口"], reading: "くち", kind: .counter,
    wholeForms: [1: ["ひとくち"], 2: ["ふたくち"], 3: ["さんくち", "みくち"]],
    finalForms: Counter.kRow(geminated: "っくち"),
    note: "Mouthfuls, shares, subscriptions: ひとくち, ふたくち, さんくち|みくち alone; k-row gemination (ろっくち, じゅっくち).")

  static let kumi = Counter(
    id: "kumi", symbols: ["組"], reading: "くみ", kind: .counter,
    wholeForms: [1: ["ひとくみ"], 2: ["ふたくみ"], 3: ["さんくみ", "みくみ"]],
    finalForms: Counter.kRow(geminated: "っくみ"),
    note: "Sets, pairs, groups: ひとくみ, ふたくみ, さんくみ|みくみ alone; k-row gemination (ろっくみ, じゅっくみ).")

  /// 組 naming a class, with Sino-Japanese numbers throughout: 1年1組 is いちねんいちくみ.
  static let kumiClass = Counter(
    id: "kumi-class", symbols: ["組"], reading: "くみ", kind: .name,
    finalForms: [6: ["ろくくみ", "ろっくみ"], 8: ["はちくみ", "はっくみ"], 10: ["じゅっくみ", "じっくみ"], 100: ["ひゃくくみ", "ひゃっくみ"]],
    note: "Class names: いちくみ, にくみ, ろくくみ (also ろっくみ), はちくみ (also はっくみ), じゅっくみ.")

  static let kabu = Counter(
    id: "kabu", symbols: ["株"], reading: "かぶ", kind: .counter,
    wholeForms: [1: ["ひとかぶ"], 2: ["ふたかぶ"]],
    finalForms: Counter.kRow(geminated: "っかぶ"),
    note: "Shares of stock, plants: ひとかぶ, ふたかぶ alone; k-row gemination (ろっかぶ, ひゃっかぶ).")

  static let matches = Counter(
    id: "sen-matches", symbols: ["戦"], reading: "せん", kind: .counter,
    finalForms: Counter.sRow(geminated: "っせん"), note: "Matches, games in a series; s-row gemination after 1, 8, 10.")

  static let shuu = Counter(
    id: "shuu", symbols: ["周"], reading: "しゅう", kind: .counter,
    finalForms: Counter.sRow(geminated: "っしゅう"), note: "Laps, rounds; s-row gemination after 1, 8, 10.")

  static let seki = Counter(
    id: "seki", symbols: ["席"], reading: "せき", kind: .counter,
    finalForms: Counter.sRow(geminated: "っせき"), note: "Seats; s-row gemination after 1, 8, 10.")

  static let shou = Counter(
    id: "shou", symbols: ["章"], reading: "しょう", kind: .counter,
    finalForms: Counter.sRow(geminated: "っしょう"), note: "Chapters; s-row gemination after 1, 8, 10.")

  static let centi = Counter(
    id: "centi", symbols: ["センチ"], reading: "せんち", kind: .unit,
    finalForms: Counter.sRow(geminated: "っせんち"), note: "Centimetres as said; s-row gemination after 1, 8, 10.")
  static let centimetre = Counter.centi.suffixed(id: "centimetre", symbols: ["センチメートル"], kana: "めーとる")
  /// cm is read as said, センチ, or in full, センチメートル.
  static let cm = Counter.centi.written(id: "cm", symbols: ["cm", "ｃｍ"], optionalEnding: "めーとる")

  static let points = Counter(
    id: "ten-points", symbols: ["点"], reading: "てん", kind: .counter,
    finalForms: Counter.tRow(geminated: "ってん").merging([100: ["ひゃくてん", "ひゃってん"]]) { _, new in new },
    zeroForms: ["れいてん", "ぜろてん"],
    note: "Points, marks, items; t-row gemination after 1, 8, 10 (ひゃってん also heard); 0 is れいてん first.")

  static let shops = Counter(
    id: "ten-shops", symbols: ["店"], reading: "てん", kind: .counter,
    finalForms: Counter.tRow(geminated: "ってん"), note: "Shops; t-row gemination as 点.")

  static let hatsu = Counter(
    id: "hatsu", symbols: ["発"], reading: "はつ", kind: .counter,
    finalForms: [
      1: ["いっぱつ"], 3: ["さんぱつ"], 4: ["よんはつ", "よんぱつ"], 6: ["ろっぱつ"], 8: ["はっぱつ", "はちはつ"], 10: ["じゅっぱつ", "じっぱつ"],
      100: ["ひゃっぱつ"], 1000: ["せんぱつ"], 10_000: ["まんぱつ"],
    ],
    note: "Shots, rounds; h-row, with p (not b) after 3: さんぱつ; 4 is よんはつ or よんぱつ, as 4泊.")

  static let steps = Counter(
    id: "ho", symbols: ["歩"], reading: "ほ", kind: .counter,
    finalForms: [
      1: ["いっぽ"], 3: ["さんぽ"], 6: ["ろっぽ"], 8: ["はっぽ", "はちほ"], 10: ["じゅっぽ", "じっぽ"],
      100: ["ひゃっぽ"], 1000: ["せんぽ"], 10_000: ["まんぽ"],
    ],
    note: "Steps; h-row, with p after 3: さんぽ.")

  // MARK: Loanword units (readings in hiragana, as every reading; katakana answers are accepted)

  static let percent = Counter(
    id: "percent", symbols: ["%", "パーセント", "％"], reading: "ぱーせんと", kind: .unit,
    finalForms: [
      1: ["いちぱーせんと", "いっぱーせんと"], 6: ["ろくぱーせんと", "ろっぱーせんと"], 8: ["はちぱーせんと", "はっぱーせんと"],
      10: ["じゅっぱーせんと", "じっぱーせんと"], 100: ["ひゃくぱーせんと", "ひゃっぱーせんと"],
    ],
    zeroForms: ["れいぱーせんと", "ぜろぱーせんと"],
    note: "% is read パーセント: 1, 6, 8 stay いち, ろく, はち, with いっ, ろっ, はっ allowed (NHK); 10 is じゅっ|じっ; 0 is れい first.")

  /// Percent off a price: 20%引き is にじゅっぱーせんとびき, 引き voiced after the unit.
  static let percentOff = Counter.percent.suffixed(
    id: "percent-off", symbols: ["%引き", "パーセント引き", "％引き"], kana: "びき")

  static let page = Counter(
    id: "page", symbols: ["ページ", "頁"], reading: "ぺーじ", kind: .counter,
    finalForms: [
      1: ["いちぺーじ", "いっぺーじ"], 6: ["ろくぺーじ", "ろっぺーじ"], 8: ["はちぺーじ", "はっぺーじ"],
      10: ["じゅっぺーじ", "じっぺーじ"], 100: ["ひゃくぺーじ", "ひゃっぺーじ"],
    ],
    note: "いちページ, ろくページ, はちページ are usual today; the geminated forms are heard too. 10 is じゅっページ.")

  static let kilo = Counter(
    id: "kilo", symbols: ["キロ"], reading: "きろ", kind: .unit,
    finalForms: [
      6: ["ろっきろ", "ろくきろ"], 8: ["はちきろ", "はっきろ"], 10: ["じゅっきろ", "じっきろ"], 100: ["ひゃっきろ", "ひゃくきろ"],
    ],
    note: "Kilometres and kilograms as said; 1 is いちキロ.")
  static let kilometre = Counter.kilo.suffixed(id: "kilometre", symbols: ["キロメートル"], kana: "めーとる")
  static let kilogram = Counter.kilo.suffixed(id: "kilogram", symbols: ["キログラム"], kana: "ぐらむ")
  /// km and kg are read as said, キロ, or in full.
  static let km = Counter.kilo.written(id: "km", symbols: ["km", "ｋｍ"], optionalEnding: "めーとる")
  static let kg = Counter.kilo.written(id: "kg", symbols: ["kg", "ｋｇ"], optionalEnding: "ぐらむ")

  static let metre = Counter(
    id: "metre", symbols: ["メートル", "m", "ｍ"], reading: "めーとる", kind: .unit, note: "No sound changes.")

  static let milli = Counter(
    id: "milli", symbols: ["ミリ"], reading: "みり", kind: .unit, note: "Millimetres as said; no sound changes.")
  static let millimetre = Counter.milli.suffixed(id: "millimetre", symbols: ["ミリメートル"], kana: "めーとる")
  static let mm = Counter.milli.written(id: "mm", symbols: ["mm", "ｍｍ"], optionalEnding: "めーとる")

  static let gram = Counter(
    id: "gram", symbols: ["グラム", "g", "ｇ"], reading: "ぐらむ", kind: .unit, note: "No sound changes.")

  static let litre = Counter(
    id: "litre", symbols: ["リットル", "L", "ℓ"], reading: "りっとる", kind: .unit, note: "No sound changes.")

  static let dollar = Counter(
    id: "dollar", symbols: ["ドル"], reading: "どる", kind: .money, note: "No sound changes.")

  static let euro = Counter(
    id: "euro", symbols: ["ユーロ"], reading: "ゆーろ", kind: .money, note: "No sound changes.")

  // MARK: Counters with no sound changes

  static let mei = Counter(
    id: "mei", symbols: ["名"], reading: "めい", kind: .counter, note: "People, formally; no sound changes.")
  static let bu = Counter(
    id: "bu", symbols: ["部"], reading: "ぶ", kind: .counter, note: "Copies, parts; no sound changes.")
  /// 番 numbers a thing in order; 110番, the police, is ひゃくとおばん as everyone says it.
  static let ban = Counter(
    id: "ban", symbols: ["番"], reading: "ばん", kind: .counter, wholeForms: [110: ["ひゃくとおばん", "ひゃくじゅうばん"]],
    note: "Numbers in order; no sound changes; 110番 (the police) is ひゃくとおばん, ひゃくじゅうばん the older form.")
  static let gou = Counter(
    id: "gou", symbols: ["号"], reading: "ごう", kind: .counter, note: "Issues, rooms, cars; no sound changes.")
  static let bai = Counter(
    id: "bai", symbols: ["倍"], reading: "ばい", kind: .counter, note: "Times as much; no sound changes.")
  static let rank = Counter(
    id: "i-rank", symbols: ["位"], reading: "い", kind: .counter, note: "Ranks, places; no sound changes.")
  static let gyou = Counter(
    id: "gyou", symbols: ["行"], reading: "ぎょう", kind: .counter, note: "Lines of text; no sound changes.")
  static let retsu = Counter(
    id: "retsu", symbols: ["列"], reading: "れつ", kind: .counter, note: "Rows, queues; no sound changes.")
  static let mon = Counter(
    id: "mon", symbols: ["問"], reading: "もん", kind: .counter, note: "Questions; no sound changes.")
  static let bansen = Counter(
    id: "bansen", symbols: ["番線"], reading: "ばんせん", kind: .name, note: "Station platforms (tracks); no sound changes.")
  static let gousha = Counter(
    id: "gousha", symbols: ["号車"], reading: "ごうしゃ", kind: .name, note: "Train cars by number; no sound changes.")

  /// An s-row counter's changed forms: 1, 8 and 10 geminate (いっさつ, はっさつ|はちさつ,
  /// じゅっさつ|じっさつ); 100 may (ひゃくさつ|ひゃっさつ).
  static func sRow(geminated tail: String) -> [UInt64: [String]] {
    let plain = String(tail.dropFirst())
    return [
      1: ["い" + tail], 8: ["は" + tail, "はち" + plain], 10: ["じゅ" + tail, "じ" + tail], 100: ["ひゃく" + plain, "ひゃ" + tail],
    ]
  }

  /// A t-row counter's changed forms: 1, 8 and 10 geminate (いってん, はってん|はちてん,
  /// じゅってん|じってん).
  static func tRow(geminated tail: String) -> [UInt64: [String]] {
    let plain = String(tail.dropFirst())
    return [1: ["い" + tail], 8: ["は" + tail, "はち" + plain], 10: ["じゅ" + tail, "じ" + tail]]
  }

  /// A k-row counter's changed forms: 1, 6, 8, 10 and 100 geminate (いっかい, ろっかい,
  /// はっかい|はちかい, じゅっかい|じっかい, ひゃっかい).
  static func kRow(geminated tail: String) -> [UInt64: [String]] {
    let plain = String(tail.dropFirst())
    return [
      1: ["い" + tail], 6: ["ろ" + tail], 8: ["は" + tail, "はち" + plain],
      10: ["じゅ" + tail, "じ" + tail], 100: ["ひゃ" + tail],
    ]
  }

  /// An h-row counter's changed forms: p after 1, 6, 8, 10, 100; b after 3, 千, 万.
  static func hRow(p: String, b: String, plain: String) -> [UInt64: [String]] {
    [
      1: ["いっ" + p], 3: ["さん" + b], 6: ["ろっ" + p], 8: ["はっ" + p, "はち" + plain],
      10: ["じゅっ" + p, "じっ" + p], 100: ["ひゃっ" + p], 1000: ["せん" + b], 10_000: ["まん" + b],
    ]
  }
}

/// Every built-in unit and counter, looked up by id or by symbol.
package struct CounterCatalog: Sendable {
  package let counters: [Counter]
  /// All symbols, longest first, so a suffix matcher prefers 時間 to 時 and 分間 to 分.
  package let symbolsLongestFirst: [String]

  /// The symbols by first scalar, for the phrase reader.
  let symbolIndex: FirstScalarIndex

  /// Counters by symbol, grouped by the symbol's first scalar: a phrase asks once per number,
  /// and scanning every counter's symbols grew with the catalog (a fifth of `biki read`'s time at
  /// 170 counters); a group holds a few symbols, compared by their bytes.
  private let bySymbol: [UInt32: [(symbol: String, counters: [Counter])]]

  package init(_ counters: [Counter]) {
    self.counters = counters
    // Each symbol's length counted once: counting characters in every comparison was most of
    // a catalog's making, which every start waits for.
    self.symbolsLongestFirst = Set(counters.flatMap(\.symbols)).map { (length: $0.count, symbol: $0) }
      .sorted { ($0.length, $0.symbol) > ($1.length, $1.symbol) }.map(\.symbol)
    self.symbolIndex = FirstScalarIndex(symbolsLongestFirst)
    var bySymbol: [UInt32: [(symbol: String, counters: [Counter])]] = [:]
    for counter in counters {
      for symbol in counter.symbols {
        guard let first = symbol.unicodeScalars.first?.value else { continue }
        var group = bySymbol[first] ?? []
        if let index = group.firstIndex(where: { $0.symbol.hasSameBytes(as: symbol) }) {
          group[index].counters.append(counter)
        } else {
          group.append((symbol, [counter]))
        }
        bySymbol[first] = group
      }
    }
    self.bySymbol = bySymbol
  }

  package static let standard = CounterCatalog(
    [
      .yen, .hour, .minute, .second, .month, .dayOfMonth, .day, .days, .hours, .minutes, .seconds,
      .weeks, .months, .year, .years, .age, .ko, .hon, .hiki, .hai, .satsu, .mai, .dai, .kai, .floor,
      .nin, .tsu, .ken, .soku, .chaku, .tou, .wa, .haku, .kenCase, .doCounter, .hako, .tsuu, .kan,
      .kyoku, .kakoku, .kasho, .lesson, .school, .volume, .kyaku, .kire, .shuu, .seki, .shou, .centi, .centimetre, .cm,
      .points, .shops,
      .hatsu, .steps, .percent, .page, .kilo, .kilometre, .kilogram, .km, .kg, .metre, .milli, .millimetre, .mm, .gram,
      .litre, .dollar, .euro, .mei, .bu, .ban, .gou, .bai,
      .rank, .gyou, .retsu, .mon, .sara, .kuchi, .kumi, .kumiClass, .kabu, .matches, .ninmae, .percentOff, .bansen,
      .gousha,
    ] + Counter.everyday + Counter.wild)

  /// A counter by id: one of the catalog's, or one the reader chooses by what comes before it
  /// (`Counter.chosenByContext`), which a pack may name by id (`"counter": "bu-tenth"`).
  package func counter(id: String) -> Counter? {
    counters.first { $0.id == id } ?? Counter.chosenByContext.first { $0.id == id }
  }

  /// Counters written with `symbol`, in catalog order (日 gives the date and the count). The
  /// symbol is matched by its bytes once sound marks are composed (ヘ + ゚ is ペ), as the phrase
  /// reader composes them.
  package func counters(symbol: String) -> [Counter] {
    let composed =
      KanaText.hasCombiningMark(symbol)
      ? String(String.UnicodeScalarView(KanaText.composingSoundMarks(Array(symbol.unicodeScalars)))) : symbol
    guard let first = composed.unicodeScalars.first?.value, let group = bySymbol[first] else { return [] }
    return group.first { $0.symbol.hasSameBytes(as: composed) }?.counters ?? []
  }

}
