import Testing

@testable import BikiJapanese

/// The counters and units added for what learners meet in a week in Japan: 1–10, 21, 38 and 100,
/// the standard reading first, then every alternate Biki accepts.
///
/// Sources (see docs/readings.md, "More counters and units"): NHK日本語発音アクセント新辞典 and
/// NHKことばのハンドブック for the gemination rules by the counter's first consonant (k: after 1,
/// 6, 8, 10, 100; s and t: after 1, 8, 10; h: p after 1, 6, 8, 10, 100); Tofugu's counter guides;
/// JapanesePod101's "Japanese Counters for Beginners" for 切れ (ひときれ, ふたきれ, さんきれ|みきれ,
/// ろっきれ, じゅっきれ).
@Suite struct MoreCounterReadingTests {
  static let values: [UInt128] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 21, 38, 100]

  static let tables: [(Counter, String)] = [
    (
      .kakoku,
      "いっかこく にかこく さんかこく よんかこく ごかこく ろっかこく ななかこく はっかこく|はちかこく きゅうかこく じゅっかこく|じっかこく にじゅういっかこく さんじゅうはっかこく|さんじゅうはちかこく ひゃっかこく"
    ),
    (
      .kasho,
      "いっかしょ にかしょ さんかしょ よんかしょ ごかしょ ろっかしょ ななかしょ はっかしょ|はちかしょ きゅうかしょ じゅっかしょ|じっかしょ にじゅういっかしょ さんじゅうはっかしょ|さんじゅうはちかしょ ひゃっかしょ"
    ),
    (.lesson, "いっか にか さんか よんか ごか ろっか ななか はっか|はちか きゅうか じゅっか|じっか にじゅういっか さんじゅうはっか|さんじゅうはちか ひゃっか"),
    (.school, "いっこう にこう さんこう よんこう ごこう ろっこう ななこう はっこう|はちこう きゅうこう じゅっこう|じっこう にじゅういっこう さんじゅうはっこう|さんじゅうはちこう ひゃっこう"),
    (.volume, "いっかん にかん さんかん よんかん ごかん ろっかん ななかん はっかん|はちかん きゅうかん じゅっかん|じっかん にじゅういっかん さんじゅうはっかん|さんじゅうはちかん ひゃっかん"),
    (
      .kyaku,
      "いっきゃく にきゃく さんきゃく よんきゃく ごきゃく ろっきゃく ななきゃく はっきゃく|はちきゃく きゅうきゃく じゅっきゃく|じっきゃく にじゅういっきゃく さんじゅうはっきゃく|さんじゅうはちきゃく ひゃっきゃく"
    ),
    (.kire, "ひときれ ふたきれ さんきれ|みきれ よんきれ ごきれ ろっきれ ななきれ はっきれ|はちきれ きゅうきれ じゅっきれ|じっきれ にじゅういっきれ さんじゅうはっきれ|さんじゅうはちきれ ひゃっきれ"),
    (
      .shuu,
      "いっしゅう にしゅう さんしゅう よんしゅう ごしゅう ろくしゅう ななしゅう はっしゅう|はちしゅう きゅうしゅう じゅっしゅう|じっしゅう にじゅういっしゅう さんじゅうはっしゅう|さんじゅうはちしゅう ひゃくしゅう|ひゃっしゅう"
    ),
    (.seki, "いっせき にせき さんせき よんせき ごせき ろくせき ななせき はっせき|はちせき きゅうせき じゅっせき|じっせき にじゅういっせき さんじゅうはっせき|さんじゅうはちせき ひゃくせき|ひゃっせき"),
    (
      .shou,
      "いっしょう にしょう さんしょう よんしょう ごしょう ろくしょう ななしょう はっしょう|はちしょう きゅうしょう じゅっしょう|じっしょう にじゅういっしょう さんじゅうはっしょう|さんじゅうはちしょう ひゃくしょう|ひゃっしょう"
    ),
    (
      .centi,
      "いっせんち にせんち さんせんち よんせんち ごせんち ろくせんち ななせんち はっせんち|はちせんち きゅうせんち じゅっせんち|じっせんち にじゅういっせんち さんじゅうはっせんち|さんじゅうはちせんち ひゃくせんち|ひゃっせんち"
    ),
    (.points, "いってん にてん さんてん よんてん ごてん ろくてん ななてん はってん|はちてん きゅうてん じゅってん|じってん にじゅういってん さんじゅうはってん|さんじゅうはちてん ひゃくてん|ひゃってん"),
    (.shops, "いってん にてん さんてん よんてん ごてん ろくてん ななてん はってん|はちてん きゅうてん じゅってん|じってん にじゅういってん さんじゅうはってん|さんじゅうはちてん ひゃくてん"),
    (.hatsu, "いっぱつ にはつ さんぱつ よんはつ|よんぱつ ごはつ ろっぱつ ななはつ はっぱつ|はちはつ きゅうはつ じゅっぱつ|じっぱつ にじゅういっぱつ さんじゅうはっぱつ|さんじゅうはちはつ ひゃっぱつ"),
    (.steps, "いっぽ にほ さんぽ よんほ ごほ ろっぽ ななほ はっぽ|はちほ きゅうほ じゅっぽ|じっぽ にじゅういっぽ さんじゅうはっぽ|さんじゅうはちほ ひゃっぽ"),
    (
      .percent,
      "いちぱーせんと|いっぱーせんと にぱーせんと さんぱーせんと よんぱーせんと ごぱーせんと ろくぱーせんと|ろっぱーせんと ななぱーせんと はちぱーせんと|はっぱーせんと きゅうぱーせんと じゅっぱーせんと|じっぱーせんと にじゅういちぱーせんと|にじゅういっぱーせんと さんじゅうはちぱーせんと|さんじゅうはっぱーせんと ひゃくぱーせんと|ひゃっぱーせんと"
    ),
    (
      .page,
      "いちぺーじ|いっぺーじ にぺーじ さんぺーじ よんぺーじ ごぺーじ ろくぺーじ|ろっぺーじ ななぺーじ はちぺーじ|はっぺーじ きゅうぺーじ じゅっぺーじ|じっぺーじ にじゅういちぺーじ|にじゅういっぺーじ さんじゅうはちぺーじ|さんじゅうはっぺーじ ひゃくぺーじ|ひゃっぺーじ"
    ),
    (
      .kilo, "いちきろ にきろ さんきろ よんきろ ごきろ ろっきろ|ろくきろ ななきろ はちきろ|はっきろ きゅうきろ じゅっきろ|じっきろ にじゅういちきろ さんじゅうはちきろ|さんじゅうはっきろ ひゃっきろ|ひゃくきろ"
    ),
    (.metre, "いちめーとる にめーとる さんめーとる よんめーとる ごめーとる ろくめーとる ななめーとる はちめーとる きゅうめーとる じゅうめーとる にじゅういちめーとる さんじゅうはちめーとる ひゃくめーとる"),
    (.milli, "いちみり にみり さんみり よんみり ごみり ろくみり ななみり はちみり きゅうみり じゅうみり にじゅういちみり さんじゅうはちみり ひゃくみり"),
    (.gram, "いちぐらむ にぐらむ さんぐらむ よんぐらむ ごぐらむ ろくぐらむ ななぐらむ はちぐらむ きゅうぐらむ じゅうぐらむ にじゅういちぐらむ さんじゅうはちぐらむ ひゃくぐらむ"),
    (.litre, "いちりっとる にりっとる さんりっとる よんりっとる ごりっとる ろくりっとる ななりっとる はちりっとる きゅうりっとる じゅうりっとる にじゅういちりっとる さんじゅうはちりっとる ひゃくりっとる"),
    (.dollar, "いちどる にどる さんどる よんどる ごどる ろくどる ななどる はちどる きゅうどる じゅうどる にじゅういちどる さんじゅうはちどる ひゃくどる"),
    (.euro, "いちゆーろ にゆーろ さんゆーろ よんゆーろ ごゆーろ ろくゆーろ ななゆーろ はちゆーろ きゅうゆーろ じゅうゆーろ にじゅういちゆーろ さんじゅうはちゆーろ ひゃくゆーろ"),
    (.mei, "いちめい にめい さんめい よんめい ごめい ろくめい ななめい はちめい きゅうめい じゅうめい にじゅういちめい さんじゅうはちめい ひゃくめい"),
    (.bu, "いちぶ にぶ さんぶ よんぶ ごぶ ろくぶ ななぶ はちぶ きゅうぶ じゅうぶ にじゅういちぶ さんじゅうはちぶ ひゃくぶ"),
    (.ban, "いちばん にばん さんばん よんばん ごばん ろくばん ななばん はちばん きゅうばん じゅうばん にじゅういちばん さんじゅうはちばん ひゃくばん"),
    (.gou, "いちごう にごう さんごう よんごう ごごう ろくごう ななごう はちごう きゅうごう じゅうごう にじゅういちごう さんじゅうはちごう ひゃくごう"),
    (.bai, "いちばい にばい さんばい よんばい ごばい ろくばい ななばい はちばい きゅうばい じゅうばい にじゅういちばい さんじゅうはちばい ひゃくばい"),
    (.rank, "いちい にい さんい よんい ごい ろくい なない はちい きゅうい じゅうい にじゅういちい さんじゅうはちい ひゃくい"),
    (.gyou, "いちぎょう にぎょう さんぎょう よんぎょう ごぎょう ろくぎょう ななぎょう はちぎょう きゅうぎょう じゅうぎょう にじゅういちぎょう さんじゅうはちぎょう ひゃくぎょう"),
    (.retsu, "いちれつ にれつ さんれつ よんれつ ごれつ ろくれつ ななれつ はちれつ きゅうれつ じゅうれつ にじゅういちれつ さんじゅうはちれつ ひゃくれつ"),
    (
      .sara, "ひとさら ふたさら さんさら|みさら よんさら ごさら ろくさら ななさら はっさら|はちさら きゅうさら じゅっさら|じっさら にじゅういっさら さんじゅうはっさら|さんじゅうはちさら ひゃくさら|ひゃっさら"
    ),
    (.kuchi, "ひとくち ふたくち さんくち|みくち よんくち ごくち ろっくち ななくち はっくち|はちくち きゅうくち じゅっくち|じっくち にじゅういっくち さんじゅうはっくち|さんじゅうはちくち ひゃっくち"),
    (.kumi, "ひとくみ ふたくみ さんくみ|みくみ よんくみ ごくみ ろっくみ ななくみ はっくみ|はちくみ きゅうくみ じゅっくみ|じっくみ にじゅういっくみ さんじゅうはっくみ|さんじゅうはちくみ ひゃっくみ"),
    (
      .kumiClass,
      "いちくみ にくみ さんくみ よんくみ ごくみ ろくくみ|ろっくみ ななくみ はちくみ|はっくみ きゅうくみ じゅっくみ|じっくみ にじゅういちくみ さんじゅうはちくみ|さんじゅうはっくみ ひゃくくみ|ひゃっくみ"
    ),
    (.kabu, "ひとかぶ ふたかぶ さんかぶ よんかぶ ごかぶ ろっかぶ ななかぶ はっかぶ|はちかぶ きゅうかぶ じゅっかぶ|じっかぶ にじゅういっかぶ さんじゅうはっかぶ|さんじゅうはちかぶ ひゃっかぶ"),
    (.matches, "いっせん にせん さんせん よんせん ごせん ろくせん ななせん はっせん|はちせん きゅうせん じゅっせん|じっせん にじゅういっせん さんじゅうはっせん|さんじゅうはちせん ひゃくせん|ひゃっせん"),
    (
      .ninmae,
      "いちにんまえ|ひとりまえ ににんまえ|ふたりまえ さんにんまえ よにんまえ ごにんまえ ろくにんまえ ななにんまえ|しちにんまえ はちにんまえ きゅうにんまえ|くにんまえ じゅうにんまえ にじゅういちにんまえ さんじゅうはちにんまえ ひゃくにんまえ"
    ),
    (
      .percentOff,
      "いちぱーせんとびき|いっぱーせんとびき にぱーせんとびき さんぱーせんとびき よんぱーせんとびき ごぱーせんとびき ろくぱーせんとびき|ろっぱーせんとびき ななぱーせんとびき はちぱーせんとびき|はっぱーせんとびき きゅうぱーせんとびき じゅっぱーせんとびき|じっぱーせんとびき にじゅういちぱーせんとびき|にじゅういっぱーせんとびき さんじゅうはちぱーせんとびき|さんじゅうはっぱーせんとびき ひゃくぱーせんとびき|ひゃっぱーせんとびき"
    ),
    (.bansen, "いちばんせん にばんせん さんばんせん よんばんせん ごばんせん ろくばんせん ななばんせん はちばんせん きゅうばんせん じゅうばんせん にじゅういちばんせん さんじゅうはちばんせん ひゃくばんせん"),
    (.gousha, "いちごうしゃ にごうしゃ さんごうしゃ よんごうしゃ ごごうしゃ ろくごうしゃ ななごうしゃ はちごうしゃ きゅうごうしゃ じゅうごうしゃ にじゅういちごうしゃ さんじゅうはちごうしゃ ひゃくごうしゃ"),
    (.mon, "いちもん にもん さんもん よんもん ごもん ろくもん ななもん はちもん きゅうもん じゅうもん にじゅういちもん さんじゅうはちもん ひゃくもん"),
  ]

  @Test(arguments: tables)
  func readsAsLearnersHearIt(counter: Counter, table: String) {
    let words = table.split(separator: " ").map { $0.split(separator: "|").map(String.init) }
    #expect(words.count == Self.values.count)
    for (value, expected) in zip(Self.values, words) { expectReadings(value, counter, expected) }
  }

  /// Symbols are read like their words: 10% as 10パーセント, 6cm as 6センチ, 10km as 10キロ.
  @Test(arguments: [
    ("10%", "じゅっぱーせんと"), ("10％", "じゅっぱーせんと"), ("6cm", "ろくせんち"), ("10km", "じゅっきろ"), ("3kg", "さんきろ"),
    ("8m", "はちめーとる"), ("5mm", "ごみり"), ("2L", "にりっとる"), ("3ヶ国", "さんかこく"), ("6か所", "ろっかしょ"), ("1箇所", "いっかしょ"),
  ])
  func symbolsAreReadAsTheirWords(text: String, reading: String) throws {
    #expect(try PhraseReader().read(text, as: .counter).standard == reading)
  }

  /// 組 counts sets (ひとくみ) unless asked to name a class (いちくみ) or after a school year; the longer symbols are
  /// read whole (人前 after a number is a portion, not 人 and 前).
  @Test(
    arguments: [
      ("1組", nil, "ひとくみ"), ("1組", .name, "いちくみ"), ("3組", .name, "さんくみ"), ("1組", .counter, "ひとくみ"),
      // After a school year 組 names the class: 1年1組 is class 1 of the first year.
      ("1年1組", nil, "いちねんいちくみ"), ("3年2組", nil, "さんねんにくみ"), ("6年4組", nil, "ろくねんよんくみ"),
      ("2人前", nil, "ににんまえ"), ("3番線", nil, "さんばんせん"), ("6号車", nil, "ろくごうしゃ"), ("20%引き", nil, "にじゅっぱーせんとびき"),
      ("30パーセント引き", nil, "さんじゅっぱーせんとびき"),
    ] as [(String, PhraseKind?, String)])
  func aSymbolThatCountsAndNamesIsReadAsAsked(text: String, kind: PhraseKind?, reading: String) throws {
    #expect(try PhraseReader().read(text, as: kind).standard == reading)
  }

  /// km, kg, cm and mm are said short (キロ, センチ, ミリ) or in full (キロメートル, キログラム,
  /// センチメートル, ミリメートル); a unit written in full is read in full.
  @Test(arguments: [
    ("3km", ["さんきろ", "さんきろめーとる"]), ("6km", ["ろっきろ", "ろっきろめーとる", "ろくきろ", "ろくきろめーとる"]),
    ("100km", ["ひゃっきろ", "ひゃっきろめーとる", "ひゃくきろ", "ひゃくきろめーとる"]), ("1kg", ["いちきろ", "いちきろぐらむ"]),
    ("8kg", ["はちきろ", "はちきろぐらむ", "はっきろ", "はっきろぐらむ"]), ("1cm", ["いっせんち", "いっせんちめーとる"]),
    ("5mm", ["ごみり", "ごみりめーとる"]), ("3キロメートル", ["さんきろめーとる"]), ("10キロメートル", ["じゅっきろめーとる", "じっきろめーとる"]),
    ("3キログラム", ["さんきろぐらむ"]), ("1センチメートル", ["いっせんちめーとる"]), ("5ミリメートル", ["ごみりめーとる"]), ("3キロ", ["さんきろ"]),
  ])
  func unitsAreSaidShortOrInFull(text: String, readings: [String]) throws {
    #expect(Set(try PhraseReader().read(text, as: .counter).all()) == Set(readings))
  }

  @Test func aUnitSaidInFullMustBeTheRightOne() throws {
    let reader = PhraseReader()
    #expect(try reader.read("3km", as: .counter).acceptsTyped("サンキロメートル"))
    #expect(try !reader.read("3km", as: .counter).acceptsTyped("さんきろぐらむ"))
    #expect(try !reader.read("3kg", as: .counter).acceptsTyped("さんきろめーとる"))
    #expect(try !reader.read("3キロメートル", as: .counter).acceptsTyped("さんきろ"))
  }

  /// Loanword readings keep their long-vowel mark, as written; every way of typing them counts.
  @Test(arguments: ["じゅっぱーせんと", "ジュッパーセント", "じゅっぱあせんと", "ｼﾞｭｯﾊﾟｰｾﾝﾄ", "じっぱーせんと"])
  func loanwordAnswersAreAcceptedAsTyped(typed: String) throws {
    #expect(try JapaneseNumber.reading(of: 10, with: .percent).acceptsTyped(typed))
  }

  /// A long e is spelled い or え in kana: いちぺいじ, いちぺえじ and イチページ are all 1ページ.
  @Test(arguments: ["いちぺーじ", "いちぺいじ", "いちぺえじ", "イチページ", "いっぺえじ"])
  func aLongEIsAcceptedSpelledEitherWay(typed: String) throws {
    #expect(try JapaneseNumber.reading(of: 1, with: .page).acceptsTyped(typed))
  }

  @Test func aWrongLoanwordAnswerIsStillWrong() throws {
    #expect(try !JapaneseNumber.reading(of: 10, with: .percent).acceptsTyped("じゅうぱーせんと"))
  }

  /// Sixty counters and units at least, each with a note saying what it does.
  @Test func theCatalogIsBroad() {
    #expect(CounterCatalog.standard.counters.count >= 60)
    for counter in CounterCatalog.standard.counters { #expect(!counter.note.isEmpty, "\(counter.id)") }
  }
}
