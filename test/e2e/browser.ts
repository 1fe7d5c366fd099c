// How every browser test launches Debian's chromium through playwright-core (never a downloaded
// browser): headless, in the profile folder the test made for itself (no cache or service worker of an
// earlier run answers for the twin), with the flags this machine's closed network needs (no background
// connections, QUIC, component updates or sync, which would be refused many at a time).
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(
  profileDir: string,
  options: { viewport: { width: number; height: number }; acceptDownloads?: boolean },
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    ...options,
  });
}
