// Reading rendered prompts the way an adversary hopes a model will: every data tag a reader could
// take for one (look-alike brackets and letters folded by NFKC), and the text left outside the tags.
const TAGS = "evidence|metadata|documents";
const ANY_TAG = new RegExp(`<\\s*\\/?\\s*(?:${TAGS})\\b`, "gi");
const WELL_FORMED = new RegExp(`<(${TAGS})(?: [^>]*)?>[\\s\\S]*?<\\/\\1>`, "g");

/** Opening and closing data tags in `text`, forged ones included. */
export function tagCount(text: string): number {
  return text.normalize("NFKC").match(ANY_TAG)?.length ?? 0;
}

/** `text` without its data tags and their content: what a model reads as instructions. */
export function outsideTags(text: string): string {
  return text.replace(WELL_FORMED, "");
}

/** The content of the first `<evidence>` tag whose id is `id`. */
export function evidenceContent(text: string, id: string): string | undefined {
  const escaped = id.replace(/[.[\]]/g, "\\$&");
  return new RegExp(`<evidence id="${escaped}"[^>]*>([\\s\\S]*?)<\\/evidence>`).exec(text)?.[1];
}
