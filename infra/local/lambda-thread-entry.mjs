// The inside of a twin Lambda thread (see lambda-thread.ts): loads one handler module (TypeScript,
// through tsx, as `npm start` does) and answers the invocations the twin sends it, one message each.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const loaded = await import(workerData.module);
const handler = loaded[workerData.exportName];
if (typeof handler !== "function") {
  throw new Error(`${workerData.module} exports no function ${workerData.exportName}`);
}
parentPort.on("message", async ({ id, event }) => {
  try {
    parentPort.postMessage({ id, result: await handler(event) });
  } catch (error) {
    const { name = "Error", message = String(error), stack } = error instanceof Error ? error : {};
    parentPort.postMessage({ id, error: { name, message, stack } });
  }
});
parentPort.postMessage({ ready: true });
