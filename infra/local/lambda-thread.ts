// A twin Lambda function in an execution environment of its own: a worker thread that loads the
// handler module and runs its invocations, so the function's work runs beside the rest of the twin
// instead of taking turns with it on one event loop. The twin uses it for the push function, whose
// work grows with the number of dashboards: in AWS it runs on Lambda's compute, never on a run's,
// and with a thread of its own it does not slow the runs of the twin either (the emulators it calls
// still answer on the main thread).
//
// Like Lambda: the environment is created once and reused; its environment variables are the
// process's when it starts; an invocation's error reaches the caller (name and message, as Lambda
// reports a function error); an environment that dies fails its invocations in flight and is
// replaced at the next invocation.
import { Worker } from "node:worker_threads";
import { REPO_ROOT_URL } from "./repo-root.ts";

interface Pending {
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

interface Answer {
  id?: number;
  ready?: boolean;
  result?: unknown;
  error?: { name: string; message: string; stack?: string };
}

export class LambdaThread<E, R> {
  private worker?: Worker;
  private ready?: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  /**
   * `module` is the handler module's file URL; `exportName` the handler's export; `env` variables set
   * on top of the process's (a function's configuration); `output` where the environment's stdout
   * and stderr go (its logs; default: the process's).
   */
  constructor(
    private readonly module: URL,
    private readonly exportName = "handler",
    private readonly env: Record<string, string> = {},
    private readonly output?: NodeJS.WritableStream,
  ) {}

  /** Creates the environment now (cold start off the first invocation's path); errors surface on invoke. */
  warm(): void {
    this.start().catch(() => {});
  }

  async invoke(event: E): Promise<R> {
    if (this.closed) throw new Error(`the function ${this.module.pathname} was shut down`);
    const worker = await this.start();
    const id = ++this.nextId;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, event });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Promise<Worker> {
    if (!this.ready) {
      const worker = new Worker(new URL("infra/local/lambda-thread-entry.mjs", REPO_ROOT_URL), {
        workerData: { module: this.module.href, exportName: this.exportName },
        env: { ...process.env, ...this.env },
        ...(this.output ? { stdout: true, stderr: true } : {}),
      });
      if (this.output) {
        worker.stdout.pipe(this.output, { end: false });
        worker.stderr.pipe(this.output, { end: false });
      }
      // The twin's servers keep the process alive; an idle function must not.
      worker.unref();
      this.worker = worker;
      this.ready = new Promise<void>((resolve, reject) => {
        worker.on("message", (answer: Answer) => {
          if (answer.ready) {
            resolve();
            return;
          }
          const waiting = answer.id === undefined ? undefined : this.pending.get(answer.id);
          if (!waiting || answer.id === undefined) return;
          this.pending.delete(answer.id);
          if (answer.error) waiting.reject(Object.assign(new Error(answer.error.message), answer.error));
          else waiting.resolve(answer.result);
        });
        const died = (reason: unknown) => {
          reject(reason);
          if (this.worker !== worker) return;
          this.worker = undefined;
          this.ready = undefined;
          for (const [id, waiting] of this.pending) {
            this.pending.delete(id);
            waiting.reject(new Error(`the function's environment died: ${String(reason)}`));
          }
        };
        worker.on("error", died);
        worker.on("exit", (code) => died(new Error(`exited with code ${code}`)));
      });
    }
    const worker = this.worker as Worker;
    return this.ready.then(() => worker);
  }
}

/**
 * Concurrent invocations of one function, each in an environment of its own as Lambda scales out:
 * `size` worker threads, an invocation going to the least busy.
 */
export class LambdaPool<E, R> {
  private readonly environments: Array<{ fn: LambdaThread<E, R>; busy: number }>;

  constructor(module: URL, size: number, exportName = "handler", output?: NodeJS.WritableStream) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`a function pool needs at least 1 environment, not ${size}`);
    this.environments = Array.from({ length: size }, () => ({
      fn: new LambdaThread<E, R>(module, exportName, {}, output),
      busy: 0,
    }));
  }

  warm(): void {
    for (const environment of this.environments) environment.fn.warm();
  }

  async invoke(event: E): Promise<R> {
    const environment = this.environments.reduce((least, candidate) =>
      candidate.busy < least.busy ? candidate : least,
    );
    environment.busy += 1;
    try {
      return await environment.fn.invoke(event);
    } finally {
      environment.busy -= 1;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.environments.map((environment) => environment.fn.close()));
  }
}
