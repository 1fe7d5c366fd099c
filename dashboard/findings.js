// How a result's findings are arranged for people: by compartment (Compliance, Income, …), the
// compartment holding the most urgent finding first, and within a compartment the most urgent
// finding first. Pure (no DOM): the dashboard draws these groups and the CLI prints them. It lives
// here because the dashboard is served as plain files and cannot import the CLI's TypeScript.
//
// Records come from an API that may be older or newer than this page: a field of an unexpected
// type counts as absent, and a result without compartments or priorities keeps the solver's order.

const NAMED_PRIORITY = { high: 1, medium: 2, low: 3 };
/** The order the dashboard has always listed verdicts in: what needs attention first. */
const VERDICT_ORDER = { not_fulfilled: 0, insufficient_evidence: 1, fulfilled: 2 };

/** 1 (highest) to 3; Infinity for an absent or unknown priority, so it sorts last. */
export function priorityRank(priority) {
  if (typeof priority === "number")
    return priority === 1 || priority === 2 || priority === 3 ? priority : Infinity;
  if (typeof priority !== "string") return Infinity;
  const key = priority.trim().toLowerCase();
  if (Object.hasOwn(NAMED_PRIORITY, key)) return NAMED_PRIORITY[key];
  return key === "1" || key === "2" || key === "3" ? Number(key) : Infinity;
}

/** The tag shown next to a finding ("high", "P1"), or null when it carries no priority. */
export function priorityLabel(priority) {
  if (typeof priority === "number" && Number.isFinite(priority)) return `P${priority}`;
  if (typeof priority !== "string" || !priority.trim()) return null;
  const text = priority.trim().toLowerCase();
  return /^\d+$/.test(text) ? `P${text}` : text;
}

/** A stable word for styling a priority tag: "high" | "medium" | "low" | "unknown". */
export function priorityLevel(priority) {
  return ["high", "medium", "low"][priorityRank(priority) - 1] ?? "unknown";
}

export function compartmentOf(finding) {
  const value = finding?.compartment;
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/** The judged findings, each with its status (the lists imply one when the solver left it out). */
export function judgedFindings(result) {
  return [
    ...findingList(result?.unfulfilled_conditions).map((c) => ({
      ...c,
      status: statusOf(c, "not_fulfilled"),
    })),
    ...findingList(result?.fulfilled_conditions).map((c) => ({ ...c, status: statusOf(c, "fulfilled") })),
  ];
}

/** The conditions listed as applying when nothing was judged, or null when the result has no such list. */
export function applicableFindings(result) {
  return Array.isArray(result?.applicable_conditions) ? findingList(result.applicable_conditions) : null;
}

/** The one-sentence reading of the instructions, or null. */
export function interpretationOf(result) {
  const text = result?.interpretation;
  return typeof text === "string" && text.trim() ? text.trim() : null;
}

/**
 * Findings grouped by compartment. `grouped` is false when no finding names a compartment (a run
 * from before compartments existed): then there is one group, with `compartment` null. Findings
 * without a compartment among ones with it form a last group, also with `compartment` null.
 */
export function groupFindings(findings) {
  const list = findingList(findings).map((finding, index) => ({ finding, index }));
  const byCompartment = new Map();
  for (const entry of list) {
    const key = compartmentOf(entry.finding);
    if (!byCompartment.has(key)) byCompartment.set(key, []);
    byCompartment.get(key).push(entry);
  }
  const groups = [...byCompartment.entries()].map(([compartment, entries], order) => {
    entries.sort(byUrgency);
    return { compartment, entries, order, rank: priorityRank(entries[0]?.finding.priority) };
  });
  // Ties keep the order in which the solver first named each compartment.
  groups.sort(
    (a, b) =>
      Number(a.compartment === null) - Number(b.compartment === null) || a.rank - b.rank || a.order - b.order,
  );
  return {
    grouped: groups.some((group) => group.compartment !== null),
    groups: groups.map((group) => ({
      compartment: group.compartment,
      findings: group.entries.map((entry) => entry.finding),
    })),
  };
}

/**
 * "replanned (attempt 1): E3 call_conditions_ai_api failed: …" for a replan event; the failed steps
 * when it has no reason. The CLI prints it, the dashboard's activity log shows it.
 */
export function replanSummary(event) {
  const attempt = Number.isInteger(event?.attempt) ? event.attempt : "?";
  const failed = Array.isArray(event?.failed_steps)
    ? event.failed_steps.filter((id) => typeof id === "string")
    : [];
  const reason =
    typeof event?.reason === "string" && event.reason.trim()
      ? event.reason.trim()
      : failed.length
        ? `${failed.join(", ")} failed`
        : "a required step failed";
  return `replanned (attempt ${attempt}): ${reason}`;
}

/**
 * "plan review 9/10, approved" or "result review 3/10, needs review: TR_SIGNED is fulfilled without
 * a citation (+1 more)" for a review (a record's plan_review/result_review or a review event).
 */
export function reviewSummary(target, review) {
  if (!review || typeof review !== "object") return `${target} review: none`;
  const score = Number.isFinite(review.score) ? `${review.score}/10` : "?/10";
  const issues = Array.isArray(review.issues)
    ? review.issues.filter((i) => typeof i?.message === "string")
    : [];
  const head = `${target} review ${score}, ${review.approved === true ? "approved" : "needs review"}`;
  if (!issues.length) return head;
  const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : "";
  return `${head}: ${issues[0].message}${more}`;
}

function byUrgency(a, b) {
  return (
    priorityRank(a.finding.priority) - priorityRank(b.finding.priority) ||
    verdictOrder(a.finding.status) - verdictOrder(b.finding.status) ||
    a.index - b.index
  );
}

function verdictOrder(status) {
  // Findings without a status (applicable conditions) or with an unknown one sit between the two ends.
  return Object.hasOwn(VERDICT_ORDER, status) ? VERDICT_ORDER[status] : 1;
}

function findingList(value) {
  return Array.isArray(value)
    ? value.filter((c) => typeof c === "object" && c !== null && !Array.isArray(c))
    : [];
}

function statusOf(finding, implied) {
  return typeof finding.status === "string" && finding.status ? finding.status : implied;
}
