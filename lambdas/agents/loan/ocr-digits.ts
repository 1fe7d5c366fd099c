// Digits OCR misread as letters, put back. Used where OCR words are laid out into lines (pdf-text.ts),
// below the reading helpers (text.ts) that read those lines, so neither imports the other.

/**
 * A word OCR read where the page printed a number, with the letters it confuses with digits
 * turned back into them ("1,85O.OO" → "1,850.00", "l2-3456789" → "12-3456789", "O2/O7" →
 * "02/07"). Only words that are mostly digits and whose letters are all look-alikes change, so
 * real words ("SOIL", "IOU", "Oil") never do; the length stays, so positions in the line hold.
 */
export function readDigits(word: string): string {
  const core = /^([($+-]*)([\dOoIlS|,./-]+?)([).,:;-]*)$/.exec(word);
  if (!core) return word;
  const [, before = "", middle = "", after = ""] = core;
  const digits = middle.replace(/\D/g, "").length;
  const letters = middle.replace(/[^OoIlS|]/g, "").length;
  if (digits < 2 || letters === 0 || letters > digits) return word;
  return `${before}${middle.replace(/[Oo]/g, "0").replace(/[Il|]/g, "1").replace(/S/g, "5")}${after}`;
}
