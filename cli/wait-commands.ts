// The commands a person types to answer a run that waits for them, as the CLI prints them under a
// question or an approval request, and the reading of `<field>=<value>` answers on the command line.

/** How a printed command reaches the run: the API it runs behind, or the local twin's data folder. */
export type RunAddress = { api: string } | { local: true; dataDir?: string };

/** Characters a POSIX shell takes literally; anything else is single-quoted. */
const SHELL_SAFE = /^[\w@%+=:,./-]+$/;

export function shellQuote(word: string): string {
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * `npx rewoo <args> --api <url>` or `npx rewoo <args> --local` (with the data folder when it is not
 * the default one). Arguments in `placeholders` are printed as they are (`<value>`), the rest quoted.
 */
export function rewooCommand(address: RunAddress, args: Array<string | { placeholder: string }>): string {
  const words = args.map((arg) => (typeof arg === "string" ? shellQuote(arg) : arg.placeholder));
  if ("api" in address) return `npx rewoo ${words.join(" ")} --api ${shellQuote(address.api)}`;
  const env = address.dataDir ? `REWOO_DATA_DIR=${shellQuote(address.dataDir)} ` : "";
  return `${env}npx rewoo ${words.join(" ")} --local`;
}

/** The command that answers `fields` of a run's question. */
export function answerCommand(address: RunAddress, runId: string, fields: readonly string[]): string {
  return rewooCommand(address, [
    "runs",
    "answer",
    runId,
    ...fields.map((field) => ({ placeholder: `${shellQuote(field)}=<value>` })),
  ]);
}

/** The commands that decide on a plan waiting for approval, labelled. */
export function approvalCommands(address: RunAddress, runId: string): Array<[string, string]> {
  return [
    ["approve", rewooCommand(address, ["runs", "approve", runId])],
    ["reject", rewooCommand(address, ["runs", "reject", runId, "--reason", { placeholder: '"<why>"' }])],
    ["edit", rewooCommand(address, ["runs", "edit-plan", runId, { placeholder: "<plan.json>" }])],
  ];
}

/** A `<field>=<value>` argument that is not one, named by its position. */
export class AnswerArgumentError extends Error {
  override name = "AnswerArgumentError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `borrower_info.monthly_income=8000 borrower_info.name="Jane Q. Doe"` → the answers object of
 * POST /v1/runs/{run_id}/input. A value that is a plain number is sent as a number, anything else as
 * text; the API checks each value against what its question expects.
 */
export function parseAnswerArguments(args: readonly string[]): Record<string, string | number> {
  if (args.length === 0) {
    throw new AnswerArgumentError("answers", "expected at least one <field>=<value>");
  }
  const answers: Record<string, string | number> = {};
  args.forEach((arg, index) => {
    const equals = arg.indexOf("=");
    const field = equals > 0 ? arg.slice(0, equals).trim() : "";
    if (!field) {
      throw new AnswerArgumentError(
        `answers[${index}]`,
        `expected <field>=<value> (e.g. borrower_info.monthly_income=8000), got ${JSON.stringify(arg)}`,
      );
    }
    if (field in answers) {
      throw new AnswerArgumentError(`answers.${field}`, "given twice; expected one value per field");
    }
    answers[field] = answerValue(arg.slice(equals + 1));
  });
  return answers;
}

/** "8000" → 8000, "8000.50" / "02134" / "$8,000" stay text: only a number that reads back the same. */
export function answerValue(text: string): string | number {
  const trimmed = text.trim();
  const number = Number(trimmed);
  return trimmed !== "" && Number.isFinite(number) && String(number) === trimmed ? number : text;
}
