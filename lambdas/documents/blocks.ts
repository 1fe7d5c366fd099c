// The document model: what was read on each page and where, in the shape of Amazon Textract's
// Block model (PAGE, LINE, WORD, KEY_VALUE_SET, TABLE, CELL, SIGNATURE, QUERY_RESULT), so Textract's
// AnalyzeDocument answer fills it as it is, and the offline reading (a PDF's text layer and its
// drawings, or OCR) fills the same blocks. Engines ask the model where things are ("is there a
// signature in this box?") instead of guessing from the order of words in the text.
//
// Geometry is Textract's: a bounding box's Left/Top/Width/Height are ratios of the page's width and
// height, measured from the page's top left corner.

export type BlockType =
  | "PAGE"
  | "LINE"
  | "WORD"
  | "KEY_VALUE_SET"
  | "TABLE"
  | "CELL"
  | "SIGNATURE"
  | "QUERY"
  | "QUERY_RESULT";

export interface BoundingBox {
  Left: number;
  Top: number;
  Width: number;
  Height: number;
}

export interface Relationship {
  Type: "CHILD" | "VALUE" | "ANSWER";
  Ids: string[];
}

export interface Block {
  Id: string;
  BlockType: BlockType;
  /** 1-based. */
  Page: number;
  Geometry: { BoundingBox: BoundingBox };
  Text?: string;
  /** 0–100. */
  Confidence?: number;
  Relationships?: Relationship[];
  /** KEY_VALUE_SET: KEY or VALUE. */
  EntityTypes?: Array<"KEY" | "VALUE">;
  /** CELL: 1-based row and column. */
  RowIndex?: number;
  ColumnIndex?: number;
}

/** How a SIGNATURE block was seen, beyond Textract's own answer. */
export type SignatureSource = "textract" | "vector-drawing" | "image" | "ink";

/** One page of the model: its size in PDF points and its blocks. */
export interface PageModel {
  page: number;
  width: number;
  height: number;
  blocks: Block[];
  /** For each SIGNATURE block's Id: what it was seen as (a drawing, an image, Textract, ink on a scan). */
  signatureSources?: Record<string, SignatureSource>;
  /**
   * Whether signatures were looked for on this page (its drawings analysed, or an OCR engine that
   * sees handwriting read it). Without it, no SIGNATURE block does not mean no signature.
   */
  signaturesLooked: boolean;
}

export interface DocumentModel {
  pages: PageModel[];
}

/** A box in PDF points from the page's bottom left (how PDF text and drawings are placed). */
export interface PointBox {
  x: number;
  y: number;
  right: number;
  top: number;
}

/** A box in PDF points as Textract's geometry on a page of this size. */
export function boundingBox(box: PointBox, size: { width: number; height: number }): BoundingBox {
  const clamp = (value: number) => Math.min(1, Math.max(0, value));
  const left = clamp(box.x / size.width);
  const right = clamp(box.right / size.width);
  const top = clamp(1 - box.top / size.height);
  const bottom = clamp(1 - box.y / size.height);
  return { Left: left, Top: top, Width: Math.max(0, right - left), Height: Math.max(0, bottom - top) };
}

/** Textract's geometry back in PDF points on a page of this size. */
export function pointBox(box: BoundingBox, size: { width: number; height: number }): PointBox {
  return {
    x: box.Left * size.width,
    right: (box.Left + box.Width) * size.width,
    top: (1 - box.Top) * size.height,
    y: (1 - box.Top - box.Height) * size.height,
  };
}

/** The share of `inner`'s area that lies inside `outer` (0–1). */
export function overlapShare(inner: PointBox, outer: PointBox): number {
  const width = Math.min(inner.right, outer.right) - Math.max(inner.x, outer.x);
  const height = Math.min(inner.top, outer.top) - Math.max(inner.y, outer.y);
  if (width <= 0 || height <= 0) return 0;
  const area = Math.max(1e-9, (inner.right - inner.x) * (inner.top - inner.y));
  return (width * height) / area;
}

/** The blocks of one type on a page, in reading order as stored. */
export function blocksOfType(page: PageModel, type: BlockType): Block[] {
  return page.blocks.filter((block) => block.BlockType === type);
}

/** SIGNATURE blocks whose box lies mostly (half or more) inside `region` (points). */
export function signaturesIn(
  page: PageModel,
  region: PointBox,
): Array<{ block: Block; source: SignatureSource }> {
  return blocksOfType(page, "SIGNATURE").flatMap((block) => {
    const box = pointBox(block.Geometry.BoundingBox, page);
    return overlapShare(box, region) >= 0.5
      ? [{ block, source: page.signatureSources?.[block.Id] ?? "textract" }]
      : [];
  });
}

/** Group boxes that touch or lie within `gap` points of each other (a signature's strokes, one mark). */
export function clusterBoxes<T extends PointBox>(boxes: T[], gap: number): T[][] {
  const groups: Array<{ box: PointBox; members: T[] }> = [];
  for (const box of [...boxes].sort((a, b) => a.x - b.x)) {
    const near = groups.filter(
      (group) =>
        box.x <= group.box.right + gap &&
        group.box.x <= box.right + gap &&
        box.y <= group.box.top + gap &&
        group.box.y <= box.top + gap,
    );
    const merged = { box: { ...box } as PointBox, members: [box] };
    for (const group of near) {
      merged.box = {
        x: Math.min(merged.box.x, group.box.x),
        y: Math.min(merged.box.y, group.box.y),
        right: Math.max(merged.box.right, group.box.right),
        top: Math.max(merged.box.top, group.box.top),
      };
      merged.members.push(...group.members);
      groups.splice(groups.indexOf(group), 1);
    }
    groups.push(merged);
  }
  return groups.map((group) => group.members);
}

/** A key–value pair of the page (KEY_VALUE_SET blocks): the key's and the value's text and boxes. */
export interface KeyValue {
  key: string;
  value: string;
  keyBox: PointBox;
  /** Null when nothing is printed for the key. */
  valueBox: PointBox | null;
  /** 0–100, the lower of key and value, when known. */
  confidence?: number;
}

/** A block's text: its own, or its CHILD words' joined (Textract leaves KEY_VALUE_SET and CELL text to the words). */
export function blockText(page: PageModel, block: Block): string {
  if (block.Text !== undefined) return block.Text;
  const byId = new Map(page.blocks.map((candidate) => [candidate.Id, candidate]));
  return (block.Relationships ?? [])
    .filter((relation) => relation.Type === "CHILD")
    .flatMap((relation) => relation.Ids)
    .map((id) => byId.get(id))
    .filter((child): child is Block => child?.BlockType === "WORD")
    .map((word) => word.Text ?? "")
    .join(" ");
}

export function keyValues(page: PageModel): KeyValue[] {
  const byId = new Map(page.blocks.map((block) => [block.Id, block]));
  return blocksOfType(page, "KEY_VALUE_SET").flatMap((block) => {
    if (!block.EntityTypes?.includes("KEY")) return [];
    const valueId = block.Relationships?.find((relation) => relation.Type === "VALUE")?.Ids[0];
    const value = valueId ? byId.get(valueId) : undefined;
    const valueText = value ? blockText(page, value).trim() : "";
    const confidences = [block.Confidence, value?.Confidence].filter(
      (confidence): confidence is number => confidence !== undefined,
    );
    return [
      {
        key: blockText(page, block).trim().replace(/:$/, ""),
        value: valueText,
        keyBox: pointBox(block.Geometry.BoundingBox, page),
        valueBox: value && valueText ? pointBox(value.Geometry.BoundingBox, page) : null,
        ...(confidences.length ? { confidence: Math.min(...confidences) } : {}),
      },
    ];
  });
}

/** Each TABLE of the page as rows of cell texts (row 1 first; a cell nothing fills is ""). */
export function tableRows(page: PageModel): string[][][] {
  const byId = new Map(page.blocks.map((block) => [block.Id, block]));
  return blocksOfType(page, "TABLE").map((table) => {
    const cells = (table.Relationships ?? [])
      .filter((relation) => relation.Type === "CHILD")
      .flatMap((relation) => relation.Ids)
      .map((id) => byId.get(id))
      .filter((cell): cell is Block => cell?.BlockType === "CELL");
    const rows: string[][] = [];
    const width = Math.max(0, ...cells.map((cell) => cell.ColumnIndex ?? 0));
    for (const cell of cells) {
      const row = (cell.RowIndex ?? 1) - 1;
      const column = (cell.ColumnIndex ?? 1) - 1;
      for (let index = rows.length; index <= row; index++) rows.push(Array(width).fill(""));
      const current = rows[row] as string[];
      const text = blockText(page, cell).trim();
      current[column] = current[column] ? `${current[column]} ${text}` : text;
    }
    return rows;
  });
}
