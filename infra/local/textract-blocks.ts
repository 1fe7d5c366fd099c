// The local Textract emulator's answer: what the offline OCR read on each page as Textract's blocks
// (PAGE, LINE, WORD and, for a document analysis, SIGNATURE, KEY_VALUE_SET, TABLE and CELL), in its
// geometry. Key–value pairs and tables are found by position on the lines the words lay out into,
// as the offline reader finds them; their CHILD words are the WORD blocks inside their boxes.
import { randomUUID } from "node:crypto";
import { keyValuePairs, type LaidSpan, tablesOf } from "../../lambdas/documents/forms-tables.ts";
import { layoutLines } from "../../lambdas/documents/line-layout.ts";
import type { OcrPage } from "../../lambdas/tools/ocr/engine.ts";

type Point = { X: number; Y: number };

/** A block as GetDocumentTextDetection returns it (the members text detection fills in). */
export interface TextractBlock {
  BlockType: "PAGE" | "LINE" | "WORD" | "SIGNATURE" | "KEY_VALUE_SET" | "TABLE" | "CELL";
  Confidence?: number;
  Text?: string;
  TextType?: "PRINTED";
  Geometry: {
    BoundingBox: { Width: number; Height: number; Left: number; Top: number };
    Polygon: Point[];
  };
  Id: string;
  Relationships?: Array<{ Type: "CHILD" | "VALUE"; Ids: string[] }>;
  Page: number;
  EntityTypes?: Array<"KEY" | "VALUE">;
  RowIndex?: number;
  ColumnIndex?: number;
}

/**
 * Words in PDF points (origin bottom left, y the baseline) → Textract's blocks: per page the PAGE
 * block, its LINEs in reading order, then their WORDs, as Textract orders them; boxes relative to the
 * page with the origin at its top left; a line's confidence the mean of its words'.
 */
export function toBlocks(
  pages: OcrPage[],
  pageSizes: ReadonlyArray<{ width: number; height: number }>,
  options: { signatures?: boolean; forms?: boolean; tables?: boolean } = {},
): TextractBlock[] {
  const blocks: TextractBlock[] = [];
  for (const ocrPage of pages) {
    const size = pageSizes[ocrPage.page - 1];
    if (!size) continue;
    const lines: TextractBlock[] = [];
    const words: TextractBlock[] = [];
    for (const line of ocrPage.lines) {
      const lineWords = line.words
        .filter((word) => word.text.trim() !== "")
        .map(
          (word): TextractBlock => ({
            BlockType: "WORD",
            Confidence: word.confidence,
            Text: word.text,
            // tesseract tells no handwriting apart.
            TextType: "PRINTED",
            Geometry: geometry(relativeBox(word, size)),
            Id: randomUUID(),
            Page: ocrPage.page,
          }),
        );
      if (lineWords.length === 0) continue;
      const boxes = lineWords.map((word) => word.Geometry.BoundingBox);
      const left = Math.min(...boxes.map((box) => box.Left));
      const top = Math.min(...boxes.map((box) => box.Top));
      const right = Math.max(...boxes.map((box) => box.Left + box.Width));
      const bottom = Math.max(...boxes.map((box) => box.Top + box.Height));
      lines.push({
        BlockType: "LINE",
        Confidence: lineWords.reduce((sum, word) => sum + (word.Confidence ?? 0), 0) / lineWords.length,
        Text: lineWords.map((word) => word.Text).join(" "),
        Geometry: geometry({ Left: left, Top: top, Width: right - left, Height: bottom - top }),
        Id: randomUUID(),
        Relationships: [{ Type: "CHILD", Ids: lineWords.map((word) => word.Id) }],
        Page: ocrPage.page,
      });
      words.push(...lineWords);
    }
    blocks.push(
      {
        BlockType: "PAGE",
        Geometry: geometry({ Left: 0, Top: 0, Width: 1, Height: 1 }),
        Id: randomUUID(),
        ...(lines.length > 0
          ? { Relationships: [{ Type: "CHILD", Ids: lines.map((line) => line.Id) }] }
          : {}),
        Page: ocrPage.page,
      },
      ...lines,
      ...words,
      ...(options.signatures ? (ocrPage.signatures ?? []) : []).map(
        (signature): TextractBlock => ({
          BlockType: "SIGNATURE",
          Confidence: signature.confidence,
          Geometry: geometry(
            relativeBox(
              {
                x: signature.x,
                y: signature.y,
                width: signature.right - signature.x,
                height: signature.top - signature.y,
              },
              size,
            ),
          ),
          Id: randomUUID(),
          Page: ocrPage.page,
        }),
      ),
      ...structureBlocks(ocrPage, size, words, options),
    );
  }
  return blocks;
}

/** KEY_VALUE_SET (FORMS), TABLE and CELL (TABLES) blocks of one page, found on its laid-out lines. */
function structureBlocks(
  ocrPage: OcrPage,
  size: { width: number; height: number },
  words: ReadonlyArray<TextractBlock>,
  options: { forms?: boolean; tables?: boolean },
): TextractBlock[] {
  if (!options.forms && !options.tables) return [];
  const lines = layoutLines(
    ocrPage.lines.flatMap((line, index) =>
      line.words
        .filter((word) => word.text.trim() !== "")
        .map((word) => ({
          line: index,
          str: word.text,
          x: word.x,
          y: word.y,
          width: word.width,
          size: Math.max(4, word.height),
          confidence: word.confidence,
        })),
    ),
  );
  const tables = tablesOf(lines);
  const blocks: TextractBlock[] = [];
  const spanBlock = (span: LaidSpan, type: "KEY_VALUE_SET" | "CELL"): TextractBlock => {
    const box = relativeBox(
      { x: span.box.x, y: span.box.y, width: span.box.right - span.box.x, height: span.box.top - span.box.y },
      size,
    );
    const children = words.filter((word) => {
      const { Left, Top, Width, Height } = word.Geometry.BoundingBox;
      const x = Left + Width / 2;
      const y = Top + Height / 2;
      return x >= box.Left && x <= box.Left + box.Width && y >= box.Top && y <= box.Top + box.Height;
    });
    return {
      BlockType: type,
      Confidence: span.confidence ?? 0,
      Geometry: geometry(box),
      Id: randomUUID(),
      ...(children.length
        ? { Relationships: [{ Type: "CHILD", Ids: children.map((word) => word.Id) }] }
        : {}),
      Page: ocrPage.page,
    };
  };
  if (options.forms) {
    for (const field of keyValuePairs(lines, tables)) {
      const value = field.value
        ? spanBlock(field.value, "KEY_VALUE_SET")
        : {
            BlockType: "KEY_VALUE_SET" as const,
            Confidence: 0,
            Geometry: geometry({ Left: 0, Top: 0, Width: 0, Height: 0 }),
            Id: randomUUID(),
            Page: ocrPage.page,
          };
      const key = spanBlock(field.key, "KEY_VALUE_SET");
      blocks.push(
        {
          ...key,
          EntityTypes: ["KEY"],
          Relationships: [{ Type: "VALUE", Ids: [value.Id] }, ...(key.Relationships ?? [])],
        },
        { ...value, EntityTypes: ["VALUE"] },
      );
    }
  }
  if (options.tables) {
    for (const table of tables) {
      const cells = table.cells.map((cell) => ({
        ...spanBlock(cell.span, "CELL"),
        RowIndex: cell.row,
        ColumnIndex: cell.column,
      }));
      const boxes = cells.map((cell) => cell.Geometry.BoundingBox);
      const left = Math.min(...boxes.map((box) => box.Left));
      const top = Math.min(...boxes.map((box) => box.Top));
      blocks.push(
        {
          BlockType: "TABLE",
          Confidence: Math.min(...cells.map((cell) => cell.Confidence ?? 0)),
          Geometry: geometry({
            Left: left,
            Top: top,
            Width: Math.max(...boxes.map((box) => box.Left + box.Width)) - left,
            Height: Math.max(...boxes.map((box) => box.Top + box.Height)) - top,
          }),
          Id: randomUUID(),
          Relationships: [{ Type: "CHILD", Ids: cells.map((cell) => cell.Id) }],
          Page: ocrPage.page,
        },
        ...cells,
      );
    }
  }
  return blocks;
}

function relativeBox(
  word: { x: number; y: number; width: number; height: number },
  size: { width: number; height: number },
): TextractBlock["Geometry"]["BoundingBox"] {
  // Clamped: a box tesseract found at the very edge may overhang the page by a rounding error.
  const left = clamp(word.x / size.width);
  const top = clamp(1 - (word.y + word.height) / size.height);
  const right = clamp((word.x + word.width) / size.width);
  const bottom = clamp(1 - word.y / size.height);
  return { Left: left, Top: top, Width: right - left, Height: bottom - top };
}

function geometry(box: TextractBlock["Geometry"]["BoundingBox"]): TextractBlock["Geometry"] {
  const right = box.Left + box.Width;
  const bottom = box.Top + box.Height;
  return {
    BoundingBox: box,
    // Clockwise from the top left, as Textract lists an upright box's corners.
    Polygon: [
      { X: box.Left, Y: box.Top },
      { X: right, Y: box.Top },
      { X: right, Y: bottom },
      { X: box.Left, Y: bottom },
    ],
  };
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
