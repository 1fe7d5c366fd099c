// The twin's log file: appended to across boots, moved aside once it is large, owner-only.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_LOG_BYTES, openTwinLog } from "../../../infra/local/twin-log.ts";

describe("openTwinLog", () => {
  it("appends each boot's lines to the same file, owner-only", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "twin-log-")), "nested", "twin.log");
    const first = await openTwinLog(file);
    first.line("[rewoo twin] first boot");
    await first.close();
    const second = await openTwinLog(file);
    second.stream.write('{"level":"WARN","message":"tool failed"}\n');
    await second.close();
    expect(readFileSync(file, "utf8")).toBe(
      '[rewoo twin] first boot\n{"level":"WARN","message":"tool failed"}\n',
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("moves a file above the limit to <file>.1 and starts a new one", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "twin-log-")), "twin.log");
    writeFileSync(file, "x".repeat(MAX_LOG_BYTES + 1));
    const log = await openTwinLog(file);
    log.line("after the move");
    await log.close();
    expect(readFileSync(file, "utf8")).toBe("after the move\n");
    expect(statSync(`${file}.1`).size).toBe(MAX_LOG_BYTES + 1);
  });
});
