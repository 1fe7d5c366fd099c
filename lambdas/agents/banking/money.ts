// Money as the banking assistant reads and writes it: amounts are integer minor units of their own
// currency (cents for USD, yen for JPY, fils for KWD), with the currency's number of decimals taken
// from the runtime's ISO 4217 data (Intl), never from a hand-kept table and never through a float.
// Reading accepts what customers type: "$50", "50$", "USD 400", "400 usd", "1.5k", "fifty bucks",
// "a hundred dollars", "€20", "20 euros", "¥5000", "5000 JPY", "KWD 1.250".

const SUPPORTED_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/**
 * The number of decimals of an ISO 4217 currency (USD 2, JPY 0, KWD 3), or undefined when the code
 * is not a currency the runtime knows.
 */
export function minorUnits(currency: string): number | undefined {
  if (!SUPPORTED_CURRENCIES.has(currency)) return undefined;
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits;
}

export function isCurrencyCode(code: string): boolean {
  return SUPPORTED_CURRENCIES.has(code);
}

/**
 * Minor units → "50.00 USD", "5,000 JPY", "1.250 KWD": the currency's own decimals, exact for any
 * safe integer. With no currency, two decimals and no code (a limit that applies to any currency);
 * with a code the runtime does not know, the minor units themselves, so nothing is shown with
 * decimals it may not have.
 */
export function formatMoney(minor: number, currency: string): string {
  const decimals = currency ? minorUnits(currency) : 2;
  if (decimals === undefined) return `${minor.toLocaleString("en-US")} minor units of ${currency}`;
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = decimals > 0 ? `.${digits.slice(-decimals)}` : "";
  return `${minor < 0 ? "-" : ""}${whole}${fraction}${currency ? ` ${currency}` : ""}`;
}

/**
 * A major-unit decimal as written ("200", "12.5", "1.250") → integer minor units of `currency`, or
 * undefined when it has more decimals than the currency has (12.5 JPY, 1.005 USD): such an amount
 * is asked again, never rounded.
 */
export function toMinorUnits(asWritten: string, currency: string): number | undefined {
  const decimals = minorUnits(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(asWritten);
  if (decimals === undefined || !match) return undefined;
  const fraction = match[2] ?? "";
  if (fraction.replace(/0+$/, "").length > decimals) return undefined;
  const minor = Number(`${match[1]}${fraction.slice(0, decimals).padEnd(decimals, "0")}`);
  return Number.isSafeInteger(minor) && minor > 0 ? minor : undefined;
}

/**
 * An amount found in a message. With its currency: `amount` in that currency's minor units. Without
 * one ("transfer 200 to my mom"): `asWritten`, the major-unit decimal ("200"), which becomes minor
 * units once the currency is known (toMinorUnits). `asWritten` is kept with a currency too when
 * the amount has more decimals than the currency has, so the conversation can ask again.
 */
export interface FoundMoney {
  amount?: number;
  currency?: string;
  asWritten: string;
}

export interface FindMoneyOptions {
  /**
   * Also a number with no currency beside it ("send 200 to Sam"); off by default, where a bare
   * number is as likely a date, a time or digits of an account.
   */
  bare?: boolean;
}

/** The first amount a message names: one with its currency first, else (with `bare`) one without. */
export function findMoney(text: string, options: FindMoneyOptions = {}): FoundMoney | undefined {
  const candidates = numberSpans(text);
  let bare: FoundMoney | undefined;
  for (const span of candidates) {
    // "$0" is no amount to send.
    if (/^0(\.0*)?$/.test(span.value)) continue;
    const currency = currencyBefore(text, span.start) ?? currencyAfter(text, span.end);
    if (currency) {
      const amount = toMinorUnits(span.value, currency.code);
      return amount === undefined
        ? { currency: currency.code, asWritten: span.value }
        : { amount, currency: currency.code, asWritten: span.value };
    }
    if (options.bare && !bare && bareAmount(text, span)) bare = { asWritten: span.value };
  }
  return bare;
}

/** "euros", "usd", "€", "yen": the currency a message names, or undefined. */
export function findCurrency(text: string): string | undefined {
  for (const word of text.split(/[\s,.!?;:()]+/)) {
    const code = currencyOfWord(word);
    if (code) return code;
  }
  const symbol = SYMBOL_PATTERN.exec(text)?.[0];
  return symbol ? SYMBOLS[symbol] : undefined;
}

// ---------------------------------------------------------------- numbers

interface NumberSpan {
  start: number;
  end: number;
  /** The major-unit decimal, "1500" for "1.5k", "25" for "twenty five". */
  value: string;
  /** Spelled in words ("fifty"), not digits. */
  words: boolean;
}

// Digits: "1,250.50", "1.250,50" and "20,50" (a decimal comma), "1250", "12.5". Glued to a letter
// or another number's digits they are something else (an id, a time, a date).
const DIGITS =
  /(?<![\w.,/:-])(?:(?<grouped>\d{1,3}(?:,\d{3})+)(?:\.(?<gfrac>\d+))?|(?<eu>\d{1,3}(?:\.\d{3})+),(?<eufrac>\d{1,2})|(?<comma>\d+),(?<commafrac>\d{1,2})(?![\d,])|(?<plain>\d+)(?:\.(?<pfrac>\d+))?)(?![\d/:-]|[.,]\d)(?:\s?(?<mult>k\b|thousand\b|grand\b|hundred\b|million\b|mil\b|m\b))?/gi;

const MULTIPLIERS: Readonly<Record<string, number>> = {
  k: 3,
  thousand: 3,
  grand: 3,
  hundred: 2,
  million: 6,
  mil: 6,
  m: 6,
};

function numberSpans(text: string): NumberSpan[] {
  const spans: NumberSpan[] = [];
  for (const match of text.matchAll(DIGITS)) {
    const g = match.groups ?? {};
    const whole = (g.grouped ?? g.eu ?? g.comma ?? g.plain ?? "").replace(/[,.]/g, "");
    const fraction = g.gfrac ?? g.eufrac ?? g.commafrac ?? g.pfrac ?? "";
    const multiplier = g.mult ? MULTIPLIERS[g.mult.toLowerCase()] : 0;
    // "m" alone is minutes or metres as often as millions: only after a currency ("$2m").
    if (g.mult?.toLowerCase() === "m" && !currencyBefore(text, match.index)) continue;
    const value = shiftDecimal(whole, fraction, multiplier ?? 0);
    spans.push({ start: match.index, end: match.index + match[0].length, value, words: false });
  }
  spans.push(...wordNumberSpans(text));
  return spans.sort((a, b) => a.start - b.start);
}

/** "1" "5" shifted by 3 → "1500"; the result as a canonical decimal without needless zeros. */
function shiftDecimal(whole: string, fraction: string, places: number): string {
  const digits = `${whole}${fraction}`;
  const point = whole.length + places;
  const padded = digits.padEnd(point, "0");
  const integer = padded.slice(0, point).replace(/^0+(?=\d)/, "");
  const decimals = padded.slice(point).replace(/0+$/, "");
  return decimals ? `${integer || "0"}.${decimals}` : integer || "0";
}

const UNITS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  ninty: 90,
};
const SCALES: Readonly<Record<string, number>> = {
  hundred: 100,
  thousand: 1_000,
  grand: 1_000,
  k: 1_000,
  million: 1_000_000,
};

/** "twenty five", "a hundred", "two thousand five hundred and fifty", "fifty-five". */
function wordNumberSpans(text: string): NumberSpan[] {
  const spans: NumberSpan[] = [];
  const words = [...text.matchAll(/[a-z]+/gi)];
  let i = 0;
  while (i < words.length) {
    const parsed = readWordNumber(words, i, text);
    if (!parsed) {
      i++;
      continue;
    }
    const first = words[i] as RegExpMatchArray;
    const last = words[parsed.next - 1] as RegExpMatchArray;
    spans.push({
      start: first.index ?? 0,
      end: (last.index ?? 0) + last[0].length,
      value: String(parsed.value),
      words: true,
    });
    i = parsed.next;
  }
  return spans;
}

function readWordNumber(
  words: RegExpMatchArray[],
  from: number,
  text: string,
): { value: number; next: number } | undefined {
  const word = (k: number) => words[k]?.[0].toLowerCase() ?? "";
  // The words of one number are apart by spaces or a hyphen, nothing else ("fifty, five" is two).
  const adjacent = (k: number) => {
    const previous = words[k - 1];
    const next = words[k];
    if (!previous || !next) return false;
    return /^(\s+|-)$/.test(text.slice((previous.index ?? 0) + previous[0].length, next.index ?? 0));
  };
  let total = 0;
  let current = 0;
  let k = from;
  let seen = false;
  // "a hundred", "a grand": "a" is one only before a scale.
  if ((word(k) === "a" || word(k) === "an") && SCALES[word(k + 1)] && adjacent(k + 1)) {
    current = 1;
    k++;
  }
  for (; k < words.length; k++) {
    if (k > from && !adjacent(k)) break;
    const w = word(k);
    const unit = UNITS[w];
    const tens = TENS[w];
    const scale = SCALES[w];
    const rest = current % 100;
    if (w === "and" && seen && (UNITS[word(k + 1)] || TENS[word(k + 1)]) && adjacent(k + 1)) continue;
    if (unit !== undefined && (rest === 0 || (rest >= 20 && rest % 10 === 0 && unit < 10))) current += unit;
    else if (tens !== undefined && rest === 0) current += tens;
    else if (scale === 100 && current > 0 && current < 100) current *= 100;
    else if (scale !== undefined && scale > 100 && current > 0) {
      total += current * scale;
      current = 0;
    } else break;
    seen = true;
  }
  const value = total + current;
  return seen && value > 0 ? { value, next: k } : undefined;
}

// ---------------------------------------------------------------- currencies

const SYMBOLS: Readonly<Record<string, string>> = {
  US$: "USD",
  CA$: "CAD",
  C$: "CAD",
  AU$: "AUD",
  A$: "AUD",
  NZ$: "NZD",
  HK$: "HKD",
  S$: "SGD",
  R$: "BRL",
  $: "USD",
  "€": "EUR",
  "£": "GBP",
  "¥": "JPY",
  "₩": "KRW",
  "₹": "INR",
  "₽": "RUB",
  "₺": "TRY",
  "₪": "ILS",
  "₱": "PHP",
  "฿": "THB",
  "₫": "VND",
  "₦": "NGN",
};
const SYMBOL_PATTERN = /(?<![\p{L}])(?:US|CA|AU|NZ|HK|C|A|S|R)\$|\$|[€£¥₩₹₽₺₪₱฿₫₦]/u;

// Words customers use for a currency, with the typos they make. A word that names several
// currencies ("dinars", "pesos") names none: the conversation asks.
const CURRENCY_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(dollars?|dollers?|dolars?|dollas?|dllrs?|bucks?|bux|usd)$/i, "USD"],
  [/^(euros?|euors?|eruos?|eur)$/i, "EUR"],
  [/^(pounds?|quid|sterling|gbp)$/i, "GBP"],
  [/^(yen|jpy)$/i, "JPY"],
  [/^(won|krw)$/i, "KRW"],
  [/^(francs?|chf)$/i, "CHF"],
  [/^(rupees?|inr)$/i, "INR"],
  [/^(yuan|rmb|renminbi|cny)$/i, "CNY"],
];

// Codes that are also English words or names ("ALL", "TOP", "BOB", "PEN"): a code only in capitals.
const LOWERCASE_CODES = new Set([
  "usd",
  "eur",
  "gbp",
  "jpy",
  "cad",
  "aud",
  "nzd",
  "chf",
  "cny",
  "hkd",
  "sgd",
  "inr",
  "krw",
  "kwd",
  "bhd",
  "omr",
  "jod",
  "tnd",
  "sek",
  "nok",
  "dkk",
  "pln",
  "czk",
  "huf",
  "mxn",
  "brl",
  "zar",
  "aed",
  "sar",
  "ils",
  "thb",
  "idr",
  "myr",
  "vnd",
  "ngn",
  "kes",
  "egp",
  "clp",
  "isk",
]);

/** "dollars", "quid", "yen", "USD", "kwd": the currency a single word names. */
function currencyOfWord(word: string): string | undefined {
  const named = CURRENCY_WORDS.find(([pattern]) => pattern.test(word))?.[1];
  if (named) return named;
  if (/^[A-Z]{3}$/.test(word) && SUPPORTED_CURRENCIES.has(word)) return word;
  const lower = word.toLowerCase();
  return LOWERCASE_CODES.has(lower) && SUPPORTED_CURRENCIES.has(lower.toUpperCase())
    ? lower.toUpperCase()
    : undefined;
}

/**
 * "$", "US$", "€", "USD " right before a number. A currency's name ("dollars") before the number is
 * not read: "I won 50" is no amount in won.
 */
function currencyBefore(text: string, start: number): { code: string } | undefined {
  const before = text.slice(Math.max(0, start - 8), start);
  const symbol = /(?:(?<![\p{L}])(US|CA|AU|NZ|HK|C|A|S|R)\$|(\$)|([€£¥₩₹₽₺₪₱฿₫₦]))\s?$/u.exec(before);
  if (symbol) {
    const written = symbol[1] ? `${symbol[1]}$` : (symbol[2] ?? symbol[3] ?? "");
    const code = SYMBOLS[written];
    if (code) return { code };
  }
  const word = /(?<![\p{L}])(\p{L}{3})\s?$/u.exec(before)?.[1];
  if (!word) return undefined;
  if (word === word.toUpperCase() && SUPPORTED_CURRENCIES.has(word)) return { code: word };
  return LOWERCASE_CODES.has(word.toLowerCase()) ? { code: word.toUpperCase() } : undefined;
}

/** "$", "€", "dollars", "usd", " bucks" right after a number (and its "k"). */
function currencyAfter(text: string, end: number): { code: string } | undefined {
  const after = text.slice(end, end + 24);
  const symbol = /^\s?([$€£¥₩₹₽₺₪₱฿₫₦])/.exec(after)?.[1];
  if (symbol) return { code: SYMBOLS[symbol] as string };
  const word = /^\s?(?:us |american |canadian |australian )?(\p{L}+)/iu.exec(after);
  if (!word?.[1]) return undefined;
  const qualifier = /^\s?(us|american|canadian|australian) /i.exec(after)?.[1]?.toLowerCase();
  const code = currencyOfWord(word[1]);
  if (code === "USD" && qualifier === "canadian") return { code: "CAD" };
  if (code === "USD" && qualifier === "australian") return { code: "AUD" };
  return code ? { code } : undefined;
}

// ---------------------------------------------------------------- bare numbers

/**
 * A number with no currency that still reads as an amount: not the digits of an account or card
 * ("ending 4821", "account 1234"), a time, a date, a count ("2 payments") or an ordinal.
 */
function bareAmount(text: string, span: NumberSpan): boolean {
  const before = text.slice(Math.max(0, span.start - 24), span.start).toLowerCase();
  const after = text.slice(span.end, span.end + 16).toLowerCase();
  // "ending 4821", "account 1234", "to 4821" (an account), "at 5", "on the 3rd"; but "a transfer of 200".
  if (
    /(?:\b(?:ending|ends|end|account|acct|acc|card|number|no|digits|last|in|on|at|of|from|to|into|since|by|until|before|after|past|about|x)\.?|[#*])\s*$/.test(
      before,
    ) &&
    !/\b(transfer|payment|amount|sum|total) of\s*$/.test(before)
  ) {
    return false;
  }
  if (
    /^\s?(am|pm|th|st|nd|rd|%|percent|days?|hours?|hrs?|minutes?|mins?|seconds?|times?|years?|yrs?|months?|weeks?|o'?clock|digits?|payments?|transfers?|transactions?|charges?|cards?|accounts?|people)\b/.test(
      after,
    )
  ) {
    return false;
  }
  // "one", "two": a word for a small number is a pronoun or a count ("the debit one") more often.
  return !(span.words && Number(span.value) < 10);
}
