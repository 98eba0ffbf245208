import Testing

@testable import BikiJapanese

/// Numbers as they are written in the wild — scoreboards, weather maps, receipts, floor plans,
/// certificates, timetables — with the words around them. Each row: the text, its standard
/// reading, readings also accepted, and readings a learner must not be taught.
///
/// Sources (docs/readings.md, "Numbers in the wild"): デジタル大辞泉 (分 ぶ and 厘 りん as tenths and
/// hundredths of 割; 度 and 分 of a fever; 年度, 年代, 歳児, 回表/回裏, 円玉, 円札, 震度, and each word's
/// own reading); NHK松江's 三上弥, 「数字・数詞の〝深さ〟」 and 「〝深い〟日本語」 (34日間
/// さんじゅうよんにちかん first past 31; 3羽 さんば, 6羽 ろっぱ, 10羽 じっぱ first); NHK静岡's 三上弥 after
/// NHK日本語発音アクセント新辞典 (10.9度 じってんきゅうど; 1.5 いちてんご); the Japan Meteorological
/// Agency's 震度階級 (0–4, 5弱, 5強, 6弱, 6強, 7); baseball's counts said in English (ワンアウト,
/// ツーアウト, スリーボール); 英検's grades (準2級 じゅんにきゅう).
@Suite struct WildNumberTests {
  struct Row: CustomTestStringConvertible, Sendable {
    let text: String
    let standard: String
    let accepted: [String]
    let wrong: [String]
    var testDescription: String { "\(text) → \(standard)" }
  }

  static func row(_ text: String, _ standard: String, also accepted: [String] = [], not wrong: [String] = []) -> Row {
    Row(text: text, standard: standard, accepted: accepted, wrong: wrong)
  }

  static let rows: [Row] = [
    // 割分厘: 分 is ぶ, 厘 りん, with no sound change.
    row("3割5分", "さんわりごぶ", not: ["さんわりごふん"]),
    row("2割8分", "にわりはちぶ", not: ["にわりはっぷん", "にわりはっぶ"]),
    row("9割9分", "きゅうわりきゅうぶ", also: ["きゅうわりくぶ"]),
    row("打率3割2分1厘", "だりつさんわりにぶいちりん", not: ["だりつさんわりにふんいちりん"]),
    row("3割4分7厘", "さんわりよんぶななりん", also: ["さんわりよんぶしちりん"]),
    row("2割引き", "にわりびき"),
    row("3割増し", "さんわりまし"),
    // 度分: a fever's tenths.
    row("37度5分", "さんじゅうななどごぶ", also: ["さんじゅうしちどごぶ"], not: ["さんじゅうななどごふん"]),
    row("38度2分", "さんじゅうはちどにぶ", not: ["さんじゅうはちどにふん"]),
    // Days past the calendar's 31: the number's own reading first.
    row("34日間", "さんじゅうよんにちかん", also: ["さんじゅうよっかかん"]),
    row("104日間", "ひゃくよんにちかん", also: ["ひゃくよっかかん"]),
    row("114日間", "ひゃくじゅうよんにちかん", also: ["ひゃくじゅうよっかかん"]),
    row("24日間", "にじゅうよっかかん", not: ["にじゅうよんにちかん"]),
    row("14日間", "じゅうよっかかん", not: ["じゅうよんにちかん"]),
    // NHK's order.
    row("3羽", "さんば", also: ["さんわ"]),
    row("6羽", "ろっぱ", also: ["ろくわ"]),
    row("10羽", "じっぱ", also: ["じゅっぱ"]),
    row("10.5", "じってんご", also: ["じゅってんご"]),
    row("7度", "ななど", also: ["しちど"]),
    row("1年1組", "いちねんいちくみ", not: ["いちねんひとくみ"]),
    row("3月14日午後7時半", "さんがつじゅうよっかごごしちじはん", also: ["さんがつじゅうよっかごごななじはん"]),
    // 0 said as まる in rooms and codes.
    row("108号室", "ひゃくはちごうしつ", also: ["いちまるはちごうしつ"]),
    row("0120", "ぜろいちにぜろ", also: ["まるいちにまる", "まるいちにーまる"]),
    // Sports.
    row("3回裏", "さんかいうら"),
    row("9回表", "きゅうかいおもて", not: ["きゅうかいひょう"]),
    row("1回表", "いっかいおもて"),
    row("6回裏", "ろっかいうら"),
    row("2アウト", "つーあうと", not: ["にあうと"]),
    row("1アウト", "わんあうと"),
    row("0アウト", "のーあうと"),
    row("3ボール2ストライク", "すりーぼーるつーすとらいく"),
    row("3勝2敗", "さんしょうにはい"),
    row("1勝3敗", "いっしょうさんぱい", not: ["いちしょうさんはい"]),
    row("10勝", "じゅっしょう", also: ["じっしょう"]),
    row("3回裏1対0", "さんかいうらいちたいれい", also: ["さんかいうらいちたいぜろ"]),
    row("3打数2安打", "さんだすうにあんだ"),
    row("5打点", "ごだてん"),
    row("3連勝", "さんれんしょう"),
    row("5連敗", "ごれんぱい"),
    row("3ゲーム差", "さんげーむさ"),
    row("9回2死", "きゅうかいにし"),
    row("1死", "いっし"),
    row("延長12回", "えんちょうじゅうにかい"),
    row("前半15分", "ぜんはんじゅうごふん"),
    row("後半45分", "こうはんよんじゅうごふん"),
    row("第5話", "だいごわ"),
    row("2発", "にはつ"),
    row("2弾", "にだん"),
    // Ranges.
    row("3〜5人", "さんにんからごにん", also: ["さんからごにん"]),
    row("3人〜5人", "さんにんからごにん"),
    row("3〜5日", "みっかからいつか", also: ["さんからいつか"]),
    row("1〜2人", "ひとりからふたり", also: ["いちからふたり"]),
    row("1〜2時間", "いちじかんからにじかん", also: ["いちからにじかん"]),
    row("午前9時〜午後5時", "ごぜんくじからごごごじ"),
    row("10時〜17時", "じゅうじからじゅうしちじ", also: ["じゅうじからじゅうななじ"]),
    row("20〜30代", "にじゅうだいからさんじゅうだい", also: ["にじゅうからさんじゅうだい"]),
    row("5~10分", "ごふんからじゅっぷん", also: ["ごからじゅっぷん", "ごからじっぷん"]),
    // Weather.
    row("震度5強", "しんどごきょう"),
    row("震度6弱", "しんどろくじゃく"),
    row("震度7", "しんどなな", not: ["しんどしち"]),
    row("震度4", "しんどよん", not: ["しんどし"]),
    row("降水確率30%", "こうすいかくりつさんじゅっぱーせんと", also: ["こうすいかくりつさんじっぱーせんと"]),
    row("風速10メートル", "ふうそくじゅうめーとる"),
    row("最高気温35度", "さいこうきおんさんじゅうごど"),
    row("最低気温マイナス3度", "さいていきおんまいなすさんど"),
    row("湿度60%", "しつどろくじゅっぱーせんと", also: ["しつどろくじっぱーせんと"]),
    row("台風3号", "たいふうさんごう"),
    row("気圧1013ヘクトパスカル", "きあつせんじゅうさんへくとぱすかる"),
    row("マグニチュード7.3", "まぐにちゅーどななてんさん"),
    row("M7.3", "まぐにちゅーどななてんさん"),
    // Years.
    row("1990年代", "せんきゅうひゃくきゅうじゅうねんだい"),
    row("80年代", "はちじゅうねんだい"),
    row("21世紀", "にじゅういっせいき"),
    row("2026年度", "にせんにじゅうろくねんど"),
    row("令和8年度", "れいわはちねんど"),
    // Clocks and spans.
    row("25時", "にじゅうごじ"),
    row("5分前", "ごふんまえ"),
    row("10分後", "じゅっぷんご", also: ["じっぷんご"]),
    row("3日後", "みっかご"),
    row("3時頃", "さんじごろ"),
    row("1時間弱", "いちじかんじゃく"),
    row("9:00-17:00", "くじからじゅうしちじ", also: ["くじからじゅうななじ"]),
    row("9秒58", "きゅうびょうごじゅうはち"),
    row("朝7時", "あさしちじ", also: ["あさななじ"]),
    row("毎月1日", "まいつきついたち", not: ["まいつきいちにち"]),
    row("週3回", "しゅうさんかい"),
    row("年1回", "ねんいっかい"),
    row("8時台", "はちじだい"),
    row("18時以降", "じゅうはちじいこう"),
    row("5分おき", "ごふんおき"),
    row("3年ぶり", "さんねんぶり"),
    row("5年連続", "ごねんれんぞく"),
    row("19世紀末", "じゅうきゅうせいきまつ"),
    row("10時ちょうど", "じゅうじちょうど"),
    row("西暦2024年", "せいれきにせんにじゅうよねん"),
    // Exams, sizes, homes.
    row("英検2級", "えいけんにきゅう"),
    row("準2級", "じゅんにきゅう"),
    row("3級", "さんきゅう"),
    row("1級", "いっきゅう", not: ["いちきゅう"]),
    row("漢検8級", "かんけんはちきゅう", also: ["かんけんはっきゅう"]),
    row("A4", "えーよん", not: ["えーし"]),
    row("B5", "びーご"),
    row("3LDK", "さんえるでぃーけー"),
    row("1K", "わんけー", also: ["いちけー"]),
    row("2DK", "にでぃーけー"),
    row("5号", "ごごう"),
    row("80平米", "はちじゅうへいべい"),
    row("A5サイズ", "えーごさいず"),
    row("英検準1級", "えいけんじゅんいっきゅう"),
    row("小学3年生", "しょうがくさんねんせい"),
    row("TOEIC800点", "とーいっくはっぴゃくてん"),
    row("32型", "さんじゅうにがた"),
    row("2次試験", "にじしけん"),
    row("100点満点", "ひゃくてんまんてん"),
    row("2回戦", "にかいせん"),
    row("3点差", "さんてんさ"),
    row("500本塁打", "ごひゃくほんるいだ"),
    row("10奪三振", "じゅうだつさんしん"),
    // Money.
    row("50セント", "ごじゅっせんと", also: ["ごじっせんと"]),
    row("500円玉", "ごひゃくえんだま"),
    row("1万円札", "いちまんえんさつ"),
    row("千円札", "せんえんさつ"),
    row("税込1,980円", "ぜいこみせんきゅうひゃくはちじゅうえん"),
    row("税抜き500円", "ぜいぬきごひゃくえん"),
    row("本体価格1000円", "ほんたいかかくせんえん"),
    row("30%オフ", "さんじゅっぱーせんとおふ", also: ["さんじっぱーせんとおふ"]),
    row("1ポンド", "いちぽんど"),
    row("$100", "ひゃくどる"),
    row("€50", "ごじゅうゆーろ"),
    row("税込¥1,980", "ぜいこみせんきゅうひゃくはちじゅうえん"),
    row("¥1,000以上", "せんえんいじょう"),
    row("1000円台", "せんえんだい"),
    row("時給1,200円", "じきゅうせんにひゃくえん"),
    // People and the body.
    row("3歳児", "さんさいじ"),
    row("1歳児", "いっさいじ"),
    row("0歳児", "ぜろさいじ"),
    row("30代", "さんじゅうだい"),
    row("30代前半", "さんじゅうだいぜんはん", not: ["さんじゅうだいまえはん"]),
    row("40代後半", "よんじゅうだいこうはん", not: ["よんじゅうだいごはん"]),
    row("3人家族", "さんにんかぞく"),
    row("2人家族", "ふたりかぞく"),
    row("4人兄弟", "よにんきょうだい"),
    row("20歳以上", "はたちいじょう", also: ["にじゅっさいいじょう", "にじっさいいじょう"]),
    row("身長170センチ", "しんちょうひゃくななじゅっせんち", also: ["しんちょうひゃくななじっせんち"]),
    row("体重60キロ", "たいじゅうろくじゅっきろ", also: ["たいじゅうろくじっきろ"]),
    row("視力1.5", "しりょくいちてんご"),
    row("ウエスト70センチ", "うえすとななじゅっせんち", also: ["うえすとななじっせんち"]),
    row("駅徒歩3分", "えきとほさんぷん"),
    row("満3歳", "まんさんさい"),
    row("生後3か月", "せいごさんかげつ"),
    row("大人2名", "おとなにめい"),
    row("子ども1人", "こどもひとり"),
    row("3兄弟", "さんきょうだい"),
    row("BMI22", "びーえむあいにじゅうに"),
    row("PM2.5", "ぴーえむにてんご"),
    row("1,100円(税込)", "せんひゃくえんぜいこみ"),
    row("500円引き", "ごひゃくえんびき"),
    row("午前9時から午後5時", "ごぜんくじからごごごじ"),
    row("3ランホームラン", "すりーらんほーむらん", not: ["さんらんほーむらん"]),
    row("第1試合", "だいいちしあい", not: ["だいいっしあい"]),
    row("2F", "にかい"),
    row("500ml", "ごひゃくみりりっとる"),
    row("小6", "しょうろく"),
    row("中3", "ちゅうさん"),
    row("高1", "こういち"),
    row("時速40キロ", "じそくよんじゅっきろ", also: ["じそくよんじっきろ"]),
    row("24時間営業", "にじゅうよじかんえいぎょう"),
    // Words on signs.
    row("徒歩5分", "とほごふん"),
    row("第1条", "だいいちじょう"),
    row("第9条", "だいきゅうじょう"),
    row("約3キロ", "やくさんきろ"),
    row("築10年", "ちくじゅうねん"),
    row("全3巻", "ぜんさんかん"),
    row("定員50名", "ていいんごじゅうめい"),
    row("背番号18", "せばんごうじゅうはち"),
  ]

  @Test(arguments: rows)
  func reads(_ row: Row) throws {
    let reading = try PhraseReader().read(row.text)
    #expect(reading.accepts(row.standard), "\(row.text) reads \(reading), not \(row.standard)")
    for typed in row.accepted { #expect(reading.acceptsTyped(typed), "\(row.text) accepts \(typed)") }
    for typed in row.wrong { #expect(!reading.acceptsTyped(typed), "\(row.text) refuses \(typed)") }
  }

  /// The standard reading is the one Biki prints first.
  @Test(arguments: rows)
  func printsTheStandardFirst(_ row: Row) throws {
    #expect(try PhraseReader().read(row.text).all().first == row.standard)
  }

  /// 分 as a tenth and 分 as minutes are practised apart: their forms have names of their own.
  @Test func aTenthAndAMinuteAreFormsApart() {
    #expect(ReadingForms.of(7, counter: .tenthBu).map(\.id) == ["分(ぶ)/final:7"])
    #expect(ReadingForms.of(7, counter: .minute).map(\.id) == ["分/final:7"])
  }

  /// What Biki cannot read it refuses, saying why; it never guesses.
  @Test(arguments: [
    ("震度8", "震度 is followed by a number from 0 to 7"),
    ("震度4強", "震度 splits only 5 and 6"),
    ("震度5度", "震度 is followed by a number from 0 to 7"),
    ("A11", "A is followed by a number from 3 to 6"),
    ("B1", "B is followed by a number from 4 to 6"),
    ("PM3時", "PM is followed by a number with nothing after it"),
    ("税込", "税込 stands next to a number"),
    ("税込500", "500 needs a unit or counter after it here"),
    ("以上", "以上 follows a number"),
    ("3本前", "前 follows a time or a span"),
    ("3〜", "〜 joins two numbers"),
    ("3勝2敗1分", "分 after 敗 counts draws"),
    ("3割10分", "10分 has no reading"),
    ("31時", "has no reading"),
    ("B1F", "B is followed by a number from 4 to 6"),
    ("中4", "中 is followed by a number from 1 to 3"),
    ("2Lサイズ", "サイズ after a unit is not read"),
    ("$1.50", "$ must be followed by a whole amount"),
  ])
  func refuses(_ text: String, _ fragment: String) {
    do {
      let reading = try PhraseReader().read(text)
      Issue.record("\(text) read as \(reading)")
    } catch {
      #expect(error.description.contains(fragment), "\(text): \(error)")
    }
  }
}
