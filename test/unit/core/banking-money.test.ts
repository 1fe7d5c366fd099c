// Money as the banking assistant reads and writes it: amounts in the forms customers type, in
// integer minor units of their own currency (ISO 4217 decimals from Intl), never through a float.
import { describe, expect, it } from "vitest";
import {
  findCurrency,
  findMoney,
  formatMoney,
  minorUnits,
  toMinorUnits,
} from "../../../lambdas/agents/banking/money.ts";

describe("minor units", () => {
  it.each([
    ["USD", 2],
    ["EUR", 2],
    ["GBP", 2],
    ["CHF", 2],
    ["JPY", 0],
    ["KRW", 0],
    ["KWD", 3],
    ["BHD", 3],
  ])("%s has %i decimals", (currency, decimals) => {
    expect(minorUnits(currency)).toBe(decimals);
  });

  it("knows no currency the runtime does not", () => {
    expect(minorUnits("XYZ")).toBeUndefined();
    expect(minorUnits("usd")).toBeUndefined();
  });

  it("turns an amount as written into minor units of its currency, exactly", () => {
    expect(toMinorUnits("50", "USD")).toBe(5_000);
    expect(toMinorUnits("0.1", "USD")).toBe(10);
    expect(toMinorUnits("1250.5", "USD")).toBe(125_050);
    expect(toMinorUnits("5000", "JPY")).toBe(5_000);
    expect(toMinorUnits("1.25", "KWD")).toBe(1_250);
    expect(toMinorUnits("1.250", "KWD")).toBe(1_250);
    expect(toMinorUnits("12.50", "JPY")).toBeUndefined();
    expect(toMinorUnits("12.5", "JPY")).toBeUndefined();
    expect(toMinorUnits("1.005", "USD")).toBeUndefined();
    expect(toMinorUnits("0", "USD")).toBeUndefined();
    expect(toMinorUnits("99999999999999999", "USD")).toBeUndefined();
    expect(toMinorUnits("50", "XYZ")).toBeUndefined();
  });
});

describe("formatMoney", () => {
  it("writes minor units with the currency's own decimals", () => {
    expect(formatMoney(5_000, "USD")).toBe("50.00 USD");
    expect(formatMoney(5, "USD")).toBe("0.05 USD");
    expect(formatMoney(123_456_789, "EUR")).toBe("1,234,567.89 EUR");
    expect(formatMoney(-123_456, "EUR")).toBe("-1,234.56 EUR");
    expect(formatMoney(5_000, "JPY")).toBe("5,000 JPY");
    expect(formatMoney(1_250, "KWD")).toBe("1.250 KWD");
    expect(formatMoney(7, "BHD")).toBe("0.007 BHD");
    expect(formatMoney(Number.MAX_SAFE_INTEGER, "USD")).toBe("90,071,992,547,409.91 USD");
  });

  it("writes a limit of any currency with two decimals, and an unknown code's minor units as such", () => {
    expect(formatMoney(1_000_000, "")).toBe("10,000.00");
    expect(formatMoney(5_000, "XYZ")).toBe("5,000 minor units of XYZ");
  });
});

describe("findMoney", () => {
  it.each([
    ["fifty bucks", 5_000, "USD"],
    ["ten dollars", 1_000, "USD"],
    ["twenty five dollars", 2_500, "USD"],
    ["twenty-five dollars", 2_500, "USD"],
    ["a hundred dollars", 10_000, "USD"],
    ["two hundred and fifty dollars", 25_000, "USD"],
    ["twenty five hundred euros", 250_000, "EUR"],
    ["$50", 5_000, "USD"],
    ["50$", 5_000, "USD"],
    ["$ 50.", 5_000, "USD"],
    ["USD 400", 40_000, "USD"],
    ["400 usd", 40_000, "USD"],
    ["US$20", 2_000, "USD"],
    ["$1.5k", 150_000, "USD"],
    ["$2k", 200_000, "USD"],
    ["1,250.50 USD", 125_050, "USD"],
    ["30 dollers", 3_000, "USD"],
    ["15 bux", 1_500, "USD"],
    ["€20", 2_000, "EUR"],
    ["20 euros", 2_000, "EUR"],
    ["20,50 €", 2_050, "EUR"],
    ["1.250,50 €", 125_050, "EUR"],
    ["£30", 3_000, "GBP"],
    ["30 quid", 3_000, "GBP"],
    ["¥5000", 5_000, "JPY"],
    ["5000 JPY", 5_000, "JPY"],
    ["5000 yen", 5_000, "JPY"],
    ["₩10000", 10_000, "KRW"],
    ["KWD 1.250", 1_250, "KWD"],
    ["1.250 kwd", 1_250, "KWD"],
    ["C$20", 2_000, "CAD"],
    ["50 canadian dollars", 5_000, "CAD"],
    ["100 CHF", 10_000, "CHF"],
  ])("%s → %s %s", (text, amount, currency) => {
    const found = findMoney(`send ${text} to Sam`);
    expect(found?.amount).toBe(amount);
    expect(found?.currency).toBe(currency);
  });

  it("reads a bare number only when asked to, and never an account's digits, a time or a date", () => {
    expect(findMoney("transfer 1.5k to savings", { bare: true })).toEqual({ asWritten: "1500" });
    expect(findMoney("send 2 grand to savings", { bare: true })).toEqual({ asWritten: "2000" });
    expect(findMoney("transfer two hundred to savings", { bare: true })).toEqual({ asWritten: "200" });
    expect(findMoney("transfer 200 to savings")).toBeUndefined();
    for (const text of [
      "from account ending 4821",
      "to 4821",
      "card 1234",
      "on the 5th",
      "at 5pm",
      "on 11/28",
      "2026-11-28",
      "send 3 payments",
      "the debit one",
    ]) {
      expect(findMoney(`send it ${text}`, { bare: true }), text).toBeUndefined();
    }
  });

  it("prefers the amount with a currency to a bare number before it", () => {
    expect(findMoney("send 2 transfers of $50", { bare: true })).toEqual({
      amount: 5_000,
      currency: "USD",
      asWritten: "50",
    });
  });

  it("keeps an amount with more decimals than its currency has as written, with no amount", () => {
    expect(findMoney("send ¥12.5")).toEqual({ currency: "JPY", asWritten: "12.5" });
    expect(findMoney("send $1.005")).toEqual({ currency: "USD", asWritten: "1.005" });
  });

  it("reads no currency in words that only look like one", () => {
    // "Bob" is also the code of the boliviano, "all" the lek's, "won" a verb before a number.
    expect(findMoney("pay Bob 20")).toBeUndefined();
    expect(findMoney("pay all 20")).toBeUndefined();
    expect(findMoney("I won 50 at the casino")).toBeUndefined();
    expect(findMoney("pays $50")?.currency).toBe("USD");
  });
});

describe("findCurrency", () => {
  it.each([
    ["euros", "EUR"],
    ["in dollars please", "USD"],
    ["USD", "USD"],
    ["kwd", "KWD"],
    ["£", "GBP"],
    ["yen", "JPY"],
    ["the same", undefined],
    ["all of it", undefined],
  ])("%s → %s", (text, code) => {
    expect(findCurrency(text)).toBe(code);
  });
});
