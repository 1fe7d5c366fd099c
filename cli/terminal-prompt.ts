// Reading an answer from the person at the terminal: plainly with readline under the printed lines,
// or inside the live task list as its prompt (listr2's prompt adapter, so the display does not draw
// over what is typed). Either way a withdrawn question (someone else answered, the run ended) stops
// the prompt, and Ctrl-C interrupts the CLI as it does anywhere else.
import { emitKeypressEvents } from "node:readline";
import { createInterface } from "node:readline/promises";
import { ListrPromptAdapter, ListrTaskEventType } from "listr2";

/** The terminal's input (a TTY in real use; any readable stream in tests). */
export type PromptInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** Ctrl-C while a prompt holds the terminal: the same interrupt the shell would have sent. */
function interrupt(): void {
  process.kill(process.pid, "SIGINT");
}

/** One line read with readline; undefined when the question was withdrawn or the input ended. */
export async function readLine(
  prompt: string,
  signal: AbortSignal,
  io: { input: PromptInput; output: NodeJS.WritableStream },
): Promise<string | undefined> {
  if (signal.aborted) return undefined;
  const lines = createInterface({ input: io.input, output: io.output, terminal: io.input.isTTY === true });
  lines.on("SIGINT", () => {
    lines.close();
    interrupt();
  });
  try {
    return await new Promise<string | undefined>((resolve, reject) => {
      lines.once("close", () => resolve(undefined));
      lines.question(prompt, { signal }).then(resolve, (error: Error) => {
        if (error.name === "AbortError") resolve(undefined);
        else reject(error);
      });
    });
  } finally {
    lines.close();
  }
}

/**
 * A one-line prompt drawn by the live task list (`task.prompt(KeypressPrompt).run(...)`): keys are
 * read in raw mode and the line is echoed through the task's prompt output, which the renderer
 * draws under the tasks.
 */
export class KeypressPrompt extends ListrPromptAdapter {
  // The adapter's contract is generic in what a prompt returns; this one returns the line typed.
  async run<T = string | undefined>(
    prompt: string,
    options: { signal: AbortSignal; input: PromptInput },
  ): Promise<T> {
    return (await this.readLine(prompt, options)) as T;
  }

  private async readLine(
    prompt: string,
    options: { signal: AbortSignal; input: PromptInput },
  ): Promise<string | undefined> {
    const { signal, input } = options;
    if (signal.aborted) return undefined;
    const output = this.wrapper.stdout(ListrTaskEventType.PROMPT);
    this.reportStarted();
    let line = "";
    const show = () => output.write(`${prompt}${line}_`);
    emitKeypressEvents(input);
    const raw = input.isTTY === true && typeof input.setRawMode === "function";
    if (raw) input.setRawMode?.(true);
    let onKey: ((text: string | undefined, key: KeyInfo | undefined) => void) | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<string | undefined>((resolve) => {
        onAbort = () => resolve(undefined);
        signal.addEventListener("abort", onAbort, { once: true });
        onKey = (text, key) => {
          if (key?.ctrl && key.name === "c") {
            resolve(undefined);
            interrupt();
            return;
          }
          if (key?.name === "return" || key?.name === "enter") return resolve(line);
          if (key?.name === "escape" || (key?.ctrl && key.name === "d" && line === "")) {
            return resolve(undefined);
          }
          if (key?.name === "backspace") line = line.slice(0, -1);
          else if (text && !key?.ctrl && !key?.meta && text >= " ") line += text;
          show();
        };
        input.on("keypress", onKey);
        input.resume();
        show();
      });
    } finally {
      if (onKey) input.off("keypress", onKey);
      if (onAbort) signal.removeEventListener("abort", onAbort);
      if (raw) input.setRawMode?.(false);
      input.pause();
      this.reportCompleted();
    }
  }
}

interface KeyInfo {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}
