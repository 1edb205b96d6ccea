// Which Chromium the browser tests start and how: no vitest here, so the e2e global setup (which
// starts one Chromium server per lane) imports it too. test/browser/browser.ts re-exports it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from "playwright-core";

/** A binary, not a missing path nor something mounted over it (the issue-28 reproduction binds /dev/null there). */
const isBinary = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

const SYSTEM_CHROMIUMS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** Which Chromium to start, and the library path the packaged one needs beside it. */
export interface ChromiumTarget {
  path: string;
  /** Directories to put first on LD_LIBRARY_PATH (the packaged Chromium's NSS and expat). */
  libraryPath?: string;
}

/**
 * The shared libraries the packaged Chromium links beyond libc (NSS, NSPR, expat), which a machine
 * with only Node and npm lacks: @sparticuz/chromium ships them as `al2023.tar.br` but unpacks them only
 * on AWS Lambda. They are unpacked here to os.tmpdir()/al2023/lib (its own layout), once.
 */
function packagedLibraries(packageEntry: string): string {
  const lib = join(tmpdir(), "al2023", "lib");
  if (existsSync(join(lib, "libnss3.so"))) return lib;
  const archive = join(dirname(packageEntry), "..", "..", "bin", "al2023.tar.br");
  mkdirSync(join(tmpdir(), "al2023"), { recursive: true });
  const untar = spawnSync("tar", ["-x", "-C", join(tmpdir(), "al2023")], { input: brotliDecompressSync(readFileSync(archive)) });
  if (untar.status !== 0) throw new Error(`Could not unpack the packaged Chromium's libraries (${archive}): tar ${untar.error?.message ?? untar.stderr.toString().trim()}`);
  return lib;
}

/** The Chromium that the dev dependency @sparticuz/chromium ships (Linux x64), inflated on first use, with its libraries. */
async function packagedChromium(): Promise<ChromiumTarget> {
  const { default: packaged } = await import("@sparticuz/chromium");
  const path = await packaged.executablePath();
  // createRequire, not import.meta.resolve: the e2e global setup loads this file through vitest's module runner, which lacks it.
  return { path, libraryPath: packagedLibraries(createRequire(import.meta.url).resolve("@sparticuz/chromium")) };
}

const hasPackagedChromium = () => process.platform === "linux" && process.arch === "x64";

/**
 * Which Chromium the browser tests use: `CHROMIUM_PATH`, else (Linux x64) the Chromium that the dev
 * dependency @sparticuz/chromium ships inside its package, else a system Chromium. The packaged one is
 * a headless shell (no browser UI behind the page): on the five heaviest browser files it spent about
 * half the CPU of the system Chromium's `--headless` (docs/testing.md, "Browser tests: Chromium's CPU").
 * It inflates to os.tmpdir()/chromium on first use (about 15 s) with its own NSS and expat libraries, so
 * `npm ci` is all a machine needs. The docs' screenshots (`DOCS_SCREENSHOTS=1`) are still taken with a
 * system Chromium where there is one, so that docs/portal/*.png keep the fonts they were taken with.
 * The answer is kept for the process: the two lanes of the e2e global setup ask at once, and two
 * inflations at the same time would write one file twice.
 */
export function chromiumTarget(): Promise<ChromiumTarget> {
  if (!chosenTarget) {
    chosenTarget = pickChromium();
    chosenTarget.catch(() => (chosenTarget = undefined));
  }
  return chosenTarget;
}
let chosenTarget: Promise<ChromiumTarget> | undefined;

async function pickChromium(): Promise<ChromiumTarget> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!isBinary(chosen)) throw new Error(`CHROMIUM_PATH=${chosen} does not exist: point it at a Chromium binary, or unset it`);
    return { path: chosen };
  }
  const system = SYSTEM_CHROMIUMS.find(isBinary);
  if (hasPackagedChromium() && !(system && process.env.DOCS_SCREENSHOTS === "1")) return packagedChromium();
  if (system) return { path: system };
  throw new Error(
    `No Chromium for the browser tests on ${process.platform}-${process.arch}: install one (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary; the npm-provided @sparticuz/chromium is Linux x64 only`,
  );
}

/** How Chromium is started: headless, with the flags this machine's closed network needs. */
async function launchOptions(): Promise<{ target: ChromiumTarget; options: LaunchOptions }> {
  const target = await chromiumTarget();
  const env = target.libraryPath ? { ...process.env, LD_LIBRARY_PATH: [target.libraryPath, process.env.LD_LIBRARY_PATH].filter(Boolean).join(":") } : undefined;
  return {
    target,
    options: {
      executablePath: target.path,
      env,
      // `--js-flags=--single-threaded`: V8 in each page compiles and collects garbage on the page's own thread, without
      // helper threads that, on two cores shared with the service and the tests, mostly wait for each other (Chromium
      // spent 39 % of its CPU in the kernel). Paired runs of the same browser files: 34.8/29.6/35.6 CPU-s of Chromium
      // without it, 26.4/26.0/31.1 with it (docs/testing.md, "V8 without helper threads in the test pages").
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--js-flags=--single-threaded"],
    },
  };
}

/** Playwright's launch error is a page of browser logs; the first line names the cause (e.g. a missing library). */
function launchError(target: ChromiumTarget, error: unknown): Error {
  const missing = /error while loading shared libraries: ([^:\s]+)/.exec(String(error));
  if (missing) return new Error(`Chromium at ${target.path} cannot start: the shared library ${missing[1]} is missing (install it, or set CHROMIUM_PATH to a Chromium that runs here)`);
  return error instanceof Error ? error : new Error(String(error));
}

/** Chromium, headless, with the flags this machine's closed network needs. */
export async function launchChromium(): Promise<Browser> {
  const { target, options } = await launchOptions();
  try {
    return await chromium.launch(options);
  } catch (error) {
    throw launchError(target, error);
  }
}

/** The same Chromium as a server that test files connect to (the e2e global setup starts one per lane). */
export async function launchChromiumServer(): Promise<BrowserServer> {
  const { target, options } = await launchOptions();
  try {
    return await chromium.launchServer(options);
  } catch (error) {
    throw launchError(target, error);
  }
}

