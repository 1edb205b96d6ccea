// The house rules of docs/architecture.md as data: which floor a module sits on and what
// each floor may import. Pure, so it runs inside workerd on the graph the Node side collected.

export type ImportGraph = Record<string, string[]>;

/** The doors that answer HTTP (the JSON wings under api/, the HTML wings under web/); none reads storage or leans on another. */
export const ROUTE_FOLDERS = ["api/partner", "api/lender", "api/admin", "api/health", "api/shared", "api/reference", "web/hub", "web/portal", "web/files"] as const;

/** What every door may use: the API's own ground (router, OpenAPI helpers), what both APIs mount, the reference. */
// web/kit is the HTML doors' shared floor (one form reader, one refusal → message map, one format of
// times and money), as api/shared is the JSON doors': every HTML wing may lean on it.
const SHARED_DOOR_FLOORS = ["api", "api/shared", "api/reference", "api/health", "web/kit"];

export interface Breach {
  from: string;
  to: string;
  rule: string;
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

type Rule = { name: string; applies: (fromFloor: string) => boolean; breaks: (toFloor: string | null, target: string, fromFloor: string) => boolean };

const RULES: Rule[] = [
  {
    name: "lib is the ground floor: it imports no other folder of src/",
    applies: (from) => from === "lib",
    breaks: (to) => to !== null && to !== "lib",
  },
  {
    name: "domain decides without services, routes, db, middleware, registers, Hono or drizzle",
    applies: (from) => from === "domain",
    breaks: (to, target) => (to !== null && to !== "domain" && to !== "lib") || isHono(target) || isDrizzle(target),
  },
  {
    name: "drizzle is imported only inside src/db",
    applies: (from) => from !== "db",
    breaks: (_to, target) => isDrizzle(target),
  },
  {
    name: "route folders read no storage and do not lean on each other",
    applies: (from) => (ROUTE_FOLDERS as readonly string[]).includes(from),
    breaks: (to, _target, from) =>
      to === "db" || (to !== null && to !== from && !SHARED_DOOR_FLOORS.includes(to) && (to.startsWith("api/") || to.startsWith("web/"))),
  },
  {
    name: "registers (company-register adapters) import lib and domain only",
    applies: (from) => from === "registers",
    breaks: (to) => to !== null && to !== "registers" && to !== "lib" && to !== "domain",
  },
];

export function layeringBreaches(graph: ImportGraph): Breach[] {
  const breaches: Breach[] = [];
  for (const [from, targets] of Object.entries(graph)) {
    const fromFloor = floorOf(from);
    for (const target of targets) {
      const toFloor = isSource(target) ? floorOf(target) : null;
      for (const rule of RULES) {
        if (rule.applies(fromFloor) && rule.breaks(toFloor, target, fromFloor)) breaches.push({ from, to: target, rule: rule.name });
      }
    }
  }
  return breaches;
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
