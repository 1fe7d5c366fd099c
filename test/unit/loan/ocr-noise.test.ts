// What OCR does to printed labels and numbers, and what the finders still read through it: the
// look-alike letters a loan officer reads past (0/O, 1/l, 5/S, rn/m), periods for thousands commas.
import { describe, expect, it } from "vitest";
import { readDigits } from "../../../lambdas/agents/loan/ocr-digits.ts";
import { findAmounts, scannedPhrase, startsWithScanned } from "../../../lambdas/agents/loan/text.ts";

describe("readDigits", () => {
  it.each([
    ["1,85O.OO", "1,850.00"],
    ["l2-3456789", "12-3456789"],
    ["O2/O7", "02/07"],
    ["$3,65O.00", "$3,650.00"],
    ["(1O4.S0)", "(104.50)"],
    ["#1O43", "#1O43"],
  ])("%s reads as %s", (word, read) => {
    expect(readDigits(word)).toBe(read);
  });

  it.each(["Oil", "SOIL", "IOU", "1a", "Form", "I0", "OO", "S5", "Page1"])("leaves %s alone", (word) => {
    expect(readDigits(word)).toBe(word);
  });

  it("keeps the word's length, so positions in the line hold", () => {
    for (const word of ["1,85O.OO", "O2/O7", "l2-3456789"])
      expect(readDigits(word)).toHaveLength(word.length);
  });
});

describe("amounts grouped with periods", () => {
  it("reads 7.010.73 as 7,010.73 and keeps single-period amounts as they were", () => {
    expect(findAmounts("02/05  7.010.73  02/07  10,660.73").map((amount) => amount.value)).toEqual([
      7010.73, 10660.73,
    ]);
    expect(findAmounts("Total 1.50 and 12.345").map((amount) => amount.value)).toEqual([1.5]);
  });
});

describe("scannedPhrase", () => {
  const signature = new RegExp(scannedPhrase("Signature of officer"), "i");
  const returned = new RegExp(scannedPhrase("Returned Item Fee"), "i");

  it.each([
    "Signature of officer",
    "Sign ature of offi cer",
    "Signature 0f officer",
    "5ignature of 0fficer",
    "Signature of offlcer",
  ])("reads %s as the officer's signature caption", (text) => {
    expect(signature.test(text)).toBe(true);
  });

  it("reads words whose space small print lost as the phrase", () => {
    const title = new RegExp(scannedPhrase("Corporation Income Tax Return"), "i");
    expect(title.test("U.S. CorporationIncome Tax Return")).toBe(true);
    expect(new RegExp(`${scannedPhrase("Schedule L")}\\b`, "i").test("ScheduleL BalanceSheets")).toBe(true);
    expect(new RegExp(`${scannedPhrase("Schedule L")}\\b`, "i").test("Schedule Lines")).toBe(false);
  });

  it("reads rn as m and m as rn", () => {
    expect(returned.test("Retumed Item Fee")).toBe(true);
    expect(new RegExp(scannedPhrase("Summary"), "i").test("Surnmary")).toBe(true);
  });

  it("does not read other words as the phrase", () => {
    expect(signature.test("Signature of preparer")).toBe(false);
    expect(returned.test("Returned Item")).toBe(false);
  });
});

describe("startsWithScanned", () => {
  it("reads a caption a degraded scan lost letters of, up to one edit per eight letters", () => {
    // Read off a 150 dpi scan of the official Form 1120: "i" dropped, "n" read as "r", words run together.
    expect(startsWithScanned("Sgratureof officer  See", "Signature of officer")).toBe(true);
    expect(startsWithScanned("Signature of officer", "Signature of officer")).toBe(true);
    expect(startsWithScanned("Signatureof ofhcer /s/ Ann Lee", "Signature of officer")).toBe(true);
  });

  it("does not take other captions, or too damaged a one, for the phrase", () => {
    expect(startsWithScanned("Signature of preparer", "Signature of officer")).toBe(false);
    expect(startsWithScanned("Preparer's signature", "Signature of officer")).toBe(false);
    expect(startsWithScanned("Sg ture f ofcr", "Signature of officer")).toBe(false);
    // A phrase under eight letters allows no edit.
    expect(startsWithScanned("Tit1e", "Title")).toBe(false);
  });
});
