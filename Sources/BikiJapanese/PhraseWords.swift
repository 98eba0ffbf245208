/// Words written around numbers on signs, receipts, weather maps and scoreboards, read with
/// them: 税込1,980円, 身長170センチ, 5分前, 20歳以上, 震度5強, 3〜5人, 1対0. A word is read as
/// the dictionary gives it and changes nothing in the number; where it stands decides whether
/// the phrase is read at all (a word before a number needs a number after it). Sources in
/// docs/readings.md ("Numbers in the wild").
enum PhraseWords {
  enum Place: Equatable {
    /// Before a number and its counter (税込1,980円). `bare`: the values it may take with no
    /// counter after them (視力1.5, 震度5, A4), nil when it needs one.
    case before(bare: ClosedRange<UInt64>?)
    /// After a number (20歳以上, 1時間弱); `timeOnly` after a time or span only (5分前, 3日後).
    case after(timeOnly: Bool)
    /// Between two numbers: a range (3〜5人) or a score (1対0).
    case between
    /// Before a number or after one: the halves of a game or a span (前半15分, 30代前半).
    case around
  }

  struct Word {
    let reading: String
    let place: Place
  }

  private static let any: ClosedRange<UInt64> = 0...UInt64.max

  static let table: [String: Word] = {
    var table: [String: Word] = [:]
    func add(_ place: Place, _ words: [(String, String)]) {
      for (word, reading) in words { table[word] = Word(reading: reading, place: place) }
    }
    // Receipts, price tags, shops.
    add(
      .before(bare: nil),
      [
        ("税込", "ぜいこみ"), ("税込み", "ぜいこみ"), ("税抜", "ぜいぬき"), ("税抜き", "ぜいぬき"), ("税別", "ぜいべつ"),
        ("定価", "ていか"), ("本体価格", "ほんたいかかく"), ("本体", "ほんたい"), ("お釣り", "おつり"), ("おつり", "おつり"),
        ("ポイント", "ぽいんと"), ("時給", "じきゅう"), ("日給", "にっきゅう"), ("月給", "げっきゅう"), ("年収", "ねんしゅう"),
        ("初任給", "しょにんきゅう"), ("手取り", "てどり"), ("家賃", "やちん"), ("月額", "げつがく"), ("年額", "ねんがく"),
        ("会費", "かいひ"), ("手数料", "てすうりょう"), ("金利", "きんり"), ("利率", "りりつ"), ("消費税", "しょうひぜい"),
        ("税率", "ぜいりつ"), ("価格", "かかく"), ("合計", "ごうけい"), ("小計", "しょうけい"), ("総額", "そうがく"),
        ("送料", "そうりょう"), ("料金", "りょうきん"), ("運賃", "うんちん"), ("入場料", "にゅうじょうりょう"),
      ])
    // The body, distances, amounts.
    add(
      .before(bare: nil),
      [
        ("身長", "しんちょう"), ("体重", "たいじゅう"), ("体温", "たいおん"), ("体脂肪率", "たいしぼうりつ"),
        ("胸囲", "きょうい"), ("座高", "ざこう"), ("握力", "あくりょく"), ("ウエスト", "うえすと"), ("ヒップ", "ひっぷ"),
        ("バスト", "ばすと"), ("腹囲", "ふくい"), ("歩数", "ほすう"), ("妊娠", "にんしん"), ("生後", "せいご"),
        ("満", "まん"), ("大人", "おとな"), ("子ども", "こども"), ("子供", "こども"), ("男子", "だんし"), ("女子", "じょし"),
        ("男性", "だんせい"), ("女性", "じょせい"), ("徒歩", "とほ"), ("駅徒歩", "えきとほ"), ("約", "やく"),
        ("およそ", "およそ"), ("最大", "さいだい"), ("最小", "さいしょう"), ("最高", "さいこう"), ("最低", "さいてい"),
        ("平均", "へいきん"), ("全", "ぜん"), ("計", "けい"), ("各", "かく"), ("残り", "のこり"), ("あと", "あと"),
        ("築", "ちく"), ("創業", "そうぎょう"), ("定員", "ていいん"), ("人口", "じんこう"), ("通算", "つうさん"),
        ("前年比", "ぜんねんひ"), ("西暦", "せいれき"), ("合格率", "ごうかくりつ"), ("倍率", "ばいりつ"),
      ])
    // Weather reports.
    add(
      .before(bare: nil),
      [
        ("気温", "きおん"), ("最高気温", "さいこうきおん"), ("最低気温", "さいていきおん"), ("湿度", "しつど"),
        ("降水確率", "こうすいかくりつ"), ("風速", "ふうそく"), ("最大風速", "さいだいふうそく"),
        ("最大瞬間風速", "さいだいしゅんかんふうそく"), ("台風", "たいふう"), ("気圧", "きあつ"), ("降水量", "こうすいりょう"),
        ("雨量", "うりょう"), ("積雪", "せきせつ"), ("波の高さ", "なみのたかさ"), ("津波", "つなみ"),
      ])
    // Sports, exams.
    add(
      .before(bare: nil),
      [
        ("打率", "だりつ"), ("延長", "えんちょう"), ("英検", "えいけん"), ("漢検", "かんけん"), ("準", "じゅん"),
        ("TOEIC", "とーいっく"), ("小学", "しょうがく"), ("中学", "ちゅうがく"), ("高校", "こうこう"), ("大学", "だいがく"),
      ])
    // Times of day and how often: 朝7時, 毎月1日, 週3回, 年1回.
    add(
      .before(bare: nil),
      [
        ("朝", "あさ"), ("昼", "ひる"), ("夜", "よる"), ("夕方", "ゆうがた"), ("深夜", "しんや"), ("早朝", "そうちょう"),
        ("毎朝", "まいあさ"), ("毎晩", "まいばん"), ("毎日", "まいにち"), ("毎週", "まいしゅう"), ("毎月", "まいつき"),
        ("毎年", "まいとし"), ("毎時", "まいじ"), ("週", "しゅう"), ("月", "つき"), ("年", "ねん"),
      ])
    // Words whose number stands alone: a measure with no unit, a number worn on a shirt.
    add(
      .before(bare: any),
      [
        ("視力", "しりょく"), ("脈拍", "みゃくはく"), ("背番号", "せばんごう"), ("防御率", "ぼうぎょりつ"),
        ("偏差値", "へんさち"), ("マグニチュード", "まぐにちゅーど"), ("BMI", "びーえむあい"),
        ("心拍数", "しんぱくすう"), ("血糖値", "けっとうち"), ("PM", "ぴーえむ"),
        // M7.3 is said マグニチュードななてんさん, as news reads it.
        ("M", "まぐにちゅーど"),
      ])
    // The Japan Meteorological Agency's seismic intensity, 0 to 7 (5 and 6 split 弱 and 強).
    add(.before(bare: 0...7), [("震度", "しんど")])
    // Paper sizes (A4 えーよん, B5 びーご): those a shop or an office uses, as B1 and B2 are also
    // basement floors (ビーワン) and A1 a grade.
    add(.before(bare: 3...6), [("A", "えー"), ("Ａ", "えー")])
    add(.before(bare: 4...6), [("B", "びー"), ("Ｂ", "びー")])
    add(
      .after(timeOnly: false),
      [
        ("以上", "いじょう"), ("以下", "いか"), ("未満", "みまん"), ("以内", "いない"), ("程度", "ていど"), ("くらい", "くらい"),
        ("ぐらい", "ぐらい"), ("ほど", "ほど"), ("強", "きょう"), ("弱", "じゃく"), ("過ぎ", "すぎ"), ("増", "ぞう"), ("減", "げん"),
        ("オフ", "おふ"), ("還元", "かんげん"), ("サイズ", "さいず"), ("台", "だい"), ("以降", "いこう"), ("以前", "いぜん"),
        ("以来", "いらい"), ("おき", "おき"), ("ごと", "ごと"), ("ぶり", "ぶり"), ("連続", "れんぞく"), ("末", "まつ"),
        ("ちょうど", "ちょうど"), ("満点", "まんてん"), ("用", "よう"), ("走", "そう"),
        ("試験", "しけん"), ("面接", "めんせつ"),
      ])
    add(.after(timeOnly: true), [("前", "まえ"), ("後", "ご"), ("頃", "ごろ"), ("ごろ", "ごろ")])
    add(.around, [("前半", "ぜんはん"), ("後半", "こうはん")])
    add(.between, [("〜", "から"), ("～", "から"), ("~", "から"), ("対", "たい")])
    return table
  }()

  static let index = FirstScalarIndex(Array(table.keys))

  /// Whether a counter names a time or a span, after which 前, 後 and 頃 may come.
  static func isTime(_ counter: Counter) -> Bool {
    switch counter.kind {
    case .duration, .time, .date, .age: true
    default: counter.id == "seiki"
    }
  }
}
