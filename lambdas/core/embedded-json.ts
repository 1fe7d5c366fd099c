// Finding JSON inside model output (fences, prose around it): shared by the plan parser and the
// solver-output parser.

/**
 * The index of the bracket closing the JSON array/object opened at `open` (or -1): both bracket kinds must nest properly and strings are opaque.
 * The scan also settles every opener it meets outside strings (its end, or -1 when the same mismatch or end
 * of text dooms it), recorded in `ends`, so no position is scanned twice and the search stays linear.
 */
export function balancedJsonEnd(
  text: string,
  open: number,
  to: number = text.length,
  ends: Map<number, number> = new Map(),
): number {
  const openers: number[] = [];
  const fail = () => {
    for (const at of openers) ends.set(at, -1);
    return -1;
  };
  let inString = false;
  for (let i = open; i < to; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") openers.push(i);
    else if (ch === "]" || ch === "}") {
      const at = openers.at(-1);
      if (at === undefined || text[at] !== (ch === "]" ? "[" : "{")) return fail();
      openers.pop();
      ends.set(at, i);
      if (openers.length === 0) return i;
    }
  }
  return fail();
}
