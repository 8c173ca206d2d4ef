import { isShebaValid, verifyCardNumber, verifyIranianNationalId } from "@persian-tools/persian-tools";
import { describe, expect, it } from "vitest";
import { findPersonalData, isValidCardNumber, isValidIranianIban, isValidNationalId, redactPersonalData, type PersonalDataKind } from "../../src/text/pii.js";

const fa = (ascii: string) => ascii.replace(/\d/gu, (d) => String.fromCharCode(0x06f0 + Number(d)));
const arabicIndic = (ascii: string) => ascii.replace(/\d/gu, (d) => String.fromCharCode(0x0660 + Number(d)));
const kinds = (text: string) => findPersonalData(text).map((m) => [m.kind, m.canonical] as [PersonalDataKind, string]);

// Checked against @persian-tools/persian-tools below (and by hand for the first of each).
const NATIONAL_ID = "0012345679";
const NATIONAL_ID_2 = "0851234569";
const CARD = "6037991199999990";
const CARD_2 = "5892101234567895";
const IBAN = "IR062960000000100324200001";
const IBAN_2 = "IR110170000000123456789001";

/** A deterministic stream of digits (xorshift), so the cross-check sees the same values every run. */
function digitStream(seed: number) {
  let x = seed;
  return (length: number) => {
    let out = "";
    for (let i = 0; i < length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out += String((x >>> 0) % 10);
    }
    return out;
  };
}

describe("checksums", () => {
  it("national code: Σ d[i]·(10−i) mod 11, with the check digit r (r < 2) or 11 − r", () => {
    // 0·10+0·9+1·8+2·7+3·6+4·5+5·4+6·3+7·2 = 112; 112 mod 11 = 2; 11 − 2 = 9.
    expect(isValidNationalId(NATIONAL_ID)).toBe(true);
    expect(isValidNationalId(NATIONAL_ID_2)).toBe(true);
    expect(isValidNationalId("0012345678")).toBe(false);
    expect(isValidNationalId("1111111111")).toBe(false); // passes the arithmetic, never issued
    expect(isValidNationalId("1230000004")).toBe(false); // zero serial
    expect(isValidNationalId("001234567")).toBe(false);
  });

  it("national code agrees with persian-tools on 3,000 values (random and one-digit-off valid ones)", () => {
    const next = digitStream(7);
    for (let i = 0; i < 3_000; i++) {
      const head = next(9);
      const value = i % 2 === 0 ? next(10) : head + next(1);
      expect(isValidNationalId(value), value).toBe(verifyIranianNationalId(value, { checkPrefix: false }));
    }
  });

  it("card: Luhn, agreeing with persian-tools on 3,000 sixteen-digit values", () => {
    expect(isValidCardNumber(CARD)).toBe(true);
    expect(isValidCardNumber("6037991199999995")).toBe(false);
    expect(isValidCardNumber("0000000000000000")).toBe(false);
    const next = digitStream(11);
    let valid = 0;
    for (let i = 0; i < 3_000; i++) {
      const value = `6${next(15)}`;
      expect(isValidCardNumber(value), value).toBe(verifyCardNumber(value as unknown as number) === true);
      if (isValidCardNumber(value)) valid++;
    }
    expect(valid).toBeGreaterThan(200);
  });

  it("IBAN (Sheba): ISO 13616 mod 97, agreeing with persian-tools on 3,000 values", () => {
    expect(isValidIranianIban(IBAN)).toBe(true);
    expect(isValidIranianIban("ir06 2960 0000 0010 0324 2000 01")).toBe(true);
    expect(isValidIranianIban("IR062960000000100324200002")).toBe(false);
    const next = digitStream(13);
    for (let i = 0; i < 3_000; i++) {
      const value = `IR${next(24)}`;
      expect(isValidIranianIban(value), value).toBe(isShebaValid(value));
    }
  });
});

describe("finding personal data", () => {
  it("national codes: one group or 3-6-1, in every digit system; a label widens (a failed checksum, leading zeros dropped)", () => {
    expect(kinds(`my code is ${NATIONAL_ID}.`)).toEqual([["national_id", NATIONAL_ID]]);
    expect(kinds(`کد ملی من ${fa(NATIONAL_ID)} است`)).toEqual([["national_id", NATIONAL_ID]]);
    expect(kinds(`رقم ${arabicIndic(NATIONAL_ID_2)}`)).toEqual([["national_id", NATIONAL_ID_2]]);
    expect(kinds("ID card: 001-234567-9")).toEqual([["national_id", NATIONAL_ID]]);
    expect(kinds(`کارت ملی ${fa("001-234567-9")}`)).toEqual([["national_id", NATIONAL_ID]]);
    // Labelled: a mistyped code is still nearly the person's code; 8 digits are the code without its zeros.
    expect(kinds("My national code is 0012345678")).toEqual([["national_id", "0012345678"]]);
    expect(kinds(`کدملی‌ام ${fa("12345679")}`)).toEqual([["national_id", NATIONAL_ID]]);
    // Unlabelled, a failed checksum is just a number.
    expect(kinds("number 0012345678")).toEqual([]);
  });

  it("mobiles: 09…, +98 9…, 0098 9…, with spaces, dashes and brackets, in every digit system", () => {
    const written = [
      "09121234567",
      "0912 123 4567",
      "0912-123-4567",
      "0912 12 34 567",
      "(0912) 123 4567",
      "+98 912 123 4567",
      "+989121234567",
      "+98-912-123-4567",
      "+98 0912 123 4567",
      "00989121234567",
      "0098 912 123 4567",
      "\u200E+98 912 123 4567",
      fa("0912 123 4567"),
      fa("+98 912 123 4567"),
      arabicIndic("09121234567"),
    ];
    for (const value of written) {
      const found = findPersonalData(`call me on ${value} tonight`);
      expect(
        found.map((m) => [m.kind, m.canonical]),
        value,
      ).toEqual([["mobile", "09121234567"]]);
      expect(`call me on ${value} tonight`.slice(found[0]!.start, found[0]!.end).replace(/^\u200E/u, ""), value).toBe(value.replace(/^\u200E/u, ""));
    }
    // Ten digits 9… are a mobile only when the user says so.
    expect(kinds("mobile: 9121234567")).toEqual([["mobile", "09121234567"]]);
    expect(kinds("شماره همراهم ۹۱۲۱۲۳۴۵۶۷")).toEqual([["mobile", "09121234567"]]);
  });

  it("cards: Luhn over one group or fours; a label widens to a failed Luhn", () => {
    expect(kinds(`card ${CARD}`)).toEqual([["card", CARD]]);
    expect(kinds("paid with 6037 9911 9999 9990 yesterday")).toEqual([["card", CARD]]);
    expect(kinds("5892-1012-3456-7895")).toEqual([["card", CARD_2]]);
    expect(kinds(`شماره کارتم ${fa("6037 9911 9999 9990")}`)).toEqual([["card", CARD]]);
    expect(kinds("شماره کارت ۶۰۳۷۹۹۱۱۹۹۹۹۹۹۹۵")).toEqual([["card", "6037991199999995"]]);
    expect(kinds("number 6037 9911 9999 9995")).toEqual([]);
  });

  it("IBAN (Sheba): IR + 24 digits with spaces, either case, any digits; 24 bare digits when the checksum or a label says so", () => {
    expect(kinds(`Sheba ${IBAN}`)).toEqual([["iban", IBAN]]);
    expect(kinds("IR06 2960 0000 0010 0324 2000 01 is mine")).toEqual([["iban", IBAN]]);
    expect(kinds("ir11 0170 0000 0012 3456 7890 01")).toEqual([["iban", IBAN_2]]);
    expect(kinds(`شبا: IR${fa(IBAN.slice(2))}`)).toEqual([["iban", IBAN]]);
    expect(kinds(`account ${IBAN.slice(2)}`)).toEqual([["iban", IBAN]]);
    expect(kinds("شماره شبا ۰۶۲۹۶۰۰۰۰۰۰۰۱۰۰۳۲۴۲۰۰۰۰۹")).toEqual([["iban", "IR062960000000100324200009"]]);
    expect(kinds("IR062960000000100324200009")).toEqual([]);
  });

  it("e-mail addresses", () => {
    expect(kinds("write to Sara.Ahmadi+claims@mail.example.ir, thanks")).toEqual([["email", "sara.ahmadi+claims@mail.example.ir"]]);
    expect(kinds("ایمیلم ali_rezaei@gmail.com است")).toEqual([["email", "ali_rezaei@gmail.com"]]);
  });

  it("finds every value of a mixed Persian and English message, in order", () => {
    const text = `سلام، کد ملی ${fa(NATIONAL_ID)} و موبایل +98 912 123 4567؛ card ${CARD}, Sheba ${IBAN}, mail a@b.example`;
    expect(kinds(text).map(([kind]) => kind)).toEqual(["national_id", "mobile", "card", "iban", "email"]);
  });

  describe("hard negatives: never personal data", () => {
    const negatives: Array<[string, string]> = [
      ["the insurer's travel line (its digits hold a valid national code: 2180007000)", "call +98 21 8000 7000, 24 hours a day"],
      ["a landline", "motor claims 021-8000-1000"],
      ["a landline in Persian digits", "تماس با ۰۲۱-۸۰۰۰-۱۰۰۰"],
      ["a short number", "call 800 55502"],
      ["a foreign number", "Hamsafar Assistance on \u200E+971 4 555 0300"],
      ["a foreign mobile", "+971 50 555 0199"],
      ["a policy number", "policy AR-MB-20451873"],
      ["a 10-digit policy number with a valid checksum", `my policy number is ${NATIONAL_ID}`],
      ["a Persian policy number", `شماره بیمه‌نامه ${fa(NATIONAL_ID)}`],
      ["a claim reference", "My claim number is CLM-48213"],
      ["a claim reference that passes Luhn", `claim reference ${CARD}`],
      ["a tracking code", `کد رهگیری ${fa(NATIONAL_ID_2)}`],
      ["an amount with separators", "the deductible is 4,500,000 rials"],
      ["an amount in Persian digits", "فرانشیز ۴٬۵۰۰٬۰۰۰ ریال است"],
      ["a large amount", "cover up to 16,000,000,000 rials"],
      ["a ten-digit amount with a valid checksum", "pay 4512000011 rials"],
      ["a ten-digit amount in tomans", "۴۵۰۰۰۰۰۱۲۷ تومان"],
      ["a ten-digit amount with separators", "1,234,567,890"],
      ["a Jalali date", "since 1403/05/12"],
      ["a Persian date", "از ۱۴۰۳/۰۵/۱۲"],
      ["an ISO date and time", "on 2024-03-15 10:30"],
      ["a decimal", "ratio 0.0012345679"],
      ["a code glued to letters", `ref X${NATIONAL_ID}`],
      ["a code after a letter prefix and dash", `AB-${NATIONAL_ID}`],
      ["an eleven-digit number", `00${NATIONAL_ID.slice(1)}1`],
      ["a ten-digit number in 2-4-4 groups", "12 3456 7891"],
      ["a 16-digit number that fails Luhn", "6037991199999995"],
      ["a 16-digit number starting with 0", "0000000000000018"],
      ["a 24-digit number that fails mod 97", "062960000000100324200009"],
      ["a handle", "@arman_insurance on social media"],
      ["a domain without an address", "see arman-insurance.example/claims"],
      ["a plate number", "پلاک ۱۲ ب ۳۴۵ ۶۷"],
      ["a postal code", `postal code ${NATIONAL_ID}`],
    ];
    for (const [what, text] of negatives) {
      it(what, () => {
        expect(findPersonalData(text)).toEqual([]);
        expect(redactPersonalData(text)).toBe(text);
      });
    }
  });
});

describe("redacting", () => {
  const text = `I am 0912 123 4567, code ${NATIONAL_ID}, card ${CARD}, Sheba ${IBAN}, mail x@y.example.`;

  it("masks every kind readably: a mobile keeps its last four digits, nothing else keeps any", () => {
    expect(redactPersonalData(text)).toBe("I am [mobile ••••4567], code [national-id], card [card], Sheba [iban], mail [email].");
    expect(redactPersonalData("موبایلم ۰۹۱۲ ۱۲۳ ۴۵۶۷ است")).toBe("موبایلم [mobile ••••۴۵۶۷] است");
  });

  it("drops, keeps and masks per kind", () => {
    const action = (kind: PersonalDataKind) => (kind === "mobile" ? "keep" : kind === "card" ? "drop" : "mask");
    expect(redactPersonalData(text, { action })).toBe("I am 0912 123 4567, code [national-id], card, Sheba [iban], mail [email].");
    expect(redactPersonalData(`card ${CARD} expires`, { action: () => "drop" })).toBe("card expires");
  });

  it("keeps the values a caller names (the insurer's own, quoted from a document)", () => {
    const keep = (m: { canonical: string }) => m.canonical === "complaints@arman-insurance.example";
    expect(redactPersonalData("mail complaints@arman-insurance.example or x@y.example", { keep })).toBe("mail complaints@arman-insurance.example or [email]");
  });

  it("is idempotent: a masked text has nothing left to find", () => {
    const once = redactPersonalData(text);
    expect(findPersonalData(once)).toEqual([]);
    expect(redactPersonalData(once)).toBe(once);
  });
});
