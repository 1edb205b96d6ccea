import { statSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** A binary, not a missing path nor something mounted over it (the issue-28 reproduction binds /dev/null there). */
const isBinary = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

const SYSTEM_CHROMIUMS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/**
 * Which Chromium the browser tests use: `CHROMIUM_PATH`, else a system Chromium, else (Linux x64) the
 * Chromium that the dev dependency @sparticuz/chromium ships inside its package: it inflates to
 * os.tmpdir()/chromium on first use (about 15 s) and needs only libc, so `npm ci` is all a machine needs.
 */
export async function chromiumPath(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!isBinary(chosen)) throw new Error(`CHROMIUM_PATH=${chosen} does not exist: point it at a Chromium binary, or unset it`);
    return chosen;
  }
  const system = SYSTEM_CHROMIUMS.find(isBinary);
  if (system) return system;
  if (process.platform === "linux" && process.arch === "x64") {
    const { default: packaged } = await import("@sparticuz/chromium");
    return packaged.executablePath();
  }
  throw new Error(
    `No Chromium for the browser tests on ${process.platform}-${process.arch}: install one (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary; the npm-provided @sparticuz/chromium is Linux x64 only`,
  );
}

/** Chromium, headless, with the flags this machine's closed network needs. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: await chromiumPath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
