// Before any test file runs: the scanned sample documents, generated once per machine (about 15 s on
// a fresh install) into node_modules/.cache. The files that boot the twin or the Textract emulator
// read them; generated here first, none of them waits out another's generation under the load of the
// whole suite running in parallel (a cold cache once made such a wait time out).
import { generateScannedSampleDocuments } from "../examples/scanned.ts";

export default async function setup(): Promise<void> {
  await generateScannedSampleDocuments();
}
