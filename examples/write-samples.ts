// Writes the sample loan files to disk, to open them in a PDF viewer or to evaluate them as local
// files: `npx tsx examples/write-samples.ts [directory]` (default .rewoo/samples). The scanned
// copies land in rm-conditions/scanned/ (generated once per machine, then read from the cache).
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { generateSampleDocuments } from "./samples.ts";
import { generateScannedSampleDocuments } from "./scanned.ts";

const directory = resolve(process.argv[2] ?? ".rewoo/samples");
const text = await generateSampleDocuments();
const scanned = await generateScannedSampleDocuments({
  sources: text,
  onGenerate: () => console.error("generating the scanned samples (once per machine, about 15 s)"),
});
for (const sample of [...text, ...scanned]) {
  const path = join(directory, sample.key);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, sample.bytes);
  console.log(`${path}  ${sample.description}`);
}
