// A fault switch for chaos tests and benchmarks: REWOO_FAULTS="call_conditions_ai_api=0.3:error,*=0.1:timeout"
// makes the named tools (or every tool, `*`) misbehave with the given probability. Off unless set.
//   error     the tool call fails (error evidence: the run goes on and the solver names what is missing)
//   timeout   the tool call runs past the tool's timeout (error evidence, after the wait)
//   throttle  the worker's store answers as throttled DynamoDB does (transient: the workflow retries)
//   crash     the worker invocation dies before the tool runs (an infrastructure failure, not retried)
// A third field caps how many times a rule fires in a process ("call_conditions_ai_api=1:error:1":
// the first call fails, later ones run), which is how a step that fails once is staged.
// REWOO_FAULTS_SEED makes the draws reproducible.
import { seededRandom } from "../core/seeded-random.ts";

export const FAULT_KINDS = ["error", "timeout", "throttle", "crash"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

interface FaultRule {
  target: string;
  probability: number;
  kind: FaultKind;
  /** At most this many injections (unbounded when absent). */
  times?: number;
}

export class InjectedFaultError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export function parseFaults(spec: string | undefined): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const part of (spec ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const match = /^([\w*-]+)=(0|1|0?\.\d+|1\.0+):(\w+)(?::([1-9]\d*))?$/.exec(part);
    const kind = match?.[3] as FaultKind | undefined;
    if (!match?.[1] || !kind || !FAULT_KINDS.includes(kind)) {
      throw new Error(
        `Invalid configuration: REWOO_FAULTS entry "${part}" is not "<tool or *>=<probability 0..1>:<${FAULT_KINDS.join("|")}>[:<times>]"`,
      );
    }
    rules.push({
      target: match[1],
      probability: Number(match[2]),
      kind,
      ...(match[4] ? { times: Number(match[4]) } : {}),
    });
  }
  return rules;
}

export class FaultInjector {
  private rules: FaultRule[] = [];
  private random: () => number = Math.random;
  private readonly fired = new Map<FaultRule, number>();

  constructor(spec?: string, seed?: number) {
    this.configure(spec, seed);
  }

  /** Replaces the rules (tests and the benchmark switch faults on and off between runs). */
  configure(spec: string | undefined, seed?: number): void {
    this.rules = parseFaults(spec);
    this.random = seed === undefined ? Math.random : seededRandom(seed);
    this.fired.clear();
  }

  get enabled(): boolean {
    return this.rules.length > 0;
  }

  /** The fault to inject into this call of `tool`, if any: the tool's own rule wins over `*`. */
  draw(tool: string): FaultKind | undefined {
    if (this.rules.length === 0) return undefined;
    const rule =
      this.rules.find((candidate) => candidate.target === tool) ??
      this.rules.find((candidate) => candidate.target === "*");
    if (!rule || rule.probability <= 0) return undefined;
    const fired = this.fired.get(rule) ?? 0;
    if (rule.times !== undefined && fired >= rule.times) return undefined;
    if (this.random() >= rule.probability) return undefined;
    this.fired.set(rule, fired + 1);
    return rule.kind;
  }
}
