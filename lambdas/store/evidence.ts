// Evidence lives in the runs table; outputs above the inline limit go to S3 and the item keeps
// an `output_ref`, so no DynamoDB item approaches the 400 KB limit and the state payload never
// carries evidence at all.
import type { Evidence } from "../core/types.ts";
import type { BlobStore } from "./blobs.ts";
import type { RunStore } from "./runs.ts";

export class EvidenceStore {
  constructor(
    private readonly runs: RunStore,
    private readonly blobs: BlobStore,
    private readonly artifactsBucket: string,
    private readonly inlineLimitBytes: number,
  ) {}

  /** Stores evidence (first ok writer wins); returns what is stored, with its output resolved. */
  async put(runId: string, evidence: Evidence): Promise<{ stored: Evidence; written: boolean }> {
    let item = evidence;
    if (evidence.output !== undefined) {
      const bytes = Buffer.byteLength(JSON.stringify(evidence.output));
      if (bytes > this.inlineLimitBytes) {
        const { output, ...rest } = evidence;
        const ref = await this.blobs.putJson(
          { bucket: this.artifactsBucket, key: `runs/${runId}/evidence/${evidence.step_id}.json` },
          output,
        );
        item = { ...rest, output_ref: ref };
      }
    }
    const { stored, written } = await this.runs.putEvidence(runId, item);
    return { stored: written ? evidence : await this.resolve(stored), written };
  }

  /** Evidence of the given steps with outputs resolved from S3 where they were offloaded. */
  async load(runId: string, stepIds: string[]): Promise<Map<string, Evidence>> {
    return this.resolveAll([...(await this.runs.getEvidence(runId, stepIds)).values()]);
  }

  /** The evidence of a plan's steps, in plan order, outputs resolved; steps not run yet are left out. */
  async ofPlan(runId: string, plan: { steps: ReadonlyArray<{ id: string }> }): Promise<Evidence[]> {
    const byStep = await this.load(
      runId,
      plan.steps.map((step) => step.id),
    );
    return plan.steps.flatMap((step) => {
      const item = byStep.get(step.id);
      return item ? [item] : [];
    });
  }

  /** Evidence read elsewhere (a worker's one Query of the run), outputs resolved, by step id. */
  async resolveAll(items: readonly Evidence[]): Promise<Map<string, Evidence>> {
    const resolved = await Promise.all(items.map((item) => this.resolve(item)));
    return new Map(resolved.map((item) => [item.step_id, item]));
  }

  async resolve(evidence: Evidence): Promise<Evidence> {
    if (evidence.output !== undefined || !evidence.output_ref) return evidence;
    return { ...evidence, output: await this.blobs.getJson(evidence.output_ref) };
  }
}
