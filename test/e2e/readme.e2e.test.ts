import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { seedDemo } from "../../scripts/lib/seed.mjs";
import { localRun } from "../../scripts/lib/local-run.mjs";
import { startService } from "../../scripts/lib/service.mjs";
import { differences, shownOutputs, tourBlocks } from "./readme-tour";

// The README's API tour, run as a reader would run it: a fresh `npm run dev`
// service (same starter, same demo seed), the tour's shell blocks in one bash
// session with the keys the dev script prints, and every answer the README
// shows after `# →` compared with what the service answered.
const ADMIN_TOKEN = "readme-admin-token";
const run = await localRun("rfs-readme-");
const dir = run.dir;
let service: Awaited<ReturnType<typeof startService>>;
let keys: Record<string, string>;

beforeAll(async () => {
  // A fresh state: a copy of the global setup's freshly migrated one, which spares a wrangler process
  // (the migrations themselves are what `npm run dev` applies; dev-log-tokens.e2e runs that from nothing).
  const state = join(dir, "state");
  cpSync(inject("migratedState"), state, { recursive: true });
  service = await startService({
    port: run.port,
    persistTo: state,
    vars: { ADMIN_TOKEN, SIGNING_SECRET: "readme-signing-secret", ALLOW_PRIVATE_WEBHOOKS: "true" },
  });
  ({ keys } = await seedDemo({ url: service.url, adminToken: ADMIN_TOKEN, keysFile: join(dir, "demo-keys.json"), origins: [service.url] }));
}, 120_000);

afterAll(() => {
  service?.stop();
  run.remove();
});

/** What a reader pastes in place of the README's `NAME=…` placeholders. */
const placeholders = () => ({
  KEY: keys.partner_sandbox,
  PUBLISHABLE_KEY: keys.partner_publishable,
  LKEY: keys.lender_live,
  ADMIN_TOKEN,
});

function runTour(readme: string) {
  const host = new URL(service.url).host;
  const values = placeholders();
  let script = tourBlocks(readme).join("\n").replaceAll("localhost:8787", host);
  script = script.replace(/^([A-Z_]+)=\S*….*$/gm, (line, name: keyof typeof values) => {
    if (!(name in values)) throw new Error(`the README asks for ${name}, which the test does not know`);
    return `${name}=${values[name]}`;
  });
  const out = join(dir, "out");
  rmSync(out, { recursive: true, force: true });
  const prelude = `set -euo pipefail
mkdir -p "${out}"; echo 0 > "${out}/n"
# every curl's answer is kept, numbered in call order
curl() { local n=$(( $(cat "${out}/n") + 1 )); echo $n > "${out}/n"; command curl "$@" | tee "${out}/$n"; }
`;
  writeFileSync(join(dir, "tour.sh"), prelude + script);
  // From the repository's root, as a reader of the README runs it: the files it uploads are the ones in examples/.
  const run = spawnSync("bash", [join(dir, "tour.sh")], { cwd: process.cwd(), encoding: "utf8" });
  const answers = new Map(
    readdirSync(out)
      .filter((f) => /^\d+$/.test(f) && f !== "n")
      .map((f) => [Number(f), readFileSync(join(out, f), "utf8")] as const),
  );
  return { run, answers, script };
}

describe("the README's API tour against wrangler dev", () => {
  it("runs end to end, and every answer it shows has the shape the service answers with", { timeout: 180_000 }, () => {
    const readme = readFileSync("README.md", "utf8");
    const { run, answers, script } = runTour(readme);
    expect(run.status, `the tour stopped:\n${run.stderr}`).toBe(0);

    // No call of the tour is refused.
    const refused = [...answers].filter(([, body]) => /"type":"[^"]*#error-/.test(body)).map(([n, body]) => `call ${n}: ${body.slice(0, 200)}`);
    expect(refused).toEqual([]);

    const shown = shownOutputs(script);
    expect(shown.length).toBeGreaterThan(15);
    const host = new URL(service.url).host;
    const drift = shown.flatMap(({ call, text, value }) => {
      const answer = answers.get(call);
      if (answer === undefined) return [`call ${call} (${text.slice(0, 60)}…) never ran`];
      const expected = JSON.parse(JSON.stringify(value).replaceAll("localhost:8787", host));
      return differences(expected, JSON.parse(answer)).map((d) => `call ${call}: ${d}`);
    });
    expect(drift).toEqual([]);
  });

  it("uploads only files the repository ships, by their path under examples/", () => {
    const script = tourBlocks(readFileSync("README.md", "utf8")).join("\n");
    const uploaded = [...script.matchAll(/(?:-F\s+\S+=|--data-binary\s+|-d\s+)@([^\s'"]+)/g)].map(([, path]) => path);
    expect(uploaded.length).toBeGreaterThanOrEqual(2);
    for (const path of uploaded) {
      expect(path, "a tour upload names a file under examples/").toMatch(/^examples\//);
      expect(existsSync(path), `${path} exists`).toBe(true);
    }
  });

  it("mentions PORT and sets every variable before using it", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(readme).toMatch(/PORT=\d+ npm run dev/);
    const script = tourBlocks(readme).join("\n");
    const assigned = new Set<string>();
    const unset: string[] = [];
    for (const line of script.split("\n")) {
      if (line.trimStart().startsWith("#")) continue;
      for (const [, name] of line.matchAll(/\$\{?([A-Z_]+)/g)) if (!assigned.has(name)) unset.push(name);
      for (const [, name] of line.matchAll(/(?:^|\s)([A-Z_]+)=/g)) assigned.add(name);
    }
    expect(unset).toEqual([]);
  });
});
