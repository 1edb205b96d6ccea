// The house rules of docs/architecture.md as data: which floor a module sits on and what
// each floor may import. Pure, so it runs inside workerd on the graph the Node side collected.

export type ImportGraph = Record<string, string[]>;

/**
 * The floors of src/, lowest first (docs/architecture.md, "The floors" shows this table). A module may
 * import from a lower floor or from its own folder, never from a floor above or from another folder on its
 * own floor (db and registers are neighbours that do not lean on each other), except through a named
 * exception below. The entry files sit on top: app.ts composes the doors, index.ts hands app.ts, the
 * Durable Objects and the jobs to the runtime; dev/ (seed data for local runs) is imported by nothing
 * that serves, so it sits above everything it may read.
 */
export const FLOORS: Readonly<Record<string, number>> = {
  lib: 1,
  domain: 2,
  db: 3,
  registers: 3,
  "durable-objects": 4,
  services: 5,
  jobs: 6,
  "app-env": 6,
  middleware: 7,
  api: 8,
  web: 9,
  app: 10,
  dev: 10,
  index: 11,
};

/** The doors that answer HTTP (the JSON wings under api/, the HTML wings under web/); none reads storage or leans on another. */
export const ROUTE_FOLDERS = ["api/partner", "api/lender", "api/admin", "api/health", "api/shared", "api/reference", "web/hub", "web/portal", "web/files", "web/apply"] as const;

/** What every door may use: the API's own ground (router, OpenAPI helpers, problem+json), what both APIs mount, the reference, the web kit. */
const SHARED_DOOR_FLOORS = ["api", "api/shared", "api/reference", "api/health", "web/kit"];

export interface Breach {
  from: string;
  to: string;
  rule: string;
}

/** An import a rule would refuse, allowed by name, with the reason it is right where it is. */
export interface Exception {
  from: string;
  to: string;
  reason: string;
}

/** The top folder of src/ a module sits in ("src/db/leads/leads.ts" → "db"; "src/app.ts" → "app"): the unit of the floor order. */
export function topFolderOf(path: string): string {
  return path.split("/")[1]!.replace(/\.tsx?$/, "");
}

/**
 * "src/domain/leads/view.ts" → "domain"; the doors count by wing ("src/api/partner/leads/routes.ts" →
 * "api/partner", "src/api/router.ts" → "api"); top-level files (app.ts, index.ts) → the file name.
 */
export function floorOf(path: string): string {
  const [, first, second, third] = path.split("/");
  if ((first === "api" || first === "web") && third !== undefined) return `${first}/${second}`;
  return first.replace(/\.tsx?$/, "");
}

const isSource = (target: string) => target.startsWith("src/");
const isHono = (target: string) => target === "hono" || target.startsWith("hono/") || target.startsWith("@hono/");
const isDrizzle = (target: string) => target === "drizzle-orm" || target.startsWith("drizzle-orm/") || target.startsWith("drizzle-kit");

/** The doors: the JSON wings, the HTML wings, the middleware they share and the entry files. */
const isDoor = (floor: string) =>
  floor === "api" || floor.startsWith("api/") || floor === "web" || floor.startsWith("web/") || ["middleware", "app", "index", "app-env"].includes(floor);

/** The doors that answer HTTP and the pipeline in front of them: they reach storage through services. */
const isHttpDoor = (floor: string) => floor === "api" || floor.startsWith("api/") || floor === "web" || floor.startsWith("web/") || floor === "middleware";

/** The one table from refusal code to HTTP status (lib/refusal.ts says what was refused; only a door says how it is answered). */
const REFUSAL_STATUS_TABLE = "src/lib/refusal-status.ts";

/** What web/ may take from api/: the shared schemas (the same validation as the API) and problem.ts (the one onError every door ends with). */
const webMayImportFromApi = (target: string) => target.startsWith("src/api/shared/schemas/") || target === "src/api/problem.ts";

/** The logger of lib (structured lines to the console); services reach it through `deps.log`, built in one place. */
const LOGGER = "src/lib/logger.ts";
const DEPS_BUILDER = "src/services/deps.ts";

export interface Rule {
  name: string;
  applies: (fromFloor: string, from: string) => boolean;
  breaks: (toFloor: string | null, target: string, fromFloor: string, from: string) => boolean;
  /** Imports this rule would refuse that stay, each with its reason (docs/architecture.md lists them). */
  exceptions?: readonly Exception[];
}

const FLOOR_RULE = "an import runs only down the floors (lib 1, domain 2, db and registers 3, durable-objects 4, services 5, jobs and app-env 6, middleware 7, api 8, web 9) or within its own folder";

export const RULES: readonly Rule[] = [
  {
    name: "every folder of src/ has a floor",
    applies: (_from, from) => !(topFolderOf(from) in FLOORS),
    breaks: () => true,
  },
  {
    name: FLOOR_RULE,
    applies: () => true,
    breaks: (_to, target, _fromFloor, from) => {
      if (!isSource(target)) return false;
      const [a, b] = [topFolderOf(from), topFolderOf(target)];
      if (a === b || !(a in FLOORS) || !(b in FLOORS)) return false;
      return FLOORS[b]! >= FLOORS[a]!;
    },
  },
  {
    name: "the HTTP doors (api/, web/, middleware/) reach storage through services: no db/ import",
    applies: (from) => isHttpDoor(from),
    breaks: (to) => to === "db",
    exceptions: [
      {
        from: "src/middleware/database.ts",
        to: "src/db/client.ts",
        reason: "opens the request's D1 session and builds the services' Deps over it: the one place a request's client is made",
      },
      {
        from: "src/middleware/idempotency.ts",
        to: "src/db/identity/idempotency.ts",
        reason: "the idempotency record wraps the whole request (claimed before the handler, completed in the batch of its write), so no one service owns it",
      },
    ],
  },
  {
    name: "domain decides without Hono or drizzle",
    applies: (from) => from === "domain",
    breaks: (_to, target) => isHono(target) || isDrizzle(target),
  },
  {
    name: "drizzle is imported only inside src/db",
    applies: (from) => from !== "db",
    breaks: (_to, target) => isDrizzle(target),
  },
  {
    name: "route folders do not lean on each other",
    applies: (from) => (ROUTE_FOLDERS as readonly string[]).includes(from),
    breaks: (to, _target, from) => to !== null && to !== from && !SHARED_DOOR_FLOORS.includes(to) && (to.startsWith("api/") || to.startsWith("web/")),
  },
  {
    name: "only the doors (api/, web/, middleware/, app.ts, index.ts, app-env.ts) import Hono",
    applies: (from) => !isDoor(from),
    breaks: (_to, target) => isHono(target),
  },
  {
    name: "only the doors read the refusal status table",
    applies: (from) => !isDoor(from),
    breaks: (_to, target) => target === REFUSAL_STATUS_TABLE,
  },
  {
    name: "web/ imports from api/ only api/shared/schemas and api/problem.ts",
    applies: (from) => from === "web" || from.startsWith("web/"),
    breaks: (_to, target) => target.startsWith("src/api/") && !webMayImportFromApi(target),
  },
  {
    name: "services log through deps.log: only services/deps.ts imports the lib logger",
    applies: (from) => from === "services",
    breaks: (_to, target, _fromFloor, from) => target === LOGGER && from !== DEPS_BUILDER,
  },
];

const excepted = (rule: Rule, from: string, to: string) => (rule.exceptions ?? []).some((e) => e.from === from && e.to === to);

export function layeringBreaches(graph: ImportGraph): Breach[] {
  const breaches: Breach[] = [];
  for (const [from, targets] of Object.entries(graph)) {
    const fromFloor = floorOf(from);
    const unranked = RULES[0]!;
    if (unranked.applies(fromFloor, from)) breaches.push({ from, to: topFolderOf(from), rule: unranked.name });
    for (const target of targets) {
      const toFloor = isSource(target) ? floorOf(target) : null;
      for (const rule of RULES.slice(1)) {
        if (rule.applies(fromFloor, from) && rule.breaks(toFloor, target, fromFloor, from) && !excepted(rule, from, target)) breaches.push({ from, to: target, rule: rule.name });
      }
    }
  }
  return breaches;
}

/** Named exceptions the graph no longer needs (the import went away): a stale exception would hide the next one. */
export function unusedExceptions(graph: ImportGraph): Exception[] {
  return RULES.flatMap((rule) => (rule.exceptions ?? []).filter((e) => !(graph[e.from] ?? []).includes(e.to)));
}

/** The floor table and the rules as docs/architecture.md shows them, drawn from test/architecture/rules.ts. */
export function floorsSection(): string {
  const byFloor = new Map<number, string[]>();
  for (const [folder, floor] of Object.entries(FLOORS)) byFloor.set(floor, [...(byFloor.get(floor) ?? []), folder]);
  const name = (folder: string) => (["app", "index", "app-env"].includes(folder) ? `\`${folder}.ts\`` : `\`${folder}/\``);
  const floors = [...byFloor].sort(([a], [b]) => a - b).map(([floor, folders]) => `| ${floor} | ${folders.map(name).join(", ")} |`);
  const rules = RULES.flatMap((rule) => [
    `- ${rule.name}`,
    ...(rule.exceptions ?? []).map((e) => `  - except \`${e.from.slice(4)}\` → \`${e.to.slice(4)}\`: ${e.reason}`),
  ]);
  return ["| floor | folders |", "|---|---|", ...floors, "", ...rules].join("\n");
}

/** Every import cycle among src/ modules, each as the list of files around it (Tarjan's strongly connected components). */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;

  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph[node] ?? []) {
      if (!(next in graph)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (graph[node] ?? []).includes(node);
      if (component.length > 1 || selfLoop) cycles.push(component.sort());
    }
  };

  for (const node of Object.keys(graph).sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/**
 * The folder a module counts in for the folder-level cycle rule: its directory
 * ("src/db/webhooks/events.ts" → "src/db/webhooks"), except the entry files directly under src/
 * (app.ts, index.ts, app-env.ts), which each count as themselves: they compose the doors, so the
 * folder `src` would otherwise close a circle with everything.
 */
export function folderOf(path: string): string {
  const parts = path.split("/");
  return parts.length <= 2 ? path : parts.slice(0, -1).join("/");
}

/**
 * The import graph between folders: an arrow from folder A to folder B when a module in A imports
 * one in B. A parent folder and its subfolder are two folders: `db` importing `db/webhooks` while
 * `db/webhooks` imports `db` is a circle even though no two files import each other.
 */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const arrows = new Map<string, Set<string>>();
  for (const [from, targets] of Object.entries(graph)) {
    const a = folderOf(from);
    if (!arrows.has(a)) arrows.set(a, new Set());
    for (const target of targets) {
      if (!isSource(target) || !(target in graph)) continue;
      const b = folderOf(target);
      if (b !== a) arrows.get(a)!.add(b);
    }
  }
  return Object.fromEntries([...arrows].map(([folder, to]) => [folder, [...to].sort()]));
}

/** Every circle among folders of src/, each as the sorted folders around it. */
export function folderCycles(graph: ImportGraph): string[][] {
  return importCycles(folderGraph(graph));
}

/** For a circle of folders, the file imports that close it ("from -> to"), so a failure says what to move. */
export function folderCycleImports(graph: ImportGraph, cycle: string[]): string[] {
  const inCycle = new Set(cycle);
  return Object.entries(graph).flatMap(([from, targets]) =>
    targets
      .filter((t) => isSource(t) && t in graph && folderOf(t) !== folderOf(from) && inCycle.has(folderOf(from)) && inCycle.has(folderOf(t)))
      .map((t) => `${from} -> ${t}`),
  );
}
