// The cited page of a document, shown in a modal dialog: the run's documents come from
// GET /v1/runs/{run_id}/documents (a presigned GET URL each), pdf.js (served next to the page from
// vendor/, see vendor.json) draws the page on a canvas with its text layer above it, and the spans
// holding the citation's excerpt are marked. Without pdf.js the page shows citations as plain text
// (app.js asks `loadPdfjs()` first and only then offers the buttons).
import { ApiError } from "./api.js";
import { citationOcr } from "./documents.js";
import { h, replace } from "./dom.js";

const PDFJS_MODULE = "./vendor/pdf.min.mjs";
const PDFJS_WORKER = "vendor/pdf.worker.min.mjs";
/** A presigned URL this close to its expiry is fetched again rather than used. */
const URL_MARGIN_MS = 30_000;
const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

let pdfjsPromise = null;

/** pdf.js, or null when the site does not serve it (the page then shows citations as text). */
export function loadPdfjs() {
  pdfjsPromise ??= import(PDFJS_MODULE)
    .then((pdfjs) => {
      pdfjs.GlobalWorkerOptions.workerSrc = new URL(PDFJS_WORKER, document.baseURI).href;
      return pdfjs;
    })
    .catch(() => null);
  return pdfjsPromise;
}

/**
 * Folds text the way the excerpt match ignores differences: case, every kind of white space, and
 * hyphens (a word broken over two lines, "12-3456789" typed without its dash), so an excerpt taken
 * from the extracted text lines still finds the text layer's spans, which split lines differently.
 */
function foldChar(ch) {
  if (/\s/u.test(ch) || /[-\u00ad\u2010\u2011\u2012\u2013\u2014]/u.test(ch)) return "";
  return ch.toLowerCase();
}

/**
 * Where the excerpt lies among the text layer's spans: the indexes of the spans that hold part of
 * it, or null when the page does not contain it. Pure (strings in, indexes out) so it is testable.
 */
export function findExcerptSpans(spanTexts, excerpt) {
  const needle = [...String(excerpt ?? "")].map(foldChar).join("");
  if (!needle) return null;
  let haystack = "";
  const owner = [];
  spanTexts.forEach((text, index) => {
    for (const ch of String(text ?? "")) {
      const folded = foldChar(ch);
      haystack += folded;
      for (let i = 0; i < folded.length; i++) owner.push(index);
    }
  });
  const at = haystack.indexOf(needle);
  if (at < 0) return null;
  return [...new Set(owner.slice(at, at + needle.length))];
}

/** The document of `documents` a citation names: by path, then by key, then by file name. */
export function pickDocument(documents, cited) {
  const name = String(cited ?? "");
  const base = (path) =>
    String(path ?? "")
      .split("/")
      .pop();
  const strip = (path) => String(path ?? "").replace(/^s3:\/\/[^/]+\//, "");
  return (
    documents.find((d) => d.path === name) ??
    documents.find((d) => d.key === strip(name) || strip(d.path) === strip(name)) ??
    documents.find((d) => base(d.path) === base(name)) ??
    null
  );
}

export class PdfViewer {
  /**
   * @param {{api: import("./api.js").ApiClient, announce?: (text: string) => void}} options
   */
  constructor({ api, announce = () => {} }) {
    this.api = api;
    this.announce = announce;
    /** runId → {documents, fetchedAt}: one GET per run while its URLs are valid. */
    this.documentsByRun = new Map();
    this.session = 0;
    this.build();
  }

  build() {
    this.title = h("h2", { id: "pdf-viewer-title", class: "pdf-title" }, "Document");
    this.status = h("p", { class: "pdf-status", role: "status", dataset: { testid: "pdf-status" } });
    this.note = h("p", { class: "pdf-note", dataset: { testid: "pdf-highlight-note" } });
    this.excerpt = h("p", { class: "pdf-excerpt", dataset: { testid: "pdf-excerpt" } });
    this.pageLabel = h("span", { class: "pdf-page-label", dataset: { testid: "pdf-page-label" } });
    this.prev = h(
      "button",
      { type: "button", class: "btn", onClick: () => this.turn(-1), dataset: { testid: "pdf-prev" } },
      h("span", { "aria-hidden": "true" }, "‹ "),
      "Previous page",
    );
    this.next = h(
      "button",
      { type: "button", class: "btn", onClick: () => this.turn(1), dataset: { testid: "pdf-next" } },
      "Next page",
      h("span", { "aria-hidden": "true" }, " ›"),
    );
    this.zoomOut = h(
      "button",
      { type: "button", class: "btn", "aria-label": "Zoom out", onClick: () => this.zoom(-1) },
      "−",
    );
    this.fit = h(
      "button",
      { type: "button", class: "btn", onClick: () => this.zoom(0), dataset: { testid: "pdf-fit" } },
      "Fit width",
    );
    this.zoomIn = h(
      "button",
      { type: "button", class: "btn", "aria-label": "Zoom in", onClick: () => this.zoom(1) },
      "+",
    );
    this.zoomLabel = h("span", { class: "small muted pdf-zoom-label" });
    this.canvas = h("canvas", { class: "pdf-canvas", dataset: { testid: "pdf-canvas" } });
    this.textLayer = h("div", { class: "textLayer", dataset: { testid: "pdf-text-layer" } });
    this.pageBox = h(
      "div",
      { class: "pdf-page", role: "img", "aria-labelledby": "pdf-viewer-title" },
      this.canvas,
      this.textLayer,
    );
    this.scroller = h("div", { class: "pdf-scroll", tabindex: "0", "aria-label": "Page" }, this.pageBox);
    this.dialog = h(
      "dialog",
      { class: "pdf-viewer", "aria-labelledby": "pdf-viewer-title", dataset: { testid: "pdf-viewer" } },
      h(
        "div",
        { class: "pdf-head" },
        this.title,
        h(
          "button",
          {
            type: "button",
            class: "btn",
            onClick: () => this.dialog.close(),
            dataset: { testid: "pdf-close" },
          },
          "Close",
          h("span", { class: "visually-hidden" }, " (Esc)"),
        ),
      ),
      this.excerpt,
      this.note,
      h(
        "div",
        { class: "pdf-toolbar", role: "toolbar", "aria-label": "Page and zoom" },
        this.prev,
        this.pageLabel,
        this.next,
        h("span", { class: "pdf-toolbar-gap" }),
        this.zoomOut,
        this.fit,
        this.zoomIn,
        this.zoomLabel,
      ),
      this.status,
      this.scroller,
    );
    this.dialog.addEventListener("close", () => this.closed());
    document.body.append(this.dialog);
  }

  /**
   * Opens the dialog on `citation` of run `runId`. `trigger`: the button that opened it; focus goes
   * back to it on close (or to the button with the same `data-citation-key` when the view re-drew it).
   */
  async open({ runId, citation, trigger }) {
    const session = ++this.session;
    this.trigger = trigger ?? null;
    this.triggerKey = trigger?.dataset?.citationKey ?? null;
    this.citation = citation;
    this.ocr = citationOcr(citation);
    this.pdf?.destroy?.();
    this.pdf = null;
    this.pageNumber = Number.isInteger(citation.page) && citation.page > 0 ? citation.page : 1;
    this.scale = null; // fit width
    this.title.textContent = `${citation.document}`;
    this.excerpt.textContent = citation.excerpt
      ? `Cited: “${citation.excerpt}”`
      : "The citation has no excerpt.";
    this.note.textContent = "";
    this.pageLabel.textContent = "";
    this.zoomLabel.textContent = "";
    this.clearPage();
    this.pageBox.hidden = false;
    this.setControls(false);
    this.say("Loading the document…");
    if (!this.dialog.open) this.dialog.showModal();
    // The scroller is the first thing worth focusing: arrow keys then scroll the page.
    this.scroller.focus();

    const pdfjs = await loadPdfjs();
    if (session !== this.session) return;
    if (!pdfjs) return this.fail("The PDF viewer (pdf.js) is not available on this site.");

    let documents;
    try {
      documents = await this.documentsOf(runId);
    } catch (error) {
      if (session !== this.session) return;
      return this.fail(documentsError(error));
    }
    if (session !== this.session) return;
    const document = pickDocument(documents, citation.document);
    if (!document?.url) {
      return this.fail(`No link to ${citation.document}: the run's documents do not include it.`);
    }
    if (Date.parse(document.expires_at) < Date.now()) {
      return this.fail("The link to this document has expired. Close and open the citation again.");
    }
    try {
      const task = pdfjs.getDocument({ url: document.url, withCredentials: false });
      this.task = task;
      const pdf = await task.promise;
      if (session !== this.session) return pdf.destroy();
      this.pdf = pdf;
      this.pdfjs = pdfjs;
    } catch (error) {
      if (session !== this.session) return;
      // A cached link that the bucket refuses is likely stale: forget it so the next open asks again.
      this.documentsByRun.delete(runId);
      return this.fail(loadError(error));
    }
    if (this.pageNumber > this.pdf.numPages) {
      this.note.textContent = `The citation names page ${this.pageNumber}, but the document has ${this.pdf.numPages}: showing page 1.`;
      this.pageNumber = 1;
    }
    await this.renderPage(session);
  }

  async documentsOf(runId) {
    const cached = this.documentsByRun.get(runId);
    const valid = (docs) => docs.every((d) => !(Date.parse(d.expires_at) - URL_MARGIN_MS < Date.now()));
    if (cached && valid(cached)) return cached;
    const answer = await this.api.getRunDocuments(runId);
    const documents = Array.isArray(answer?.documents) ? answer.documents : [];
    this.documentsByRun.set(runId, documents);
    return documents;
  }

  async renderPage(session) {
    const { pdf, pdfjs } = this;
    this.setControls(false);
    this.say(`Rendering page ${this.pageNumber}…`);
    let page;
    try {
      page = await pdf.getPage(this.pageNumber);
    } catch (error) {
      if (session === this.session) this.fail(`Page ${this.pageNumber} cannot be read: ${error.message}`);
      return;
    }
    if (session !== this.session) return;
    const natural = page.getViewport({ scale: 1 });
    // Fit width: the scroller's width less its padding; a closed dialog has none yet, so a sane default.
    const available = Math.max(200, (this.scroller.clientWidth || 800) - 32);
    const scale = this.scale ?? available / natural.width;
    const viewport = page.getViewport({ scale });
    const ratio = window.devicePixelRatio || 1;

    this.clearPage();
    this.pageBox.style.width = `${Math.floor(viewport.width)}px`;
    this.pageBox.style.height = `${Math.floor(viewport.height)}px`;
    // pdf.js sizes the text layer and its fonts from this variable (as its own viewer does).
    this.pageBox.style.setProperty("--total-scale-factor", String(scale));
    this.pageBox.style.setProperty("--scale-factor", String(scale));
    this.canvas.width = Math.floor(viewport.width * ratio);
    this.canvas.height = Math.floor(viewport.height * ratio);
    this.canvas.style.width = `${Math.floor(viewport.width)}px`;
    this.canvas.style.height = `${Math.floor(viewport.height)}px`;
    try {
      await page.render({
        canvas: this.canvas,
        canvasContext: this.canvas.getContext("2d"),
        viewport,
        transform: ratio === 1 ? null : [ratio, 0, 0, ratio, 0, 0],
      }).promise;
      if (session !== this.session) return;
      const textContent = await page.getTextContent();
      if (session !== this.session) return;
      const layer = new pdfjs.TextLayer({
        textContentSource: textContent,
        container: this.textLayer,
        viewport,
      });
      await layer.render();
      if (session !== this.session) return;
      this.highlight(layer.textDivs, textContent.items.length > 0);
    } catch (error) {
      if (session === this.session) this.fail(`Page ${this.pageNumber} cannot be drawn: ${error.message}`);
      return;
    }
    this.pageBox.dataset.page = String(this.pageNumber);
    this.pageBox.dataset.rendered = "true";
    this.pageLabel.textContent = `Page ${this.pageNumber} of ${pdf.numPages}`;
    this.zoomLabel.textContent = `${Math.round(scale * 100)}%${this.scale === null ? " (fit width)" : ""}`;
    this.say(`Page ${this.pageNumber} of ${pdf.numPages} shown.`);
    this.announce(`Page ${this.pageNumber} of ${this.citation.document} shown. ${this.note.textContent}`);
    this.setControls(true);
  }

  /** Marks the spans holding the excerpt, on the cited page only, and says what happened in words. */
  highlight(spans, hasText) {
    const cited = this.citation;
    // A citation without a page: look for its excerpt on whichever page is shown.
    const citedPage = Number.isInteger(cited.page) ? cited.page : this.pageNumber;
    if (!cited.excerpt || this.pageNumber !== citedPage) {
      this.note.textContent =
        this.pageNumber === citedPage || !cited.excerpt ? "" : `The excerpt is on page ${citedPage}.`;
      return;
    }
    if (this.ocr) {
      this.note.textContent =
        "This page was read by OCR: it has no text layer, so the excerpt cannot be highlighted.";
      this.note.dataset.outcome = "ocr";
      return;
    }
    if (!hasText) {
      this.note.textContent = "This page has no text layer: the excerpt cannot be highlighted.";
      this.note.dataset.outcome = "no-text";
      return;
    }
    const hits = findExcerptSpans(
      spans.map((span) => span.textContent),
      cited.excerpt,
    );
    if (!hits) {
      this.note.textContent = "Excerpt not found on this page: the page is shown without a mark.";
      this.note.dataset.outcome = "not-found";
      return;
    }
    for (const index of hits) {
      spans[index].classList.add("excerpt-hit");
      spans[index].dataset.testid = "pdf-highlight";
    }
    this.note.textContent = "The cited excerpt is highlighted on the page.";
    this.note.dataset.outcome = "highlighted";
    spans[hits[0]].scrollIntoView?.({ block: "center", inline: "nearest" });
  }

  turn(delta) {
    if (!this.pdf) return;
    const target = this.pageNumber + delta;
    if (target < 1 || target > this.pdf.numPages) return;
    this.pageNumber = target;
    this.renderPage(this.session);
  }

  zoom(direction) {
    if (!this.pdf) return;
    if (direction === 0) this.scale = null;
    else {
      const current =
        this.scale ?? (Number.parseFloat(this.pageBox.style.getPropertyValue("--total-scale-factor")) || 1);
      const steps =
        direction > 0
          ? ZOOM_STEPS.filter((s) => s > current + 0.01)
          : ZOOM_STEPS.filter((s) => s < current - 0.01);
      const nextScale = direction > 0 ? steps[0] : steps.at(-1);
      if (nextScale === undefined) return;
      this.scale = nextScale;
    }
    this.renderPage(this.session);
  }

  setControls(enabled) {
    const pages = this.pdf?.numPages ?? 0;
    this.prev.disabled = !enabled || this.pageNumber <= 1;
    this.next.disabled = !enabled || this.pageNumber >= pages;
    for (const button of [this.zoomOut, this.fit, this.zoomIn]) button.disabled = !enabled;
  }

  clearPage() {
    const context = this.canvas.getContext("2d");
    context?.clearRect(0, 0, this.canvas.width, this.canvas.height);
    replace(this.textLayer);
    delete this.pageBox.dataset.rendered;
    delete this.note.dataset.outcome;
  }

  say(text, kind = "info") {
    this.status.textContent = text;
    this.status.dataset.kind = kind;
  }

  fail(text) {
    this.say(text, "error");
    this.pageBox.hidden = true;
    this.announce(text);
  }

  closed() {
    this.session++;
    this.task?.destroy?.();
    this.pdf?.destroy?.();
    this.pdf = null;
    this.pageBox.hidden = false;
    // The run view may have been drawn again while the dialog was open: find the same citation's button.
    let target = this.trigger;
    if (!target?.isConnected && this.triggerKey) {
      target = document.querySelector(`[data-citation-key="${CSS.escape(this.triggerKey)}"]`);
    }
    target?.focus();
  }
}

function documentsError(error) {
  if (error instanceof ApiError) {
    if (error.status === 501)
      return "This API cannot hand out document links yet (GET /v1/runs/{run_id}/documents is not built).";
    if (error.status === 404) return "The run or its documents were not found.";
    if (error.status === 401 || error.status === 403)
      return "This page is not allowed to fetch the run's documents (sign in with a token that may).";
    if (error.status === 0) return "The API is not reachable; try again in a moment.";
  }
  return `The run's documents could not be listed: ${error.message}`;
}

function loadError(error) {
  const status = error?.status;
  if (error?.name === "InvalidPDFException") return "The file is not a PDF (or it is damaged).";
  if (status === 403 || status === 400)
    return "The storage refused the link (it may have expired). Close and open the citation again.";
  if (status === 404 || error?.name === "MissingPDFException") return "The document is no longer in storage.";
  if (error?.name === "PasswordException") return "The PDF is password-protected.";
  return `The document could not be loaded: ${error?.message ?? error}`;
}
