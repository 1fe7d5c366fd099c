// Held-out loan files: two Form 1120 prints and three bank-statement layouts designed without
// looking at the engines' finders or at the other layout sets, so that the matrix they feed says
// how the engines fare on documents nobody tuned them for. They imitate real documents: an e-filed
// client copy with its Form 8879-CORP in front, a CPA firm's copy of a fiscal-year return behind a
// transmittal letter, a national bank's statement with wrapped descriptions and a running balance,
// a bilingual credit-union statement with share sub-accounts, a fintech statement with signed
// amounts. The labels come from the generation parameters (who signed, which fee was charged),
// never from running the engine.
import type { LabelledCase } from "./cases.ts";
import { cpaCopyCases } from "./holdout/cpa-firm-copy.ts";
import { creditUnionCases } from "./holdout/credit-union.ts";
import { efileCases } from "./holdout/efile-client-copy.ts";
import { fintechCases } from "./holdout/fintech.ts";
import { nationalBankCases } from "./holdout/national-bank.ts";

/** Every held-out case: the two Form 1120 prints first, then the three bank layouts. */
export async function holdoutCases(): Promise<LabelledCase[]> {
  return [
    ...(await efileCases()),
    ...(await cpaCopyCases()),
    ...(await nationalBankCases()),
    ...(await creditUnionCases()),
    ...(await fintechCases()),
  ];
}
