import Foundation
import Testing

@testable import BikiJapanese

/// Numbers of daily life read as people say them: decimals, negatives and temperatures,
/// fractions, phone numbers and postcodes, addresses, the 24-hour clock, scores, ordinals, roads,
/// eras before the common era, and the lines of 九九. Standard first, then every alternate.
///
/// Sources (docs/readings.md, "Everyday numbers"): NHK静岡's 三上弥 on NHK日本語発音アクセント新辞典
/// (decimals: いちてんご, じってん; 0 れい); NHKことばのハンドブック via 平松陽子's 特別な数字の読み方
/// (phone numbers digit by digit with の: 054(253)0228 れいごおよん の にいごおさん の …); 日本語の先生
/// (nihongonosensei.net: mobile numbers with ぜろ, 4 よん, 7 なな, 9 きゅう); 110番 ひゃくとおばん;
/// 九九 from デジタル大辞泉 and the schools' chant (いんいちがいち … くくはちじゅういち).
@Suite struct EverydayNumberTests {
  @Test(arguments: [
    // Decimals: the whole part before てん, then each digit.
    ("3.14", "さんてんいちよん"), ("0.01", "れいてんれいいち|れいてんぜろいち|ぜろてんれいいち|ぜろてんぜろいち"),
    ("1.5", "いちてんご|いってんご"), ("0.5", "れいてんご|ぜろてんご"), ("2.5", "にてんご|にいてんご"),
    ("10.5", "じってんご|じゅってんご"), ("36.5度", "さんじゅうろくてんごど|さんじゅうろってんごど"),
    ("1.5リットル", "いちてんごりっとる|いってんごりっとる"), ("0.8秒", "れいてんはちびょう|ぜろてんはちびょう"),
    ("99.9%", "きゅうじゅうきゅうてんきゅうぱーせんと"), ("1.2億円", "いちてんにおくえん|いってんにおくえん"),
    ("3.5万人", "さんてんごまんにん"), ("1.5本", "いちてんごほん|いってんごほん"),
    // Below zero.
    ("マイナス5度", "まいなすごど"), ("-3", "まいなすさん"), ("-0.5度", "まいなすれいてんごど|まいなすぜろてんごど"),
    ("氷点下10度", "ひょうてんかじゅうど"), ("零下5度", "れいかごど"), ("25℃", "にじゅうごど"), ("0℃", "れいど|ぜろど"), ("0度", "れいど|ぜろど"),
    // Fractions: the denominator first.
    ("3分の1", "さんぶんのいち"), ("100分の1", "ひゃくぶんのいち"), ("2分の1", "にぶんのいち"), ("1と2分の1", "いちとにぶんのいち"),
    // Addresses, group by group with の.
    ("1-2-3", "いちのにのさん"), ("3-15-5", "さんのじゅうごのご"),
    // The 24-hour clock.
    ("16:00", "じゅうろくじ"), ("4:30", "よじはん|よじさんじゅっぷん|よじさんじっぷん"), ("0:15", "れいじじゅうごふん|ぜろじじゅうごふん"),
    ("23:59", "にじゅうさんじごじゅうきゅうふん"), ("7:00", "しちじ|ななじ"), ("9:00", "くじ"), ("10:10", "じゅうじじゅっぷん|じゅうじじっぷん"),
    // Scores, ordinals, roads, years before the common era.
    ("3対1", "さんたいいち"), ("2対0", "にたいれい|にたいぜろ"), ("4対7", "よんたいなな"),
    ("第1位", "だいいちい"), ("第2回", "だいにかい"), ("国道1号線", "こくどういちごうせん"), ("紀元前300年", "きげんぜんさんびゃくねん"),
    // 九九.
    ("1×1=1", "いんいちがいち"), ("2×2=4", "ににんがし"), ("2×3=6", "にさんがろく"), ("3×3=9", "さざんがく"),
    ("3×6=18", "さぶろくじゅうはち|さんろくじゅうはち"), ("5×9=45", "ごっくしじゅうご|ごっくよんじゅうご|ごくしじゅうご"),
    ("8×8=64", "はっぱろくじゅうし"), ("8×3=24", "はちさんにじゅうし|はっさんにじゅうし"), ("9×9=81", "くくはちじゅういち"),
    ("7×7", "しちしちしじゅうく|しちしちよんじゅうく|しちしちしじゅうきゅう"),
  ])
  func reads(_ text: String, _ expected: String) throws {
    #expect(try PhraseReader().read(text).all().joined(separator: "|") == expected, "\(text)")
  }

  /// Phone numbers and postcodes, digit by digit: 0 ぜろ (れい, as NHK says), 2 and 5 also
  /// lengthened, 4 よん, 7 なな, 9 きゅう; groups joined by の or a pause.
  @Test(arguments: [
    ("090-1234-5678", "ぜろきゅうぜろのいちにさんよんのごろくななはち", ["れいきゅうれいのいちにいさんよんのごおろくななはち", "ぜろきゅうぜろいちにさんよんごろくななはち"]),
    ("03-1234-5678", "ぜろさんのいちにさんよんのごろくななはち", ["れいさんのいちにいさんよんのごおろくななはち"]),
    ("〒420-0857", "よんにぜろのぜろはちごなな", ["よんにいれいのれいはちごおなな"]),
  ])
  func phoneNumbersAreReadDigitByDigit(_ text: String, _ standard: String, _ alsoAccepted: [String]) throws {
    let reading = try PhraseReader().read(text)
    #expect(reading.standard == standard)
    for typed in alsoAccepted { #expect(reading.acceptsTyped(typed), "\(text) accepts \(typed)") }
    // し, しち and く are not said in a phone number.
    #expect(!reading.acceptsTyped(standard.replacingOccurrences(of: "よん", with: "し")))
    #expect(!reading.acceptsTyped(standard.replacingOccurrences(of: "なな", with: "しち")))
  }

  /// All 81 lines are there, each from 1×1 to 9×9.
  @Test func everyLineOfTheChantIsRead() throws {
    for a in 1...9 {
      for b in 1...9 {
        #expect(throws: Never.self, "\(a)×\(b)") { try PhraseReader().read("\(a)×\(b)=\(a * b)") }
      }
    }
  }

  @Test(arguments: [
    ("2×3=7", "2×3 is 6"), ("25:00", "is not a time"), ("12:60", "is not a time"), ("氷点下5", "is followed by degrees"),
    ("第1", "第 is followed by a counted number"), ("国道1", "国道 is followed by its number"),
    ("紀元前300", "紀元前 is followed by a year"),
    ("1と2", "と joins a whole number and a fraction"), ("3.12345678901", "more than ten digits"),
    ("三.5", "written in digits"),
    ("1-02-3", "do not start with 0"), ("2×3=99999999999999999999999", "2×3 is 6"), ("2×3=", "2×3 is 6"),
  ])
  func whatIsNotAnEverydayNumberIsExplained(_ text: String, _ fragment: String) {
    #expect {
      try PhraseReader().read(text)
    } throws: { error in
      "\(error)".contains(fragment)
    }
  }
}
