// A second held-out check, designed without reading the finders: two Form 1120 prints and three
// bank layouts unlike the ones the engine was tuned on. Form 1120: a tax package's landscape
// "two-up" print (two form pages side by side, so extracted lines interleave both halves) and a
// return whose page 1 comes after a long federal statement set, its form pages scanned and OCRed
// (words broken by stray spaces), Schedules L, M-1 and M-2 on one page. Banks: a brokerage cash
// management account (Schwab-style "December 1-31, 2025" period, parenthesized debits, an
// alphanumeric account number), a small savings bank's passbook-style ledger (unsigned amounts in
// withdrawal/deposit columns, running balance going negative with a leading minus) and a business
// bank's relationship summary page followed by per-account detail pages (company holder with an
// authorized signer, or a sole proprietor "DBA"). Labels come from the generation parameters only.
import type { SampleDocument } from "../samples.ts";
import type { LabelledCase } from "./cases.ts";
import { brokerageCases } from "./holdout-2/brokerage.ts";
import { businessCases } from "./holdout-2/business.ts";
import { taxMetadata, trLabels } from "./holdout-2/pages.ts";
import { passbookCases } from "./holdout-2/passbook.ts";
import { statementsFirstReturn } from "./holdout-2/statements-first-return.ts";
import { twoUpReturn } from "./holdout-2/two-up-return.ts";

async function returnCases(): Promise<LabelledCase[]> {
  const casco = "Casco Bay Provisions, Inc.";
  const harbor = "Harbor Light Marine Services Inc";
  const twoUp = "1120-landscape-two-up";
  const stated = "1120-statements-first-ocr";
  const doc = (key: string, bytes: Uint8Array, description: string): SampleDocument => ({
    key: `rm-conditions/holdout-2/${key}`,
    bytes,
    description,
  });
  return [
    {
      layout: twoUp,
      description: "signed 2024 return, everything matches",
      documents: [
        doc(
          "casco-1120-2024.pdf",
          await twoUpReturn({
            name: casco,
            ein: "01-0456789",
            year: 2024,
            signature: { name: "Elena V. Marsh", date: "03/03/2025", title: "CEO" },
            pageOne: true,
            scheduleL: true,
          }),
          "two-up print, signed",
        ),
      ],
      metadata: taxMetadata("Casco Bay Provisions", "01-0456789", 2024),
      labels: trLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout: twoUp,
      description: "unsigned 2022 return filed under another EIN; 2024 expected",
      documents: [
        doc(
          "casco-1120-2022.pdf",
          await twoUpReturn({ name: casco, ein: "01-0456798", year: 2022, pageOne: true, scheduleL: true }),
          "two-up print, unsigned",
        ),
      ],
      metadata: taxMetadata("Casco Bay Provisions Inc", "01-0456789", 2024),
      labels: trLabels(["not_fulfilled", "not_fulfilled", "not_fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout: twoUp,
      description: "another corporation's signed return, second sheet without Schedule L",
      documents: [
        doc(
          "casco-trading-1120.pdf",
          await twoUpReturn({
            name: "Casco Bay Trading Co.",
            ein: "01-0456789",
            year: 2024,
            signature: { name: "Peter Lund", date: "03/11/2025", title: "Treasurer" },
            pageOne: true,
            scheduleL: false,
          }),
          "two-up print, Schedule L half blank",
        ),
      ],
      metadata: taxMetadata("Casco Bay Provisions, Inc.", "01-0456789"),
      labels: trLabels(["fulfilled", "fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
    {
      layout: stated,
      description: "statements first, scanned signed page 1 and Schedules L/M-1/M-2; all match",
      documents: [
        doc(
          "harbor-light-2024.pdf",
          await statementsFirstReturn({
            name: harbor,
            ein: "83-1122334",
            year: 2024,
            signature: { name: "Marcus T. Webb", date: "03/14/2025", title: "President" },
            pageOne: true,
            scheduleL: true,
          }),
          "statements, then OCR form pages",
        ),
      ],
      metadata: taxMetadata("Harbor Light Marine Services, Inc.", "83-1122334", 2024),
      labels: trLabels(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout: stated,
      description: "unsigned scan of a 2022 return; EIN on file differs; name matches",
      documents: [
        doc(
          "harbor-light-2022.pdf",
          await statementsFirstReturn({
            name: harbor,
            ein: "83-1122334",
            year: 2022,
            pageOne: true,
            scheduleL: true,
          }),
          "statements, then unsigned OCR form pages",
        ),
      ],
      metadata: taxMetadata("Harbor Light Marine Services", "83-4455667"),
      labels: trLabels(["not_fulfilled", "not_fulfilled", "not_fulfilled", "fulfilled", "fulfilled"]),
    },
    {
      layout: stated,
      description: "signed, but a different corporation's return and only M-1/M-2 on the schedules page",
      documents: [
        doc(
          "harbor-view-2024.pdf",
          await statementsFirstReturn({
            name: "Harbor View Marine Storage Corp",
            ein: "83-1122334",
            year: 2024,
            signature: { name: "Marcus T. Webb", date: "03/14/2025", title: "President" },
            pageOne: true,
            scheduleL: false,
          }),
          "statements, then OCR page 1 and M-1/M-2 without Schedule L",
        ),
      ],
      metadata: taxMetadata("Harbor Light Marine Services Inc", "83-1122334", 2024),
      labels: trLabels(["fulfilled", "fulfilled", "fulfilled", "not_fulfilled", "not_fulfilled"]),
    },
  ];
}

/** Every case of the second held-out check: two Form 1120 prints, then three bank layouts. */
export async function holdoutCases2(): Promise<LabelledCase[]> {
  return [
    ...(await returnCases()),
    ...(await brokerageCases()),
    ...(await passbookCases()),
    ...(await businessCases()),
  ];
}
