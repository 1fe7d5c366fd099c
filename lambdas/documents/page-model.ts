// One page of the document model built from what the offline reading found: the laid-out lines
// (text layer or OCR) as LINE and WORD blocks, and signatures as SIGNATURE blocks — pen-like
// drawings and images of the PDF clustered into marks, or the signatures an OCR engine reported.
// The LINE blocks keep the order of the page's text lines, so line `i` of the text is LINE `i`.
import {
  type Block,
  boundingBox,
  clusterBoxes,
  type DocumentModel,
  type PageModel,
  type PointBox,
  type SignatureSource,
} from "./blocks.ts";
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
