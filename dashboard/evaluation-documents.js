// The New evaluation page's documents: one list item per dropped PDF, its upload's progress and
// failure (with Retry), uploaded at once through uploads.js.
import { ApiError } from "./api.js";
import { h, replace } from "./dom.js";
import { formatBytes, uploadDocument } from "./uploads.js";

/** The list item of a document: name, size, progress, error, Retry and Remove. */
export function documentItem(doc, { onRetry, onRemove }) {
  const progressId = `ne-doc-${doc.id}-progress`;
  doc.el = {};
  doc.el.progress = h("progress", { id: progressId, max: "100", value: "0" });
  doc.el.status = h("span", { class: "ne-doc-status", "data-testid": "ne-doc-status" });
  doc.el.error = h("div", { class: "field-error", id: `ne-doc-${doc.id}-error`, hidden: true });
  doc.el.retry = h(
    "button",
    { type: "button", class: "btn", hidden: true, onClick: onRetry },
    "Retry",
    h("span", { class: "visually-hidden" }, ` ${doc.file.name}`),
  );
  doc.el.remove = h(
    "button",
    { type: "button", class: "btn", onClick: onRemove },
    "Remove",
    h("span", { class: "visually-hidden" }, ` ${doc.file.name}`),
  );
  doc.el.item = h(
    "li",
    {
      class: "ne-document",
      tabindex: "-1",
      "data-testid": "ne-document",
      "aria-describedby": doc.el.error.id,
    },
    h(
      "div",
      { class: "ne-doc-head" },
      h("span", { class: "ne-doc-name" }, doc.file.name),
      h("span", { class: "hint" }, formatBytes(doc.file.size)),
    ),
    h(
      "div",
      { class: "ne-doc-progress" },
      h("label", { for: progressId, class: "visually-hidden" }, `Upload of ${doc.file.name}`),
      doc.el.progress,
      doc.el.status,
    ),
    doc.el.error,
    h("div", { class: "ne-doc-actions" }, doc.el.retry, doc.el.remove),
  );
  renderDocument(doc);
  return doc.el.item;
}

export function renderDocument(doc) {
  const { el } = doc;
  const percent = Math.round(doc.progress * 100);
  el.progress.value = percent;
  el.progress.setAttribute("aria-valuetext", `${percent}%`);
  el.item.dataset.status = doc.status;
  const phases = { hashing: "Preparing", signing: "Preparing", uploading: "Uploading" };
  el.status.textContent =
    doc.status === "uploaded"
      ? `✓ Uploaded ${doc.file.name}`
      : doc.status === "failed"
        ? "⚠ Upload failed"
        : `${phases[doc.phase] ?? "Preparing"} ${percent}%`;
  el.retry.hidden = doc.status !== "failed";
  if (doc.status === "failed") setDocumentError(doc, doc.error);
  else if (doc.status === "uploading") setDocumentError(doc, "");
}

/** Shows (or clears, with "") the document's error beside it. */
export function setDocumentError(doc, message) {
  doc.el.error.hidden = !message;
  replace(doc.el.error, message ? h("p", {}, message) : null);
  if (message) doc.el.item.setAttribute("aria-invalid", "true");
  else doc.el.item.removeAttribute("aria-invalid");
}

/** Uploads the document (again, after a failure), showing its progress; announce(text) tells the page. */
export async function uploadInto(doc, api, announce) {
  doc.controller?.abort();
  const controller = new AbortController();
  Object.assign(doc, { controller, status: "uploading", progress: 0, phase: "hashing", error: "" });
  renderDocument(doc);
  try {
    const upload = await uploadDocument(api, doc.file, {
      signal: controller.signal,
      onPhase: (phase) => {
        doc.phase = phase;
        renderDocument(doc);
      },
      onProgress: (fraction) => {
        doc.progress = fraction;
        renderDocument(doc);
      },
    });
    if (controller.signal.aborted) return;
    Object.assign(doc, { status: "uploaded", progress: 1, s3_pdf_path: upload.s3_pdf_path });
    announce(`Uploaded ${doc.file.name}.`);
  } catch (error) {
    if (controller.signal.aborted || error?.name === "AbortError") return;
    Object.assign(doc, { status: "failed", error: uploadFailure(error) });
    announce(`Upload of ${doc.file.name} failed: ${doc.error}`);
  }
  renderDocument(doc);
}

/** Why an upload failed, in words: the API's 400 names fields of the upload request. */
function uploadFailure(error) {
  if (error instanceof ApiError) {
    if (error.status === 501) return "uploads are not available on this API yet (501)";
    const fields = error.fields.map((field) => `${field.field} ${field.message}`);
    return fields.length ? fields.join("; ") : error.message;
  }
  return error?.message ?? String(error);
}
