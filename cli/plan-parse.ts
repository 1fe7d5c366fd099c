// `rewoo plan parse`: the planner-output parser and validator as a command. Exit 2 on input that
// is not a runnable plan, with {"error": "..."} naming the problem.
import { readFileSync } from "node:fs";
import { describeLoanTools } from "../lambdas/agents/loan/loan-tool-catalog.ts";
import { parsePlanText } from "../lambdas/core/parse.ts";
import { normalizePlan } from "../lambdas/core/validate.ts";
import { ToolRegistry } from "../lambdas/tools/registry.ts";

export async function parsePlanCommand(
  file: string | undefined,
  options: { maxSteps?: number; validate?: boolean },
): Promise<number> {
  const text = !file || file === "-" ? await readStdin() : readFileSync(file, "utf8");
  try {
    const tools = options.validate
      ? // The tools' definitions without what they do when they run (the engines, the PDF reader).
        new ToolRegistry(
          describeLoanTools(
            () => {
              throw new Error("tools are not executed by plan parse");
            },
            () => new Date(),
          ),
        ).catalog()
      : undefined;
    const plan = normalizePlan(parsePlanText(text), {
      ...(tools ? { tools } : {}),
      ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    });
    const output = {
      steps: plan.steps.map(({ id, tool, args, depends_on }) => ({ id, tool, args, depends_on })),
      levels: plan.levels,
      ...(plan.repairs.length ? { repairs: plan.repairs } : {}),
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return 0;
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
    return 2;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
