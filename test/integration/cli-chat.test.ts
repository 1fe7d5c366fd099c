// `rewoo chat` as a person runs it: a separate process on a data folder of its own, booting the twin
// (or going through the `rewoo dev` that serves the folder), signed in as a demo customer with the
// twin's secret, holding the banking assistant's example conversations.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { verifyToken } from "../../lambdas/auth/tokens.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

async function rewoo(args: string[], env: Record<string, string>, input?: string) {
  const child = run("node", ["bin/rewoo.mjs", ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1", ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (input !== undefined) child.child.stdin?.end(input);
  else child.child.stdin?.end();
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The printed conversation: every `you:` / `assistant:` line and the state line under each reply. */
const turns = (stdout: string) =>
  stdout.split("\n").filter((line) => /^(you: |assistant: | {2}\[)/.test(line));

describe("rewoo chat --local", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "rewoo-chat-data-"));
  const env = { REWOO_DATA_DIR: dataDir };

  it('blocks the debit card: "I lost my card", then "the debit one"', async () => {
    const { code, stdout, stderr } = await rewoo(
      ["chat", "--local", "--message", "I lost my card", "--message", "the debit one"],
      env,
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = turns(stdout);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe("you: I lost my card");
    expect(lines[1]).toMatch(/^assistant: Which card is it: your debit card or your credit card/);
    expect(lines[2]).toMatch(/^ {2}\[awaiting_clarification · plan \d+\/10\]$/);
    expect(lines[3]).toBe("you: the debit one");
    expect(lines[4]).toMatch(/^assistant: I've blocked your debit card ending 4321\./);
    expect(lines[5]).toMatch(/^ {2}\[completed · plan \d+\/10 · execution \d+\/10\]$/);
  });

  it('sends 50 dollars to Sam once confirmed with "yes", and prints the new balance', async () => {
    const { code, stdout } = await rewoo(
      [
        "chat",
        "--local",
        "--customer",
        "cust_alice",
        "--message",
        "send 50 dollars to Sam",
        "--message",
        "from checking",
        "--message",
        "yes",
      ],
      env,
    );
    expect(code).toBe(0);
    const lines = turns(stdout);
    expect(lines.filter((line) => line.startsWith("you: "))).toEqual([
      "you: send 50 dollars to Sam",
      "you: from checking",
      "you: yes",
    ]);
    expect(lines[1]).toMatch(/^assistant: From which account/);
    expect(lines[2]).toMatch(/^ {2}\[awaiting_clarification · /);
    expect(lines[4]).toMatch(
      // The confirmation names what will move, as Alice's holdings name it.
      /^assistant: Please confirm: send 50\.00 USD from your checking account ending 1234 to Sam Lee\./,
    );
    expect(lines[5]).toMatch(/^ {2}\[awaiting_approval · plan \d+\/10\]$/);
    // Alice's checking account was seeded with 2,500.00 USD in this fresh data folder.
    expect(lines[7]).toMatch(
      /^assistant: Done: I sent 50\.00 USD to Sam Lee from your Everyday Checking ending 1234\. Its balance is now 2,450\.00 USD\./,
    );
    expect(lines[8]).toMatch(/^ {2}\[completed · plan \d+\/10 · execution \d+\/10\]$/);
  });

  it("--json prints each raw answer as a JSON line, all in one session", async () => {
    const { code, stdout } = await rewoo(
      [
        "chat",
        "--local",
        "--customer",
        "cust_bob",
        "--message",
        "what's my balance",
        "--message",
        "checking",
        "--json",
      ],
      env,
    );
    expect(code).toBe(0);
    const answers = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(answers.map((answer) => answer.state)).toEqual(["awaiting_clarification", "completed"]);
    expect(answers[0].session_id).toMatch(/^sess-/);
    expect(answers[1].session_id).toBe(answers[0].session_id);
    expect(answers[1].run_id).toBe(answers[0].run_id);
    expect(answers[1].reply).toBe("Your Checking ending 1111 has a balance of 40.00 USD.");
    expect(answers[1].execution_review_score).toBeGreaterThanOrEqual(1);
  });

  it("refuses an unknown demo customer before anything boots (exit 2)", async () => {
    const { code, stdout, stderr } = await rewoo(
      ["chat", "--local", "--customer", "cust_zed", "--message", "hi"],
      env,
    );
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(
      '--customer: unknown demo customer "cust_zed"; the twin\'s demo customers are cust_alice, cust_sam, cust_bob',
    );
  });

  it("goes through the `rewoo dev` serving the folder, whose printed chat link signs in as cust_alice", async () => {
    const dev = spawn("node", ["bin/rewoo.mjs", "dev", "--no-sample", "--port", "0"], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let printed = "";
    dev.stdout.on("data", (chunk) => {
      printed += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => dev.on("exit", resolve));
    try {
      await expect.poll(() => printed, { timeout: 60_000 }).toMatch(/serving until Ctrl-C/);
      const chatLink =
        /^Chat {7}(http:\/\/127\.0\.0\.1:\d+\/\?customer_token=([\w.-]+)#\/chat) {2}\(the banking assistant as cust_alice\)$/m.exec(
          printed,
        );
      expect(chatLink).not.toBeNull();
      const token = chatLink?.[2] ?? "";
      const customerKey = readFileSync(join(dataDir, "token-keys", "customer"), "utf8").trim();
      const keys = { customer: { current: customerKey } };
      expect(verifyToken(token, { accept: ["customer"], keys }).scope).toEqual({
        kind: "customer",
        customer_id: "cust_alice",
      });

      // The prompt, fed through a pipe.
      const { code, stdout } = await rewoo(["chat", "--local"], env, "what is my savings balance\nquit\n");
      expect(code).toBe(0);
      // No twin of its own: the folder's is in use by `rewoo dev`.
      expect(stdout).not.toMatch(/^local twin: /m);
      expect(turns(stdout)).toEqual([
        "you: what is my savings balance",
        "assistant: Your Savings ending 5678 has a balance of 10,000.00 USD.",
        expect.stringMatching(/^ {2}\[completed · plan \d+\/10 · execution \d+\/10\]$/),
      ]);
      expect(stdout).toMatch(
        /session (sess-[\w-]+); to go on with it: REWOO_DATA_DIR=\S+ npx rewoo chat --session \1 --local/,
      );
    } finally {
      dev.kill("SIGINT");
      expect(await exited).toBe(0);
    }
  });
});
