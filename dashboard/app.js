// The dashboard: a list of recent runs and a live view of one run. The run record (REST) is the
// truth; progress events (WebSocket, or REST polling without a token) make the view live between
// fetches and tell when to fetch again.
import { ApiClient, ApiError } from "./api.js";
import { OfficerSession, useOfficerSession } from "./auth.js";
import { BatchesView } from "./batches.js";
import { ChatPage, ConversationPanel, customerTokenFrom } from "./chat.js";
import { loadConfig } from "./config.js";
import { DagView } from "./dag.js";
import { h } from "./dom.js";
import { EvaluationsView, evaluationRouteFrom } from "./evaluations.js";
import { EventPoller, LiveConnection } from "./live.js";
import { NeedsYou } from "./needs-you.js";
import { NewEvaluation } from "./new-evaluation.js";
import { loadPdfjs, PdfViewer } from "./pdf-viewer.js";
import { finderFiltersFrom, RunFinder } from "./run-finder.js";
import { RunState } from "./run-state.js";
import { renderSummary, summaryRunIdFromHash } from "./verdict-export.js";
import {
  renderDetails,
  renderEventLog,
  renderResult,
  renderRunHeader,
  renderRunList,
  runStatusLabel,
} from "./views.js";
import { WaitingPanel } from "./waiting.js";

const RUN_LIST_REFRESH_MS = 5000;
const ACTIVE_RECORD_REFRESH_MS = 5000;
const $ = (id) => document.getElementById(id);

const config = await loadConfig();
// Officer sign-in on the deployed site (config.json's auth block; never in the twin): nothing below
// may call the API before it.
if (config.auth) await officerSignIn(config.auth);
const api = new ApiClient(config.api);
// dagre is served next to the page (vendor/); without it the DAG falls back to a column layout.
const dagre = await import("./vendor/dagre.esm.js").then((m) => m.default ?? m).catch(() => null);

const app = {
  runs: [],
  listAvailable: true,
  listError: "",
  /** Subscribe tokens returned by POST /v1/evaluate-conditions, for pages without an operator token. */
  runTokens: new Map(),
  current: null,
  selected: null,
  cancelling: false,
  renderQueued: false,
  recordFetch: { inFlight: false, again: false, timer: null },
  lastAnnounced: "",
};

const live = new LiveConnection({
  url: config.ws,
  onEvent: handleEvent,
  onStatus: showConnection,
  onServerError: (message) => notify(`Live updates: ${message}`, "error"),
});
const poller = new EventPoller({ api, onEvent: handleEvent, onError: () => {} });
const dagView = new DagView($("dag"), { dagre, onSelect: selectStep });
const waitingPanel = new WaitingPanel($("waiting"), { onAnswer: answerRun, onDecide: decidePlan });
const batchesView = new BatchesView(
  {
    root: $("batch-view"),
    openForm: $("open-batch"),
    openInput: $("open-batch-id"),
    openError: $("open-batch-error"),
    list: $("batch-list"),
    detail: $("batch-detail"),
  },
  { api, storage: browserStorage(), onNotify: notify },
);

// Evaluations (#/evaluations): `rewoo eval --json` summaries the user opens, kept in this browser.
const evaluationsView = new EvaluationsView($("evaluations-view"), {
  storage: browserStorage(),
  announce: (text) => {
    $("announcer").textContent = text;
  },
});

// The Chat page acts for the customer of ?customer_token= only (see config.js on tokens in files).
const chatPage = new ChatPage($("chat-view"), {
  apiBase: config.api,
  customerToken: customerTokenFrom(window.location.search),
});
const conversationPanel = new ConversationPanel($("conversation"), { apiBase: config.api });
// New evaluation (#/new): a run it starts is shown like one Run sample started.
const newEvaluation = new NewEvaluation($("new-evaluation-view"), {
  api,
  onStarted: (started, request) => showStartedRun(started, request),
  announce: (text) => {
    $("announcer").textContent = text;
  },
});
// Find runs and Needs you: both say what they found through the page's announcer.
const sayPolitely = (text) => {
  $("announcer").textContent = text;
};
const runFinder = new RunFinder($("finder-view"), { api, announce: sayPolitely });
const needsYou = new NeedsYou(
  { link: $("needs-you-link"), summary: $("needs-you-summary"), root: $("needs-you-view") },
  { api, announce: sayPolitely, openRun: navigateTo },
);

// The cited page of a document (pdf.js from vendor/, loaded in the background): until it is there,
// or when the site does not serve it, citations are plain text.
const pdfViewer = new PdfViewer({
  api,
  announce: (text) => {
    $("announcer").textContent = text;
  },
});
let pdfjsReady = false;
loadPdfjs().then((pdfjs) => {
  pdfjsReady = pdfjs !== null;
  if (pdfjsReady) render();
});

// For debugging in the browser console and for the end-to-end test.
window.rewooDashboard = {
  config,
  live,
  layoutEngine: dagre ? "dagre" : "columns",
  get state() {
    return app.current;
  },
};

// ---------------------------------------------------------------------------------------------
// Run list

async function refreshRuns() {
  try {
    const answer = await api.listRuns(20);
    if (answer === null) {
      app.listAvailable = false;
    } else {
      app.listAvailable = true;
      app.listError = "";
      // Keep runs started from this page that the list does not show yet (eventual consistency).
      const listed = new Set(answer.runs.map((r) => r.run_id));
      const pending = app.runs.filter((r) => r.local && !listed.has(r.run_id));
      app.runs = [...pending, ...answer.runs];
    }
  } catch (error) {
    app.listError =
      error instanceof ApiError && error.status === 0 ? "The API is not reachable; retrying…" : error.message;
  }
  renderList();
}

function renderList() {
  const current = app.current;
  const runs = app.runs.map((run) =>
    current && run.run_id === current.runId ? { ...run, status: current.status } : run,
  );
  renderRunList($("run-list"), {
    runs,
    selectedId: current?.runId,
    listAvailable: app.listAvailable,
    error: app.listError,
  });
}

async function runSample() {
  const button = $("run-sample");
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    const request = await (
      await fetch(new URL("sample-request.json", window.location.href), { cache: "no-store" })
    ).json();
    showStartedRun(await api.evaluate(request), request);
  } catch (error) {
    notify(`Could not start the sample: ${error.message}`, "error");
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

/** A run this page started: keep its subscribe token (live without an operator token), list it, open it. */
function showStartedRun(started, request) {
  if (started.subscribe_token) app.runTokens.set(started.run_id, started.subscribe_token);
  app.runs = [
    {
      run_id: started.run_id,
      status: started.status ?? "PLANNING",
      created_at: new Date().toISOString(),
      request: { metadata: request.metadata },
      local: true,
    },
    ...app.runs.filter((r) => r.run_id !== started.run_id),
  ];
  navigateTo(started.run_id);
}

// ---------------------------------------------------------------------------------------------
// Run view

function navigateTo(runId) {
  const hash = `#/runs/${encodeURIComponent(runId)}`;
  if (window.location.hash === hash) openRun(runId);
  else window.location.hash = hash; // → hashchange → openRun
}

function runIdFromHash() {
  const match = /^#\/runs\/(.+)$/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

/** `#/batches` (the list) → null, `#/batches/<id>` → the id; undefined when the page is not on batches. */
function batchRouteFromHash() {
  const match = /^#\/batches(?:\/(.+))?$/.exec(window.location.hash);
  if (!match) return undefined;
  return match[1] ? decodeURIComponent(match[1]) : null;
}

/** The view the address asks for: a batch (or the batches), else a run (or none). */
function route() {
  const summaryRunId = summaryRunIdFromHash(window.location.hash);
  $("summary-view").hidden = summaryRunId === null;
  const batchId = batchRouteFromHash();
  const onBatches = batchId !== undefined;
  const onChat = window.location.hash === "#/chat";
  const onNew = window.location.hash === "#/new";
  if (!onNew) newEvaluation.hide();
  const finderFilters = finderFiltersFrom(window.location.hash);
  const onNeedsYou = window.location.hash === "#/needs-you";
  const evaluation = evaluationRouteFrom(window.location.hash);
  for (const [link, selected] of [
    [$("batches-link"), onBatches],
    [$("evaluations-link"), evaluation !== undefined],
    [$("chat-link"), onChat],
    [$("new-evaluation-link"), onNew],
    [$("find-link"), finderFilters !== undefined],
    [$("needs-you-link"), onNeedsYou],
  ]) {
    link.classList.toggle("selected", selected);
    if (selected) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (evaluation !== undefined) {
    openRun(null);
    batchesView.hide();
    chatPage.hide();
    runFinder.hide();
    needsYou.hidePage();
    $("empty-state").hidden = true;
    evaluationsView.show(evaluation);
    return;
  }
  evaluationsView.hide();
  if (finderFilters || onNeedsYou) {
    openRun(null);
    batchesView.hide();
    chatPage.hide();
    $("empty-state").hidden = true;
    if (finderFilters) runFinder.show(finderFilters);
    else runFinder.hide();
    if (onNeedsYou) needsYou.showPage();
    else needsYou.hidePage();
    return;
  }
  runFinder.hide();
  needsYou.hidePage();
  if (onNew) {
    openRun(null);
    chatPage.hide();
    batchesView.hide();
    $("empty-state").hidden = true;
    newEvaluation.show();
    return;
  }
  if (onChat) {
    openRun(null);
    batchesView.hide();
    $("empty-state").hidden = true;
    chatPage.show();
    return;
  }
  chatPage.hide();
  if (onBatches) {
    openRun(null);
    $("empty-state").hidden = true;
    batchesView.show(batchId);
    return;
  }
  batchesView.hide();
  if (summaryRunId !== null) {
    openRun(null);
    $("empty-state").hidden = true;
    showSummary(summaryRunId);
    return;
  }
  const runId = runIdFromHash();
  // Back from a page that hid it, with no run to show.
  if (!runId) $("empty-state").hidden = false;
  openRun(runId);
}

/** The printable summary of a run (verdict-export.js), from its record. */
async function showSummary(runId) {
  const el = $("summary-view");
  el.replaceChildren(h("p", { class: "muted" }, "Loading the run…"));
  try {
    const record = await api.getRun(runId);
    if (summaryRunIdFromHash(window.location.hash) !== runId) return;
    renderSummary(el, record);
    $("announcer").textContent = `Summary of run ${runId} ready to print.`;
  } catch (error) {
    el.replaceChildren(h("p", { role: "alert" }, `Could not load run ${runId}: ${error.message}`));
  }
}

/** localStorage, or null where the browser refuses it (private modes, sandboxed frames). */
function browserStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function openRun(runId) {
  if (app.current?.runId === runId) return;
  app.current = runId ? new RunState(runId) : null;
  app.selected = null;
  app.cancelling = false;
  $("event-log").replaceChildren();
  poller.stop();
  if (!runId) {
    conversationPanel.hide();
    live.stop();
    $("run-view").hidden = true;
    $("empty-state").hidden = false;
    renderList();
    return;
  }
  $("empty-state").hidden = true;
  $("run-view").hidden = false;
  fetchRecord();
  // Subscribe from seq 0: the replay fills the activity log; later (re)subscriptions continue after
  // the last contiguous seq, so nothing is missed or shown twice.
  const token = config.token || app.runTokens.get(runId);
  const state = app.current;
  if (token) {
    live.watch(runId, token, () => state.lastSeq);
  } else {
    live.stop();
    showConnection({ state: "polling" });
    poller.watch(
      runId,
      () => state.lastSeq,
      () => state.isTerminal,
    );
  }
  render();
}

function handleEvent(event) {
  const state = app.current;
  if (!state || event.run_id !== state.runId) return;
  const { applied, refetch } = state.applyEvent(event);
  if (!applied) return;
  if (refetch) scheduleRecordFetch();
  if (event.stage === "complete") refreshRuns();
  render();
}

function scheduleRecordFetch(delayMs = 120) {
  // Events of one level arrive in bursts: coalesce them into one GET.
  clearTimeout(app.recordFetch.timer);
  app.recordFetch.timer = setTimeout(fetchRecord, delayMs);
}

async function fetchRecord() {
  const state = app.current;
  if (!state) return;
  const fetcher = app.recordFetch;
  if (fetcher.inFlight) {
    fetcher.again = true;
    return;
  }
  fetcher.inFlight = true;
  try {
    const record = await api.getRun(state.runId);
    state.applyRecord(record);
    rememberRun(record);
  } catch (error) {
    if (state === app.current) {
      if (error instanceof ApiError && error.status === 404)
        notify(`Run ${state.runId} was not found.`, "error");
      else if (error instanceof ApiError && error.status === 0)
        scheduleRecordFetch(1000); // server restarting
      else notify(`Could not load the run: ${error.message}`, "error");
    }
  } finally {
    fetcher.inFlight = false;
  }
  if (fetcher.again) {
    fetcher.again = false;
    return fetchRecord();
  }
  if (state === app.current) render();
}

/** Keeps a run opened here in the list, even when the API has no list or has not listed it yet. */
function rememberRun(record) {
  if (app.runs.some((run) => run.run_id === record.run_id)) return;
  const entry = {
    run_id: record.run_id,
    status: record.status,
    created_at: record.created_at,
    request: { metadata: record.request?.metadata },
    local: true,
  };
  app.runs = [...app.runs, entry].sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
}

function selectStep(id) {
  app.selected = app.selected === id ? null : id;
  render();
}

async function cancelRun() {
  const state = app.current;
  if (!state) return;
  app.cancelling = true;
  render();
  try {
    await api.cancel(state.runId);
    scheduleRecordFetch(0);
  } catch (error) {
    notify(`Could not cancel: ${error.message}`, "error");
  } finally {
    app.cancelling = false;
    render();
  }
}

// ---------------------------------------------------------------------------------------------
// A run that waits for a person. The panel shows the API's errors next to its controls; these only
// post, and once the API accepted, end the wait on the page at once (the events follow).

async function answerRun(answers) {
  const state = app.current;
  await postToWaitingRun(() => api.answer(state.runId, answers));
  state.resolveWait("input");
  notify("Answer sent: the run continues.");
  render();
}

async function decidePlan(decision) {
  const state = app.current;
  await postToWaitingRun(() => api.decide(state.runId, decision));
  state.resolveWait("approval");
  const told = {
    approve: "Plan approved: the run continues.",
    reject: "Plan rejected: the run ends.",
    edit: "Edited plan accepted: it runs now.",
  };
  notify(told[decision.decision] ?? "Decision sent.");
  render();
}

async function postToWaitingRun(post) {
  try {
    await post();
  } finally {
    // Accepted, or refused with 409 because the run no longer waits (answered elsewhere, timed out,
    // cancelled): either way the record says what the run does now.
    scheduleRecordFetch(0);
    needsYou.refresh();
  }
}

function render() {
  // Many events can arrive within one frame (a replay): draw once per frame.
  if (app.renderQueued) return;
  app.renderQueued = true;
  requestAnimationFrame(() => {
    app.renderQueued = false;
    const state = app.current;
    if (!state) return;
    const view = state.view();
    renderRunHeader($("run-header"), view, { onCancel: cancelRun, cancelling: app.cancelling });
    waitingPanel.update(view);
    conversationPanel.update(state.runId, state.record, view.status, view.lastSeq);
    dagView.update(view, app.selected);
    renderDetails($("details"), view, app.selected, { onSelect: selectStep });
    renderResult($("result"), view, {
      onOpenCitation: pdfjsReady
        ? (citation, button) => pdfViewer.open({ runId: state.runId, citation, trigger: button })
        : null,
    });
    const events = state.orderedEvents();
    renderEventLog($("event-log"), events);
    $("event-count").textContent = events.length ? `${events.length} events` : "";
    renderList();
    announce(view);
  });
}

function announce(view) {
  // Screen readers hear status changes once, not every re-render.
  const text = `Run: ${runStatusLabel(view.status)}`;
  if (text !== app.lastAnnounced) {
    app.lastAnnounced = text;
    $("announcer").textContent = text;
  }
}

// ---------------------------------------------------------------------------------------------
// Connection indicator and notices

function showConnection(status) {
  const el = document.querySelector("[data-testid=connection-status]");
  const labels = {
    idle: "Not watching a run",
    connecting: "Connecting…",
    live: "Live",
    reconnecting: status.retryInMs
      ? `Reconnecting in ${(status.retryInMs / 1000).toFixed(1)} s`
      : "Reconnecting…",
    polling: "Polling (no live token)",
  };
  el.dataset.state = status.state;
  el.querySelector(".conn-text").textContent = labels[status.state] ?? status.state;
}

function notify(message, kind = "info") {
  const notice = h(
    "div",
    { class: `notice notice-${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", {}, message),
    h(
      "button",
      { type: "button", class: "btn-icon", "aria-label": "Dismiss", onClick: () => notice.remove() },
      "×",
    ),
  );
  $("notices").append(notice);
  setTimeout(() => notice.remove(), 8000);
}

// ---------------------------------------------------------------------------------------------
// Wiring

$("run-sample").addEventListener("click", runSample);
$("refresh-runs").addEventListener("click", refreshRuns);
$("open-run").addEventListener("submit", (event) => {
  event.preventDefault();
  const id = $("open-run-id").value.trim();
  if (id) navigateTo(id);
});
window.addEventListener("hashchange", route);

setInterval(() => {
  if (app.listAvailable) refreshRuns();
}, RUN_LIST_REFRESH_MS);
// A safety net while a run is active: if live delivery is down, the record still moves the view on.
setInterval(() => {
  if (app.current && !app.current.isTerminal && live.state !== "live") fetchRecord();
}, ACTIVE_RECORD_REFRESH_MS);

refreshRuns();
needsYou.start();
route();

// ---------------------------------------------------------------------------------------------
// Officer sign-in (auth.js)

/**
 * Completes a sign-in coming back from the hosted UI, then either shows the officer and Sign out
 * in the top bar and signs every REST call from here on, or shows the Sign in button alone.
 */
async function officerSignIn(auth) {
  const session = new OfficerSession(auth);
  const problem = await session.completeSignIn();
  if (!session.signedIn) {
    $("signed-out-message").textContent = problem;
    $("signed-out").hidden = false;
    $("layout").hidden = true;
    $("sign-in").addEventListener("click", () => session.signIn());
    $("sign-in").focus();
    // The page stops here: without credentials every view would only show the API's refusals.
    await new Promise(() => {});
  }
  useOfficerSession(session);
  $("officer-email").textContent = session.email;
  $("officer").hidden = false;
  $("sign-out").addEventListener("click", () => session.signOut());
}
