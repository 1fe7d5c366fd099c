// What the tools do when they run: the reference engines, document reading (PDF text extraction,
// whose library is most of a bundle), the lender's services and the banking tools' core-banking store. Only the worker runs tools, and only
// its entry imports this module (lambdas/worker/index.ts links it with linkToolRuntime).

import { bankingToolRunners } from "../agents/banking/banking-tools.ts";
import { type LoanToolServices, loanToolRunners } from "../agents/loan/loan-tools.ts";
import type { ModelBinding } from "../llm/index.ts";
import { CoreBankingStore } from "../store/core-banking.ts";
import { DocumentReader } from "../tools/document-reader.ts";
import { createLenderCalls } from "../tools/lender-client.ts";
import { ocrEngineFor } from "../tools/ocr/select.ts";
import { createLogger } from "./logger.ts";
import type { BaseServices, ToolRunners } from "./services.ts";
import { remainingTimeBudgetMs } from "./time-budget.ts";
import { functionTracer } from "./tracer.ts";

export function workerToolRuntime(base: BaseServices, toolModel: () => ModelBinding): ToolRunners {
  const lender = createLenderCalls(base.config.lender, { now: base.now, region: base.config.region });
  // Pages without a text layer: Textract in AWS, tesseract offline, or left unread (REWOO_OCR_ENGINE).
  const logger = createLogger("rewoo-ocr");
  const ocr = ocrEngineFor(base.config, {
    deadline: remainingTimeBudgetMs,
    onWarning: (message) => logger.warn("OCR read a document only in part", { detail: message }),
    captureClient: (client) => functionTracer().captureAWSv3Client(client),
  });
  const services: LoanToolServices = {
    documents: new DocumentReader(base.blobs, base.documentPolicy, ocr ? { ocr } : {}),
    ocrMinConfidence: base.config.ocr.minConfidence,
    runs: base.runs,
    now: base.now,
    documentPolicy: base.documentPolicy,
    ...(lender ? { lender } : {}),
    // Read when a tool calls its model, by then built in every function that runs tools.
    get llm() {
      return toolModel();
    },
  };
  let banking: CoreBankingStore | undefined;
  return {
    loan: loanToolRunners(() => services),
    banking: bankingToolRunners(() => {
      // Only the worker is given the table (and the grant).
      const table = base.config.coreBankingTable;
      if (!table) throw new Error("banking tools need the core-banking table: CORE_BANKING_TABLE is not set");
      banking ??= new CoreBankingStore(base.clients.ddb, table, base.now);
      return banking;
    }),
  };
}
