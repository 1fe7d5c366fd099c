// One page of the document model built from what the offline reading found: the laid-out lines
// (text layer or OCR) as LINE and WORD blocks, and signatures as SIGNATURE blocks — pen-like
// drawings and images of the PDF clustered into marks, or the signatures an OCR engine reported.
// The LINE blocks keep the order of the page's text lines, so line `i` of the text is LINE `i`.
// Key–value pairs and tables (KEY_VALUE_SET, TABLE, CELL) come from an engine that found them
// (Textract FORMS and TABLES), or are found from the lines by position (forms-tables.ts).
import {
  type Block,
  boundingBox,
  clusterBoxes,
  type DocumentModel,
  type PageModel,
  type PointBox,
  type SignatureSource,
} from "./blocks.ts";
import { keyValuePairs, type LaidField, type LaidSpan, type LaidTable, tablesOf } from "./forms-tables.ts";
import { type InkMark, penLike } from "./pdf-marks.ts";

export type { DocumentModel, PageModel };

interface ModelLine {
  text: string;
  box: PointBox;
  /** Columns of the line, each with its horizontal extent. */
  cells: ReadonlyArray<{ text: string; x: number; right: number; confidence?: number }>;
}

/** Strokes of one signature lie this close (points); two signatures on a page are farther apart. */
const SIGNATURE_GAP_POINTS = 8;

export function lineId(page: number, index: number): string {
  return `${page}.L${index}`;
}

export function pageModel(
  page: number,
  size: { width: number; height: number },
  lines: ReadonlyArray<ModelLine>,
  marks: ReadonlyArray<InkMark>,
  reported: ReadonlyArray<PointBox & { confidence: number; source?: "textract" | "ink" }> = [],
  signaturesLooked = true,
  /** Key–value pairs and tables an engine found (Textract FORMS and TABLES); else found from the lines. */
  analysis?: { fields: LaidField[]; tables: LaidTable[] },
): PageModel {
  const blocks: Block[] = [];
  const signatureSources: Record<string, SignatureSource> = {};
  const geometry = (box: PointBox) => ({ BoundingBox: boundingBox(box, size) });
  const lineIds: string[] = [];
  lines.forEach((line, index) => {
    const id = lineId(page, index);
    lineIds.push(id);
    const words = line.cells.flatMap((cell, cellIndex) => wordsOf(cell, line.box, `${id}.W${cellIndex}`));
    const confidences = line.cells.flatMap((cell) =>
      cell.confidence === undefined ? [] : [cell.confidence],
    );
    blocks.push({
      Id: id,
      BlockType: "LINE",
      Page: page,
      Text: line.text,
      Geometry: geometry(line.box),
      ...(confidences.length ? { Confidence: Math.min(...confidences) } : {}),
      ...(words.length ? { Relationships: [{ Type: "CHILD", Ids: words.map((word) => word.id) }] } : {}),
    });
    for (const word of words) {
      blocks.push({
        Id: word.id,
        BlockType: "WORD",
        Page: page,
        Text: word.text,
        Geometry: geometry(word.box),
      });
    }
  });
  const words = blocks.filter((block) => block.BlockType === "WORD");
  const tables = analysis?.tables ?? tablesOf(lines);
  const fields = analysis?.fields ?? keyValuePairs(lines, tables);
  blocks.push(...formBlocks(page, size, fields, words), ...tableBlocks(page, size, tables, words));
  const pens = marks.filter(penLike);
  clusterBoxes(pens, SIGNATURE_GAP_POINTS).forEach((members, index) => {
    const id = `${page}.S${index}`;
    const box = {
      x: Math.min(...members.map((mark) => mark.x)),
      y: Math.min(...members.map((mark) => mark.y)),
      right: Math.max(...members.map((mark) => mark.right)),
      top: Math.max(...members.map((mark) => mark.top)),
    };
    blocks.push({ Id: id, BlockType: "SIGNATURE", Page: page, Geometry: geometry(box), Confidence: 90 });
    signatureSources[id] = members.some((mark) => mark.kind === "image") ? "image" : "vector-drawing";
  });
  reported.forEach((signature, index) => {
    const id = `${page}.R${index}`;
    blocks.push({
      Id: id,
      BlockType: "SIGNATURE",
      Page: page,
      Geometry: geometry(signature),
      Confidence: signature.confidence,
    });
    signatureSources[id] = signature.source ?? "textract";
  });
  blocks.unshift({
    Id: `${page}.P`,
    BlockType: "PAGE",
    Page: page,
    Geometry: { BoundingBox: { Left: 0, Top: 0, Width: 1, Height: 1 } },
    Relationships: [{ Type: "CHILD", Ids: lineIds }],
  });
  return { page, width: size.width, height: size.height, blocks, signatureSources, signaturesLooked };
}

/** The WORD blocks whose centre lies inside `span`'s box: the words it is made of. */
function childWords(span: LaidSpan, size: { width: number; height: number }, words: Block[]): string[] {
  const box = boundingBox(span.box, size);
  return words
    .filter((word) => {
      const { Left, Top, Width, Height } = word.Geometry.BoundingBox;
      const x = Left + Width / 2;
      const y = Top + Height / 2;
      return x >= box.Left && x <= box.Left + box.Width && y >= box.Top && y <= box.Top + box.Height;
    })
    .map((word) => word.Id);
}

function spanBlock(
  id: string,
  type: "KEY_VALUE_SET" | "CELL",
  page: number,
  size: { width: number; height: number },
  span: LaidSpan,
  words: Block[],
): Block {
  const children = childWords(span, size, words);
  return {
    Id: id,
    BlockType: type,
    Page: page,
    Text: span.text,
    Geometry: { BoundingBox: boundingBox(span.box, size) },
    ...(span.confidence !== undefined ? { Confidence: span.confidence } : {}),
    ...(children.length ? { Relationships: [{ Type: "CHILD" as const, Ids: children }] } : {}),
  };
}

/** KEY_VALUE_SET blocks as Textract gives them: a KEY naming its VALUE, each with its words. */
function formBlocks(
  page: number,
  size: { width: number; height: number },
  fields: ReadonlyArray<LaidField>,
  words: Block[],
): Block[] {
  return fields.flatMap((field, index) => {
    const keyId = `${page}.K${index}`;
    const valueId = `${page}.V${index}`;
    const key = spanBlock(keyId, "KEY_VALUE_SET", page, size, field.key, words);
    const value = field.value
      ? spanBlock(valueId, "KEY_VALUE_SET", page, size, field.value, words)
      : {
          Id: valueId,
          BlockType: "KEY_VALUE_SET" as const,
          Page: page,
          Text: "",
          Geometry: { BoundingBox: { Left: 0, Top: 0, Width: 0, Height: 0 } },
        };
    return [
      {
        ...key,
        EntityTypes: ["KEY" as const],
        Relationships: [{ Type: "VALUE" as const, Ids: [valueId] }, ...(key.Relationships ?? [])],
      },
      { ...value, EntityTypes: ["VALUE" as const] },
    ];
  });
}

/** TABLE blocks with their CELLs (1-based RowIndex and ColumnIndex). */
function tableBlocks(
  page: number,
  size: { width: number; height: number },
  tables: ReadonlyArray<LaidTable>,
  words: Block[],
): Block[] {
  return tables.flatMap((table, index) => {
    const cells = table.cells.map((cell, cellIndex) => ({
      ...spanBlock(`${page}.T${index}.C${cellIndex}`, "CELL", page, size, cell.span, words),
      RowIndex: cell.row,
      ColumnIndex: cell.column,
    }));
    const boxes = table.cells.map((cell) => cell.span.box);
    const box = {
      x: Math.min(...boxes.map((b) => b.x)),
      y: Math.min(...boxes.map((b) => b.y)),
      right: Math.max(...boxes.map((b) => b.right)),
      top: Math.max(...boxes.map((b) => b.top)),
    };
    return [
      {
        Id: `${page}.T${index}`,
        BlockType: "TABLE" as const,
        Page: page,
        Geometry: { BoundingBox: boundingBox(box, size) },
        Relationships: [{ Type: "CHILD" as const, Ids: cells.map((cell) => cell.Id) }],
      },
      ...cells,
    ];
  });
}

/** A column's words, each given a share of the column's width by its length (the PDF gives no more). */
function wordsOf(
  cell: { text: string; x: number; right: number },
  line: PointBox,
  prefix: string,
): Array<{ id: string; text: string; box: PointBox }> {
  const parts = [...cell.text.matchAll(/\S+/g)];
  const length = Math.max(1, cell.text.length);
  const perChar = (cell.right - cell.x) / length;
  return parts.map((part, index) => ({
    id: `${prefix}.${index}`,
    text: part[0],
    box: {
      x: cell.x + (part.index ?? 0) * perChar,
      right: cell.x + ((part.index ?? 0) + part[0].length) * perChar,
      y: line.y,
      top: line.top,
    },
  }));
}
