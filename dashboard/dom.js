// Tiny DOM helpers. Everything the API returns is rendered through text nodes (never innerHTML),
// so a condition title or a tool error can never inject markup into the page.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Creates an element: h("td", {class: "x", dataset: {testid: "y"}}, "text", child).
 * `on*` function props become listeners; null/undefined/false props and children are skipped.
 */
export function h(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

/** Same as h() for SVG elements (attributes only, no properties). */
export function s(tag, props = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children);
}

function build(el, props, children) {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "dataset") {
      for (const [dk, dv] of Object.entries(value)) if (dv !== undefined && dv !== null) el.dataset[dk] = dv;
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the content of `el` (keeps `el`, so focus and listeners on it survive). */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export function formatDuration(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatNumber(n) {
  return typeof n === "number" ? n.toLocaleString("en-US") : "—";
}

/** "12 s ago", "5 min ago", or the date for anything older than a day. */
export function formatRelative(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const seconds = Math.max(0, Math.round((now - t) / 1000));
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

/** How long until a deadline: "in 23 h 59 min", "in 4 min", "in 30 s", or "passed". */
export function formatTimeLeft(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const seconds = Math.round((t - now) / 1000);
  if (seconds <= 0) return "passed";
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `in ${hours} h ${minutes % 60} min` : `in ${hours} h`;
}

export function formatTime(iso) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const d = new Date(t);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}

export function formatDateTime(iso) {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "" : new Date(t).toLocaleString([], { hour12: false });
}

/** Pretty JSON with a length cap: evidence can be hundreds of KB and would freeze a <pre>. */
export function prettyJson(value, maxChars = 200_000) {
  let text;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > maxChars
    ? `${text.slice(0, maxChars)}\n… (${text.length - maxChars} more characters)`
    : text;
}
