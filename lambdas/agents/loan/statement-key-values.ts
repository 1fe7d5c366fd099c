// The statement period, the account number and the holder read from the page's key–value pairs
// (the document model's KEY_VALUE_SET blocks: Textract FORMS in AWS, labels and their values found
// by position offline), for statements whose wording the line finders do not know ("Acct #",
// "A/C No.", "Billing cycle:", "Prepared for:"). Used only where the line finders found nothing.
import { type KeyValue, keyValues, pointBox } from "../../documents/blocks.ts";
import type { Located, Period } from "./statement-fields.ts";
import { looksLikeName } from "./statement-holders.ts";
import { type DateOrder, findDateRanges, type PageText } from "./text.ts";

const ACCOUNT_KEY =
  /^(?:(?:checking|savings|business|primary|your)\s+)?(?:acc(?:oun)?t|a\/c)\.?\s*(?:no\.?|number|num\.?|#|ending(?:\s+in)?)?$/i;
const PERIOD_KEY =
  /^(?:statement\s+|billing\s+|account\s+)?(?:period|cycle|dates?)(?:\s+covered)?$|^statement\s+(?:from|covering)$|^for\s+the\s+period$/i;
const HOLDER_KEY =
  /^(?:account\s+(?:holders?|owners?|names?)|(?:primary\s+)?(?:owner|holder)s?|customer(?:\s+name)?|member(?:\s+name)?|name|prepared\s+for|statement\s+for)$/i;

/** Below what a printed label beside its value earns: the pair was found by position. */
const KEY_VALUE_CONFIDENCE = 0.85;

interface PagePair {
  page: PageText;
  pair: KeyValue;
  line: number;
  offset: number;
}

/** Each pair of each page with the line (and the offset in it) its value is printed on. */
function pairs(pages: ReadonlyArray<PageText>, key: RegExp): PagePair[] {
  return pages.flatMap((page) => {
    const model = page.model;
    if (!model) return [];
    const lines = model.blocks.filter((block) => block.BlockType === "LINE");
    return keyValues(model).flatMap((pair) => {
      if (!pair.valueBox || !pair.value || !key.test(pair.key)) return [];
      const centre = (pair.valueBox.y + pair.valueBox.top) / 2;
      const line = lines.findIndex((block, index) => {
        const box = pointBox(block.Geometry.BoundingBox, model);
        return box.y <= centre && centre <= box.top && (page.lines[index] ?? "").includes(pair.value);
      });
      if (line < 0) return [];
      return [{ page, pair, line, offset: (page.lines[line] ?? "").indexOf(pair.value) }];
    });
  });
}

function located<T>(at: PagePair, value: T): Located<T> {
  return {
    value,
    page: at.page,
    line: at.line,
    offset: at.offset,
    source: "label",
    confidence: Math.min(KEY_VALUE_CONFIDENCE, (at.pair.confidence ?? 100) / 100),
  };
}

export function keyValuePeriods(pages: ReadonlyArray<PageText>, order: DateOrder): Array<Located<Period>> {
  return pairs(pages, PERIOD_KEY).flatMap((at) => {
    const range = findDateRanges(at.pair.value, order)[0];
    return range ? [located(at, { start: range.start, end: range.end })] : [];
  });
}

export function keyValueAccounts(pages: ReadonlyArray<PageText>): Array<Located<string>> {
  return pairs(pages, ACCOUNT_KEY).flatMap((at) => {
    // A masked or spaced number ("XXXX XXXX 4821", "****4821", "12-3456-7"): its last four digits.
    if (!/^[\dXx*•.\- ]+$/.test(at.pair.value)) return [];
    const digits = at.pair.value.replace(/\D/g, "");
    return digits.length >= 4 ? [located(at, digits.slice(-4))] : [];
  });
}

export function keyValueHolders(pages: ReadonlyArray<PageText>): Array<Located<string>> {
  return pairs(pages, HOLDER_KEY).flatMap((at) =>
    looksLikeName(at.pair.value) ? [located(at, at.pair.value.trim())] : [],
  );
}
