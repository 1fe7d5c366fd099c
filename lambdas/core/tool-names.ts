// Tool names in a plan are matched without regard to case. Planners write them as they please: the
// ReWOO paper's plans say `LLM[...]`, models echo `Get_Balance` or shout `RETRIEVE_S3_DOCUMENT`. The
// registered names differ by more than case (the registry refuses two that do not), so the match is
// never ambiguous, and a plan carries the registered spelling from validation on.

/** The key of `names` that `name` means: itself when registered as written, else its case-insensitive match. */
export function canonicalToolName(names: Iterable<string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  let found: string | undefined;
  for (const candidate of names) {
    if (candidate === name) return candidate;
    if (found === undefined && candidate.toLowerCase() === wanted) found = candidate;
  }
  return found;
}

/** The key a registry indexes a tool under, so that lookups ignore case. */
export function toolNameKey(name: string): string {
  return name.toLowerCase();
}
