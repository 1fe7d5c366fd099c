// Human-readable rendering of progress events and run records for the terminal.
import pc from "picocolors";
import type { ConditionFinding, ProgressEvent, RunRecord } from "../lambdas/core/types.ts";

export function formatEvent(event: ProgressEvent): string[] {
  switch (event.stage) {
    case "plan": {
      const { plan } = event;
      const lines = [
        `${pc.bold("PLAN")}    ${plan.steps.length} steps in ${plan.levels.length} dependency levels`,
      ];
      plan.levels.forEach((level, index) => {
        lines.push(`  level ${index}: ${level.join(", ")}`);
      });
      for (const step of plan.steps) {
        const deps = step.depends_on.length ? pc.dim(` ← ${step.depends_on.join(", ")}`) : "";
        lines.push(
          `  ${pc.cyan(step.id)} ${step.tool}${deps}${step.description ? pc.dim(`  ${step.description}`) : ""}`,
        );
      }
      for (const repair of plan.repairs) lines.push(pc.yellow(`  repaired: ${repair.message}`));
      return lines;
    }
    case "worker": {
      const label = `${pc.cyan(event.step)} ${event.tool}`;
      if (event.status === "started")
        return [`${pc.bold("WORKER")}  ${label} ${pc.dim(`(level ${event.level})`)} started`];
      if (event.status === "completed")
        return [`${pc.bold("WORKER")}  ${label} ${pc.green("completed")} in ${event.duration_ms} ms`];
      return [
        `${pc.bold("WORKER")}  ${label} ${pc.red("failed")} in ${event.duration_ms} ms: ${event.error}`,
      ];
    }
    case "solver":
      return [`${pc.bold("SOLVER")}  ${event.status}`];
    case "resume":
      return [`${pc.bold("RESUME")}  attempt ${event.attempt}: ${event.reason}`];
    case "complete":
      return [
        `${pc.bold("DONE")}    ${event.status === "SUCCEEDED" ? pc.green(event.status) : pc.red(event.status)}${event.error ? `: ${event.error}` : ""}`,
      ];
  }
}

export function formatRunRecord(run: RunRecord): string[] {
  const lines = ["", pc.bold(`Run ${run.run_id}: ${run.status}`)];
  if (run.error) lines.push(pc.red(`  ${run.error.error}: ${run.error.cause}`));
  const result = run.result;
  if (result) {
    lines.push("", pc.bold("Summary"), `  ${result.summary}`);
    if (result.fulfilled_conditions.length) {
      lines.push("", pc.bold(pc.green("Fulfilled")));
      for (const condition of result.fulfilled_conditions)
        lines.push(...formatCondition(condition, "fulfilled"));
    }
    if (result.unfulfilled_conditions.length) {
      lines.push("", pc.bold(pc.red("Not fulfilled / insufficient evidence")));
      for (const condition of result.unfulfilled_conditions) {
        lines.push(...formatCondition(condition, String(condition.status ?? "not_fulfilled")));
      }
    }
    if (result.missing_information.length) {
      lines.push(
        "",
        pc.bold("Missing information"),
        ...result.missing_information.map((item) => `  - ${item}`),
      );
    }
    if (result.recommendations.length) {
      lines.push("", pc.bold("Recommendations"), ...result.recommendations.map((item) => `  - ${item}`));
    }
  }
  lines.push(
    "",
    pc.dim(
      `Evidence: ${run.evidence.filter((e) => e.status === "ok").length} ok, ${run.evidence.filter((e) => e.status === "error").length} failed · LLM usage: ${run.usage.llm_calls} calls, ${run.usage.input_tokens} input + ${run.usage.output_tokens} output tokens`,
    ),
  );
  return lines;
}

function formatCondition(condition: ConditionFinding, status: string): string[] {
  const head = `  ${pc.bold(condition.id)}: ${status}${condition.title ? ` — ${condition.title}` : ""}`;
  const lines = [head];
  if (condition.reason) lines.push(`      ${condition.reason}`);
  for (const citation of condition.citations ?? []) {
    const excerpt = citation.excerpt ? ` "${citation.excerpt.replace(/\s+/g, " ").slice(0, 100)}"` : "";
    lines.push(pc.dim(`      ↳ ${citation.document}${citation.page ? ` p.${citation.page}` : ""}${excerpt}`));
  }
  return lines;
}
