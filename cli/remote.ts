// `rewoo evaluate <request.json> --api <url>`: start the run on a running API (the local twin's
// gateway or a deployed stage), follow its progress over the WebSocket (polling when that is not
// possible), then print the run record exactly as the local mode does.
import pc from "picocolors";
import type { ProgressEvent, RunRecord } from "../lambdas/core/types.ts";
import { ApiClient, type ApiClientOptions, ApiRequestError } from "./api-client.ts";
import { followRun } from "./follow.ts";
import { EXIT_INVALID_INPUT, EXIT_RUN_FAILED, reportProblems, reportRun } from "./output.ts";
import { createProgressView, type ProgressView } from "./view.ts";

export interface RemoteOptions {
  api: string;
  json: boolean;
  label: string;
  /** WebSocket token instead of the run's subscribe token (an operator token); "none": connect without one. */
  token?: string;
  /** Live listr2 display (a terminal) or plain lines. */
  tty?: boolean;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  client?: ApiClientOptions;
  pollIntervalMs?: number;
  reconnectDelayMs?: number;
}

export async function runApiEvaluation(request: unknown, options: RemoteOptions): Promise<number> {
  const stdout = options.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));
  const say = options.json ? () => undefined : (line: string) => stdout(`${line}\n`);
  const notice = (message: string) => stderr(`${pc.dim(message)}\n`);

  let client: ApiClient;
  let started: Awaited<ReturnType<ApiClient["start"]>>;
  try {
    client = new ApiClient(options.api, options.client);
    started = await client.start(request);
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    if (error.status === 400 || error.status === 413) {
      const problems = error.fields.length ? error.fields : [{ field: "(body)", message: error.message }];
      return reportProblems(problems, options.label, stderr, "the API refused the request");
    }
    stderr(`${pc.red("cannot start the run")}: ${error.message}\n`);
    return error.status === undefined || error.status >= 500 ? EXIT_RUN_FAILED : EXIT_INVALID_INPUT;
  }

  say(`${pc.bold("RUN")}     ${started.run_id} (${options.label})`);
  say(pc.dim(`status  ${started.status_url}`));
  const view = createProgressView({ json: options.json, tty: options.tty ?? false, say });
  const relay = new EventRelay(view, client);
  try {
    await followRun({
      client,
      runId: started.run_id,
      websocketUrl: started.websocket_url,
      token: wsToken(options.token, started.subscribe_token),
      onEvent: (event) => relay.push(event),
      onNotice: notice,
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(options.reconnectDelayMs !== undefined ? { reconnectDelayMs: options.reconnectDelayMs } : {}),
    });
  } catch (error) {
    await relay.drain();
    await view.finish();
    stderr(`${pc.red("lost the run")} ${started.run_id}: ${(error as Error).message}\n`);
    return EXIT_RUN_FAILED;
  }
  await relay.drain();
  await view.finish();

  let record: RunRecord;
  try {
    record = await client.getRun(started.run_id);
  } catch (error) {
    stderr(`${pc.red("cannot read the run record")}: ${(error as Error).message}\n`);
    return EXIT_RUN_FAILED;
  }
  return reportRun(record, { json: options.json, say, stdout });
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
  ) {}

  push(event: ProgressEvent): void {
    this.queue = this.queue
      .then(() => this.complete(event))
      .then((complete) => this.view.event(complete))
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
 * `resume` event) to its end, like `rewoo evaluate --api` follows a new run.
 */
export async function runApiResume(
  runId: string,
  options: Omit<RemoteOptions, "label"> & { label?: string },
): Promise<number> {
  const stdout = options.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));
  const say = options.json ? () => undefined : (line: string) => stdout(`${line}\n`);
  let client: ApiClient;
  let resumeSeq = 0;
  try {
    client = new ApiClient(options.api, options.client);
    const resumed = await client.resume(runId);
    say(`${pc.bold("RESUME")}  ${runId}: attempt ${resumed.attempt} (${resumed.execution_name})`);
    const page = await client.events(runId, 0);
    resumeSeq = page.events.filter((event) => event.stage === "resume").at(-1)?.seq ?? 0;
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    stderr(`${pc.red("cannot resume the run")}: ${error.message}\n`);
    return error.status === undefined || error.status >= 500 ? EXIT_RUN_FAILED : EXIT_INVALID_INPUT;
  }
  const view = createProgressView({ json: options.json, tty: options.tty ?? false, say });
  try {
    await followRun({
      client,
      runId,
      // A resume answers without a subscribe token: follow by polling the events resource.
      websocketUrl: null,
      onEvent: (event) => view.event(event),
      onNotice: (message) => stderr(`${pc.dim(message)}\n`),
      afterSeq: Math.max(resumeSeq - 1, 0),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    });
  } catch (error) {
    await view.finish();
    stderr(`${pc.red("lost the run")} ${runId}: ${(error as Error).message}\n`);
    return EXIT_RUN_FAILED;
  }
  await view.finish();
  return reportRun(await client.getRun(runId), { json: options.json, say, stdout });
}
