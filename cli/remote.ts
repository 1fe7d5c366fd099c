// `rewoo evaluate <request.json> --api <url>`: start the run on a running API (the local twin's
// gateway or a deployed stage), follow its progress over the WebSocket (polling when that is not
// possible), then print the run record. `--local` is the same path against the API of the twin it
// boots (cli/local.ts). The `rewoo runs …` commands act on an existing run through the same API
// (resume, answer, approve, reject, edit the plan, list, show) and follow it to its end; with
// --local they run against the twin's API the same way.
import pc from "picocolors";
import type { RunList } from "../lambdas/contracts/api-types.ts";
import type { ProgressEvent, RunRecord } from "../lambdas/core/types.ts";
import { WAITING_STATUSES } from "../lambdas/core/types.ts";
import {
  ApiClient,
  type ApiClientOptions,
  ApiRequestError,
  type PlanDecision,
  type RunListParams,
} from "./api-client.ts";
import { type FollowOutcome, followRun } from "./follow.ts";
import {
  type CommandOutput,
  commandOutput,
  EXIT_INVALID_INPUT,
  EXIT_RUN_FAILED,
  EXIT_SUCCEEDED,
  reportProblems,
  reportRun,
} from "./output.ts";
import { formatRunRecord, stepCount } from "./progress.ts";
import { QuestionResponder } from "./question-responder.ts";
import { filtered, RunListOptionError, type RunListOptions, runListParams } from "./run-list.ts";
import { createProgressView, type ProgressView } from "./view.ts";
import { type RunAddress, rewooCommand } from "./wait-commands.ts";

export interface RemoteOptions {
  api: string;
  json: boolean;
  label: string;
  /** WebSocket token instead of the run's subscribe token (an operator token); "none": connect without one. */
  token?: string;
  /** Live listr2 display (a terminal) or plain lines. */
  tty?: boolean;
  /** Ask the run's questions at the terminal and post the answers (stdin and stdout are a terminal). */
  interactive?: boolean;
  /** How printed commands reach the run (default: this API); `--local` when the API is the local twin's. */
  address?: RunAddress;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  client?: ApiClientOptions;
  pollIntervalMs?: number;
  reconnectDelayMs?: number;
  /** Stops following (Ctrl-C): the run goes on where it is; `stopped` says so (default: exit 130, silently). */
  signal?: AbortSignal;
  stopped?: (runId: string, client: ApiClient, out: CommandOutput) => Promise<number>;
  /** Print where the run's status is (`status  <url>`) under its RUN line (default true). */
  statusLine?: boolean;
  /** The heading above the fields of a request the API refused (default "the API refused the request"). */
  refusalHeading?: string;
}

/** The shell's code for a command stopped by Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

export async function runApiEvaluation(request: unknown, options: RemoteOptions): Promise<number> {
  const out = commandOutput(options);
  let client: ApiClient;
  let started: Awaited<ReturnType<ApiClient["start"]>>;
  try {
    client = new ApiClient(options.api, options.client);
    started = await client.start(request);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    if (error.status === 400 || error.status === 413) {
      const problems = error.fields.length ? error.fields : [{ field: "(body)", message: error.message }];
      const heading = options.refusalHeading ?? "the API refused the request";
      return reportProblems(problems, options.label, out.stderr, heading);
    }
    out.stderr(`${pc.red("cannot start the run")}: ${error.message}\n`);
    return error.status === undefined || error.status >= 500 ? EXIT_RUN_FAILED : EXIT_INVALID_INPUT;
  }

  out.say(`${pc.bold("RUN")}     ${started.run_id} (${options.label})`);
  if (options.statusLine !== false) out.say(pc.dim(`status  ${started.status_url}`));
  return followToEnd(client, started.run_id, options, out, {
    websocketUrl: started.websocket_url,
    token: wsToken(options.token, started.subscribe_token),
  });
}

/**
 * Follows the run's events from after `afterSeq` to its `complete` event (the view shows them; in a
 * terminal the run's question is asked there), then prints the run record and returns the exit code.
 */
async function followToEnd(
  client: ApiClient,
  runId: string,
  options: Omit<RemoteOptions, "label">,
  out: CommandOutput,
  source: { websocketUrl?: string | null; token?: string; afterSeq?: number },
): Promise<number> {
  const view = createProgressView({
    json: options.json,
    tty: options.tty ?? false,
    say: out.say,
    notice: (line) => out.stderr(`${line}\n`),
    address: out.address,
  });
  const responder =
    options.interactive && !options.json && view.asker
      ? new QuestionResponder(client, view.asker, out.address)
      : undefined;
  const relay = new EventRelay(view, client, responder);
  const settle = async () => {
    await relay.drain();
    await responder?.settle();
    await view.finish();
  };
  let outcome: FollowOutcome;
  try {
    outcome = await followRun({
      client,
      runId,
      websocketUrl: source.websocketUrl ?? null,
      ...(source.token !== undefined ? { token: source.token } : {}),
      onEvent: (event) => relay.push(event),
      onNotice: (message) => out.stderr(`${pc.dim(message)}\n`),
      ...(source.afterSeq !== undefined ? { afterSeq: source.afterSeq } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(options.reconnectDelayMs !== undefined ? { reconnectDelayMs: options.reconnectDelayMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    await settle();
    out.stderr(`${pc.red("lost the run")} ${runId}: ${(error as Error).message}\n`);
    return EXIT_RUN_FAILED;
  }
  await settle();
  if (outcome === "stopped") return options.stopped ? options.stopped(runId, client, out) : EXIT_INTERRUPTED;

  let record: RunRecord;
  try {
    record = await client.getRun(runId);
  } catch (error) {
    out.stderr(`${pc.red("cannot read the run record")}: ${(error as Error).message}\n`);
    return EXIT_RUN_FAILED;
  }
  return reportRun(record, {
    json: options.json,
    say: out.say,
    stdout: out.stdout,
    address: out.address,
  });
}

function wsToken(option: string | undefined, subscribeToken: string): string | undefined {
  if (option === undefined) return subscribeToken;
  return option === "none" ? undefined : option;
}

/**
 * Hands events to the view in order. WebSocket messages stay under 128 KB, so a large plan may
 * arrive as a pointer instead of the plan; the display needs the steps, so such a plan event is
 * completed from the run record first (and the events after it wait their turn).
 */
class EventRelay {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly view: ProgressView,
    private readonly client: ApiClient,
    private readonly responder?: QuestionResponder,
  ) {}

  push(event: ProgressEvent): void {
    this.queue = this.queue
      .then(() => this.complete(event))
      .then((complete) => {
        this.view.event(complete);
        this.responder?.event(complete);
      })
      .catch(() => undefined);
  }

  drain(): Promise<void> {
    return this.queue;
  }

  private async complete(event: ProgressEvent): Promise<ProgressEvent> {
    if (event.stage !== "plan" || Array.isArray(event.plan?.steps)) return event;
    const record = await this.client.getRun(event.run_id);
    return record.plan ? { ...event, plan: record.plan } : event;
  }
}

/**
 * `rewoo runs resume <run_id> --api <url>`: resumes the run and follows the new attempt (from its
 * `resume` event) to its end, like `rewoo evaluate --api` follows a new run. `resumed`: the run was
 * resumed already (the local twin resumes the runs its last process left in flight when it boots):
 * only follow it.
 */
export async function runApiResume(
  runId: string,
  options: Omit<RemoteOptions, "label"> & { label?: string; resumed?: boolean },
): Promise<number> {
  const out = commandOutput(options);
  let client: ApiClient;
  let resumeSeq = 0;
  try {
    client = new ApiClient(options.api, options.client);
    if (!options.resumed) {
      const resumed = await client.resume(runId);
      out.say(`${pc.bold("RESUME")}  ${runId}: attempt ${resumed.attempt} (${resumed.execution_name})`);
    }
    resumeSeq = await lastResumeSeq(client, runId);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    out.stderr(`${pc.red("cannot resume the run")}: ${error.message}\n`);
    return error.status === undefined || error.status >= 500 ? EXIT_RUN_FAILED : EXIT_INVALID_INPUT;
  }
  // A resume answers without a subscribe token: follow by polling the events resource.
  return followToEnd(client, runId, options, out, { afterSeq: Math.max(resumeSeq - 1, 0) });
}

export interface ActionOptions extends Omit<RemoteOptions, "label" | "token" | "interactive"> {
  /** false: post and return; by default the run is followed to its end (its exit code). */
  follow?: boolean;
  /** Said (stderr) once the action was taken, when following is not as the caller asked and why. */
  followNote?: string;
}

/** `rewoo runs answer <run_id> <field>=<value> …`: POST /v1/runs/{run_id}/input. */
export function runApiAnswer(
  runId: string,
  answers: Record<string, unknown>,
  options: ActionOptions,
): Promise<number> {
  return actOnRun(runId, options, "answer the run's question", async (client) => {
    const taken = await client.answer(runId, answers);
    return { said: `${Object.keys(answers).join(", ")} answered; the run goes on`, body: taken };
  });
}

/** `rewoo runs approve | reject | edit-plan <run_id>`: POST /v1/runs/{run_id}/approval. */
export function runApiDecision(
  runId: string,
  decision: PlanDecision,
  options: ActionOptions,
): Promise<number> {
  const verb = { approve: "approve", reject: "reject", edit: "edit" }[decision.decision];
  return actOnRun(runId, options, `${verb} the run's plan`, async (client) => {
    const decided = await client.decide(runId, decision);
    const edited = decided.plan ? ` (the plan now has ${stepCount(decided.plan.steps.length)})` : "";
    return { said: `plan ${decided.approval.status}${edited}`, body: decided };
  });
}

/**
 * Acts on a waiting run, then follows it from just before the action (its `answer` or `approval`
 * event, an edited plan first) to its end. A refusal names the fields the API named: exit 2.
 */
async function actOnRun(
  runId: string,
  options: ActionOptions,
  what: string,
  act: (client: ApiClient) => Promise<{ said: string; body: unknown }>,
): Promise<number> {
  const out = commandOutput(options);
  let client: ApiClient;
  let before: number;
  let done: { said: string; body: unknown };
  try {
    client = new ApiClient(options.api, options.client);
    before = await lastSeq(client, runId);
    done = await act(client);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return reportRefusal(error, what, `run ${runId}`, out);
  }
  if (options.followNote) out.stderr(`${pc.dim(options.followNote)}\n`);
  if (options.follow === false) {
    if (options.json) out.stdout(`${JSON.stringify(done.body, null, 2)}\n`);
    else out.say(`${pc.bold("RUN")}     ${runId}: ${done.said}`);
    return EXIT_SUCCEEDED;
  }
  out.say(pc.dim(`following ${runId} to its end`));
  return followToEnd(client, runId, options, out, { afterSeq: before });
}

/** The seq of the run's latest `resume` event (0: none), read through every page of its events. */
async function lastResumeSeq(client: ApiClient, runId: string): Promise<number> {
  let after = 0;
  let resume = 0;
  for (;;) {
    const page = await client.events(runId, after);
    if (page.events.length === 0) return resume;
    resume = page.events.filter((event) => event.stage === "resume").at(-1)?.seq ?? resume;
    after = page.next_after_seq;
  }
}

/** The seq of the run's last stored event (0: none yet); 404 for an unknown run. */
async function lastSeq(client: ApiClient, runId: string): Promise<number> {
  let after = 0;
  for (;;) {
    const page = await client.events(runId, after);
    if (page.events.length === 0) return after;
    after = page.next_after_seq;
  }
}

/** A 400 names each field the API named (exit 2); any other refusal exits 2, an API out of reach 1. */
function reportRefusal(error: ApiRequestError, what: string, label: string, out: CommandOutput): number {
  if ((error.status === 400 || error.status === 413) && error.fields.length > 0) {
    return reportProblems(error.fields, label, out.stderr, `the API refused to ${what}`);
  }
  out.stderr(`${pc.red(`cannot ${what}`)}: ${error.message}\n`);
  return error.status === undefined || error.status >= 500 ? EXIT_RUN_FAILED : EXIT_INVALID_INPUT;
}

/** `rewoo runs list`: runs newest first, filtered as the options say, with their status; one page. */
export async function runApiList(
  options: Omit<RemoteOptions, "label" | "token" | "interactive"> & RunListOptions,
): Promise<number> {
  const out = commandOutput(options);
  let params: RunListParams;
  try {
    params = runListParams(options);
  } catch (error) {
    if (!(error instanceof RunListOptionError)) throw error;
    out.stderr(`${pc.red("cannot list the runs")}: ${error.message}\n`);
    return EXIT_INVALID_INPUT;
  }
  let list: RunList;
  try {
    list = await new ApiClient(options.api, options.client).listRuns(params);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return reportRefusal(error, "list the runs", options.api, out);
  }
  const { runs } = list;
  if (options.json) {
    out.stdout(`${JSON.stringify(list, null, 2)}\n`);
    return EXIT_SUCCEEDED;
  }
  if (runs.length === 0) {
    out.say(
      list.next_cursor
        ? "no runs on this page (the API stops after reading a bounded number of runs)"
        : filtered(options)
          ? "no runs match"
          : "no runs in the last 7 days",
    );
  }
  const width = Math.max(0, ...runs.map((run) => run.run_id.length));
  for (const run of runs) {
    const loan = [
      run.request.metadata.loan_program,
      run.request.metadata.classification,
      ...(run.loan_number !== undefined ? [`loan ${run.loan_number}`] : []),
    ]
      .filter((part) => typeof part === "string")
      .join(" · ");
    out.say(
      `${run.run_id.padEnd(width)}  ${colourStatus(run.status.padEnd(17))}  ${run.created_at}  ${loan}`,
    );
  }
  const waiting = runs.filter((run) => WAITING_STATUSES.includes(run.status)).length;
  if (waiting > 0) {
    out.say(
      pc.yellow(
        `${waiting} ${waiting === 1 ? "run waits" : "runs wait"} for a person: ${rewooCommand(out.address, ["runs", "show", { placeholder: "<run_id>" }])} says what and how to answer`,
      ),
    );
  }
  const resumable = runs.filter((run) => run.resumable).length;
  if (resumable > 0 && options.needsYou) {
    out.say(
      pc.yellow(
        `${resumable} ${resumable === 1 ? "run" : "runs"} can be resumed from where ${resumable === 1 ? "it" : "they"} stopped: ${rewooCommand(out.address, ["runs", "resume", { placeholder: "<run_id>" }])}`,
      ),
    );
  }
  if (list.next_cursor)
    out.say(`more runs: add --cursor ${list.next_cursor} (same options) for the next page`);
  return EXIT_SUCCEEDED;
}

/** `rewoo runs show <run_id>`: the run record as `rewoo evaluate` prints it, with a wait's question and commands. */
export async function runApiShow(
  runId: string,
  options: Omit<RemoteOptions, "label" | "token" | "interactive">,
): Promise<number> {
  const out = commandOutput(options);
  let record: RunRecord;
  try {
    record = await new ApiClient(options.api, options.client).getRun(runId);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return reportRefusal(error, "show the run", `run ${runId}`, out);
  }
  if (options.json) out.stdout(`${JSON.stringify(record, null, 2)}\n`);
  else for (const line of formatRunRecord(record, { address: out.address })) out.say(line);
  return EXIT_SUCCEEDED;
}

function colourStatus(text: string): string {
  const status = text.trim();
  if (status === "SUCCEEDED") return pc.green(text);
  if (WAITING_STATUSES.includes(status as RunRecord["status"]) || status === "NEEDS_REVIEW")
    return pc.yellow(text);
  if (["FAILED", "CANCELLED", "INTERRUPTED", "REJECTED"].includes(status)) return pc.red(text);
  return text;
}
