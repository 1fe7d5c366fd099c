// Form 1120 prints in layouts the sample generator does not make, labelled from how each file was
// generated. Each layout carries the traps real prints have: the paid preparer's own name, date,
// signature and EIN; a filing-instructions cover letter that names the return, the IRS service
// center's address and "Signature of officer"; Schedule K's "name and EIN of the parent
// corporation"; Form 1125-A's header; prior-year columns; a blank officer box under a filled
// preparer block.
import type { SampleDocument } from "../samples.ts";
import type { LabelledCase } from "./cases.ts";
import { fillableForm, fillableVariants } from "./form-1120/fillable-form.ts";
import { fiscalElectronic, fiscalVariants } from "./form-1120/fiscal-electronic.ts";
import { irsSplitLabels, irsVariants } from "./form-1120/irs-split-labels.ts";
import type { Builder, Variant } from "./form-1120/print.ts";
import { scriptVariants, signatureTableScript } from "./form-1120/signature-table-script.ts";
import { softwareHeaderTable, softwareVariants } from "./form-1120/software-header-table.ts";

export type { ReturnFacts } from "./form-1120/print.ts";

const LAYOUTS: Array<{ layout: string; build: Builder; variants: () => Variant[] }> = [
  { layout: "1120-software-header-table", build: softwareHeaderTable, variants: softwareVariants },
  { layout: "1120-irs-split-labels", build: irsSplitLabels, variants: irsVariants },
  { layout: "1120-signature-table-script", build: signatureTableScript, variants: scriptVariants },
  { layout: "1120-fiscal-e-signature", build: fiscalElectronic, variants: fiscalVariants },
  { layout: "1120-fillable-form", build: fillableForm, variants: fillableVariants },
];

export const FORM_1120_LAYOUTS: ReadonlyArray<string> = LAYOUTS.map((entry) => entry.layout);

/** Every layout's variants: each TR_ condition fulfilled and not fulfilled on every layout. */
export async function form1120Cases(): Promise<LabelledCase[]> {
  const cases: LabelledCase[] = [];
  for (const { layout, build, variants } of LAYOUTS) {
    for (const variant of variants()) {
      const document: SampleDocument = {
        key: `layouts/${layout}/${variant.slug}.pdf`,
        bytes: await build(variant.facts),
        description: variant.description,
      };
      cases.push({
        layout,
        description: `${variant.slug}: ${variant.description}`,
        documents: [document],
        metadata: variant.metadata,
        labels: variant.labels,
      });
    }
  }
  return cases;
}
