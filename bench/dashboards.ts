// The dashboards of the live-delivery measure (bench/reliability.ts): real WebSocket clients on the
// twin's gateway, in a thread of their own so that their work (50 sockets parsing every event) is not
// counted against the twin, as browsers' is not. Loaded as a function environment (LambdaThread):
// each invocation is one command; the clients live between invocations.
import WebSocket from "ws";

/** Epoch milliseconds with sub-millisecond resolution, comparable across threads. */
export const epochNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A dashboard: a real WebSocket client on the twin's gateway with the operator token. */
export class Subscriber {
  /** Event seqs received per run, in arrival order. */
  readonly seqs = new Map<string, number[]>();
  readonly completedAt = new Map<string, number>();
  private readonly waiters: Array<() => void> = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as {
        type?: string;
        run_id?: string;
        seq?: number;
        stage?: string;
      };
      // Error messages (a refused subscribe) carry a type; the exact-delivery check counts their cost.
      if (message.type !== undefined || !message.run_id || message.seq === undefined) return;
      const list = this.seqs.get(message.run_id) ?? [];
      list.push(message.seq);
      this.seqs.set(message.run_id, list);
      if (message.stage === "complete" && !this.completedAt.has(message.run_id)) {
        this.completedAt.set(message.run_id, epochNow());
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
  }

  static async connect(url: string): Promise<Subscriber> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return new Subscriber(socket);
  }

  subscribe(runId: string): void {
    this.socket.send(JSON.stringify({ action: "subscribe", run_id: runId, after_seq: 0 }));
  }

  async completed(runId: string, timeoutMs: number): Promise<number | undefined> {
    const deadline = epochNow() + timeoutMs;
    while (!this.completedAt.has(runId) && epochNow() < deadline) {
      await Promise.race([new Promise<void>((resolve) => this.waiters.push(resolve)), sleep(250)]);
    }
    return this.completedAt.get(runId);
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((resolve) => this.socket.once("close", resolve));
    this.socket.close();
    await closed;
  }
}

export type DashboardCommand =
  | { op: "connect"; url: string; count: number }
  | { op: "subscribe"; run_id: string }
  | { op: "wait"; run_id: string; timeout_ms: number }
  | { op: "close" };

export interface DashboardReport {
  /** Per subscriber: the seqs received for the run, in arrival order. */
  seqs: number[][];
  /** Per subscriber: when `complete` arrived (epoch ms), null if it did not within the timeout. */
  completed_at: Array<number | null>;
}

let open: Subscriber[] = [];

export const handler = async (command: DashboardCommand): Promise<DashboardReport | null> => {
  switch (command.op) {
    case "connect":
      open = await Promise.all(Array.from({ length: command.count }, () => Subscriber.connect(command.url)));
      return null;
    case "subscribe":
      for (const subscriber of open) subscriber.subscribe(command.run_id);
      return null;
    case "wait": {
      const completed = await Promise.all(open.map((s) => s.completed(command.run_id, command.timeout_ms)));
      return {
        seqs: open.map((s) => s.seqs.get(command.run_id) ?? []),
        completed_at: completed.map((at) => at ?? null),
      };
    }
    case "close":
      await Promise.all(open.map((s) => s.close()));
      open = [];
      return null;
  }
};
