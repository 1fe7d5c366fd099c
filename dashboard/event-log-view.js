// The run's progress events as a readable log.
import { formatDateTime, formatDuration, formatTime, h } from "./dom.js";
import { replanSummary, reviewSummary } from "./findings.js";

/** One line of the activity log. `afterReplan`: a plan event that follows a replan is the new plan. */
export function describeEvent(event, { afterReplan = false } = {}) {
  const suffix = event.truncated ? " (details in the run record)" : "";
  switch (event.stage) {
    case "plan": {
      const plan = event.plan;
      const name = afterReplan ? "New plan" : "Plan";
      return plan?.steps
        ? `${name}: ${plan.steps.length} steps in ${plan.levels?.length ?? "?"} levels${plan.repairs?.length ? ` (${plan.repairs.length} repaired)` : ""}`
        : `${name} written${suffix}`;
    }
    case "worker": {
      const head = `${event.step} ${event.tool} (level ${event.level})`;
      if (event.status === "started") return `${head} started`;
      if (event.status === "completed") return `${head} completed in ${formatDuration(event.duration_ms)}`;
      return `${head} failed${event.error ? `: ${event.error}` : ""}`;
    }
    case "solver":
      return event.status === "started"
        ? "Solver started"
        : `Solver completed${event.results?.summary ? `: ${event.results.summary}` : suffix}`;
    case "resume":
      return `Resumed (attempt ${event.attempt}): ${event.reason}`;
    case "replan":
      return describeReplan(event);
    case "review": {
      const summary = reviewSummary(event.target === "result" ? "result" : "plan", event);
      return summary.charAt(0).toUpperCase() + summary.slice(1);
    }
    case "question":
      return describeQuestion(event);
    case "answer": {
      const fields = Array.isArray(event.fields) ? event.fields.join(", ") : "";
      return event.status === "timed_out"
        ? `No answer before the deadline${fields ? ` for ${fields}` : ""}: going on without it`
        : `Answered${fields ? `: ${fields}` : ""}; the run continues`;
    }
    case "approval":
      return describeApproval(event);
    case "complete":
      return `Run ${event.status}${event.error ? `: ${event.error}` : ""}`;
    default:
      return `${event.stage ?? "event"}${suffix}`;
  }
}

/** "Asked for borrower_info.monthly_income (for BS_LARGE_DEPOSITS), answer by …". */
function describeQuestion(event) {
  const questions = Array.isArray(event.questions) ? event.questions : [];
  const asked = questions
    .map((q) => (q.conditions?.length ? `${q.field} (for ${q.conditions.join(", ")})` : q.field))
    .join("; ");
  const by = event.deadline ? `; answer by ${formatDateTime(event.deadline)}` : "";
  return `Asked for ${asked || "input"}${by}`;
}

function describeApproval(event) {
  const reason = event.reason ? `: ${event.reason}` : "";
  switch (event.status) {
    case "pending":
      return `Plan waits for approval${event.deadline ? ` until ${formatDateTime(event.deadline)}` : ""}`;
    case "approved":
      return `Plan approved${reason}`;
    case "edited":
      return `Plan edited by an operator${reason}; the edited plan runs`;
    case "rejected":
      return `Plan rejected${reason}`;
    case "timed_out":
      return `No approval in time${reason}`;
    default:
      return `Approval ${event.status ?? ""}${reason}`.trim();
  }
}

/** "Replanned (attempt 1): E3 call_conditions_ai_api failed: …"; the failed steps when no reason is given. */
function describeReplan(event) {
  const summary = replanSummary(event);
  return summary.charAt(0).toUpperCase() + summary.slice(1);
}

export function renderEventLog(el, events) {
  const list = el.querySelector("ol") ?? el.appendChild(h("ol", { class: "events" }));
  // Events only grow, so append the new ones; rebuild only if one arrived out of order (a replay
  // filling a hole) and the rendered prefix no longer matches.
  const rendered = list.children.length;
  const last = list.lastElementChild;
  if (rendered > events.length || (last && String(events[rendered - 1]?.seq) !== last.dataset.seq)) {
    list.replaceChildren();
  }
  const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  const firstReplan = events.find((event) => event.stage === "replan")?.seq ?? Number.POSITIVE_INFINITY;
  for (const event of events.slice(list.children.length)) {
    list.append(
      h(
        "li",
        {
          class: `event event-${event.stage} event-${event.status ?? ""}`,
          dataset: { testid: `event-${event.seq}`, seq: event.seq },
        },
        h("span", { class: "event-seq mono" }, `#${event.seq}`),
        h("time", { class: "event-time mono", datetime: event.timestamp }, formatTime(event.timestamp)),
        h("span", { class: "event-text" }, describeEvent(event, { afterReplan: event.seq > firstReplan })),
      ),
    );
  }
  if (atBottom) el.scrollTop = el.scrollHeight;
}
