import { parsePlanText } from "./lambdas/core/parse.ts";
for (const text of ["[".repeat(200000), "[{".repeat(50000), '{"'.repeat(50000), "#E1 = T[".repeat(30000)]) {
  const t = Date.now();
  try { parsePlanText(text); } catch (e) { console.log((e as Error).message.slice(0, 80)); }
  console.log(text.length, Date.now() - t, "ms");
}
