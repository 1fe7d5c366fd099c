// EventBridge for the local twin: rules (an event pattern and a target handler) on the default bus,
// delivery after the put returns, EventBridge's retries with backoff, and a dead-letter callback for
// events that still fail. In AWS the CDK stack creates the same rules with the same patterns.
import { randomUUID } from "node:crypto";
import { type EventPattern, matches } from "./event-patterns.ts";

export interface BusEvent {
  version: "0";
  id: string;
  "detail-type": string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: unknown;
}

export interface Rule {
  name: string;
  pattern: EventPattern;
  target: (event: BusEvent) => Promise<unknown>;
  /** Retries after the first delivery (EventBridge's RetryPolicy.MaximumRetryAttempts). */
  retryAttempts?: number;
  onDeadLetter?: (event: BusEvent, error: unknown) => void;
}

export class LocalEventBus {
  private readonly rules: Rule[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly region: string,
    private readonly account: string,
  ) {}

  addRule(rule: Rule): void {
    this.rules.push(rule);
  }

  put(entry: { source: string; detailType: string; resources?: string[]; detail: unknown }): void {
    const event: BusEvent = {
      version: "0",
      id: randomUUID(),
      "detail-type": entry.detailType,
      source: entry.source,
      account: this.account,
      time: new Date().toISOString(),
      region: this.region,
      resources: entry.resources ?? [],
      detail: entry.detail,
    };
    for (const rule of this.rules) {
      if (!matches(rule.pattern, event)) continue;
      const delivery = this.deliver(rule, event).finally(() => this.pending.delete(delivery));
      this.pending.add(delivery);
    }
  }

  /** Resolves when every event put so far has been delivered (or dead-lettered). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async deliver(rule: Rule, event: BusEvent): Promise<void> {
    // EventBridge delivers asynchronously, after PutEvents (here: the status change) has returned.
    await new Promise((resolve) => setImmediate(resolve));
    const attempts = 1 + (rule.retryAttempts ?? 2);
    for (let attempt = 1; ; attempt++) {
      try {
        await rule.target(structuredClone(event));
        return;
      } catch (error) {
        if (attempt >= attempts) {
          rule.onDeadLetter?.(event, error);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
      }
    }
  }
}
