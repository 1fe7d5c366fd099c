// The twin's log file: where a twin booted by a CLI command writes what the functions and the twin
// itself log (TwinOptions.logFile), instead of the terminal the command talks to a person on.

import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, stat } from "node:fs/promises";
import { dirname } from "node:path";

/** Above this size the file is moved to `<file>.1` (replacing an older one) before the twin appends. */
export const MAX_LOG_BYTES = 10 * 1024 * 1024;

export interface TwinLog {
  file: string;
  stream: WriteStream;
  /** One line of the twin's own (gateway failures, warnings). */
  line(text: string): void;
  close(): Promise<void>;
}

export async function openTwinLog(file: string): Promise<TwinLog> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const size = await stat(file).then(
    (stats) => stats.size,
    () => 0,
  );
  if (size > MAX_LOG_BYTES) await rename(file, `${file}.1`);
  // Owner-only, like the data beside it: a line may name a run or a document.
  const stream = createWriteStream(file, { flags: "a", mode: 0o600 });
  await once(stream, "open");
  return {
    file,
    stream,
    line: (text) => {
      stream.write(`${text}\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        stream.end(() => resolve());
      }),
  };
}
