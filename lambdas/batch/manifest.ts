// A batch's requests as the numbered manifest the Distributed Map reads (JSON Lines, one ManifestItem
// per line with a request). The API builds it once, from the caller's JSON Lines manifest or inline
// requests: a line that is not JSON or is too large becomes an item saying so, so that it is reported
// as that line's result and never stops the Map's ItemReader (which fails the whole Map Run on a
// malformed line). Pure: text in, text out.

import {
  type LineError,
  type LineRanges,
  lineRanges,
  MAX_LINE_BYTES,
  type ManifestItem,
} from "../core/batch.ts";
import { utf8Length } from "../core/documents.ts";

export interface NumberedManifest {
  items: ManifestItem[];
  /** Lines with a request (blank lines are skipped, but keep their numbers). */
  total: number;
  ranges: LineRanges;
}

/** Numbers a JSON Lines text: line numbers are 1-based and count every line, as an editor shows them. */
export function numberJsonLines(text: string): NumberedManifest {
  const items: ManifestItem[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    items.push(itemOf(index + 1, line));
  });
  return numbered(items);
}

/**
 * Inline requests: entry n is line n + 1, unless the caller said where each stands in its file
 * (`lines`, one per request, checked by validateBatchRequest); each is sized as the line it would be
 * in a manifest.
 */
export function numberInlineRequests(
  requests: readonly unknown[],
  lines?: readonly { line: number; file?: string }[],
): NumberedManifest {
  return numbered(
    requests.map((request, index): ManifestItem => {
      const source = lines?.[index];
      const line = source?.line ?? index + 1;
      const file = source?.file !== undefined ? { file: source.file } : {};
      const size = utf8Length(JSON.stringify(request) ?? "null");
      return size > MAX_LINE_BYTES
        ? { line, unreadable: tooLarge(size), ...file }
        : { line, request, ...file };
    }),
  );
}

/** The numbered manifest as the JSON Lines object the ItemReader reads (InputType JSONL). */
export function manifestText(manifest: NumberedManifest): string {
  return manifest.items.map((item) => JSON.stringify(item)).join("\n") + (manifest.items.length ? "\n" : "");
}

function itemOf(line: number, text: string): ManifestItem {
  const size = utf8Length(text);
  if (size > MAX_LINE_BYTES) return { line, unreadable: tooLarge(size) };
  try {
    return { line, request: JSON.parse(text) };
  } catch (error) {
    const message = `line ${line} is not JSON: ${(error as Error).message}`;
    return {
      line,
      unreadable: { code: "invalid_json", message, fields: [{ field: "(line)", message }] },
    };
  }
}

function tooLarge(size: number): LineError {
  const message = `the line is ${size} bytes; a batch line may be at most ${MAX_LINE_BYTES} bytes`;
  return { code: "line_too_large", message, fields: [{ field: "(line)", message }] };
}

function numbered(items: ManifestItem[]): NumberedManifest {
  return { items, total: items.length, ranges: lineRanges(items.map((item) => item.line)) };
}
