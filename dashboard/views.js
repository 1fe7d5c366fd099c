// The run view's rendering, except the DAG, one module per part of the page (run-list-view.js,
// run-header-view.js, step-details-view.js, result-view.js, event-log-view.js) and the names they
// share (run-labels.js). Each function fills a container from the derived view; all data goes
// through text nodes (see dom.js).

export { describeEvent, renderEventLog } from "./event-log-view.js";
export { renderResult } from "./result-view.js";
export { renderRunHeader } from "./run-header-view.js";
export { formatUsd, runStatusBadge, runStatusLabel } from "./run-labels.js";
export { renderRunList } from "./run-list-view.js";
export { renderDetails } from "./step-details-view.js";
