// Writes the sample loan files to disk, to open them in a PDF viewer or to evaluate them as local
// files: `npx tsx examples/write-samples.ts [directory]` (default .rewoo/samples).
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { generateSampleDocuments } from "./samples.ts";

const directory = resolve(process.argv[2] ?? ".rewoo/samples");
for (const sample of await generateSampleDocuments()) {
  const path = join(directory, sample.key);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, sample.bytes);
  console.log(`${path}  ${sample.description}`);
}
