/**
 * Serves an API's OpenAPI 3.1 document at `/openapi.json`: generated from the
 * zod schemas its routes validate with, plus the request and response
 * examples captured from a real run (src/api/reference/examples.json, written by
 * scripts/capture-examples.mjs and checked against those schemas by
 * test/docs-examples.test.ts).
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env";
import type { Router } from "../router";
import captured from "./examples.json";
import { GUIDES } from "./guides.generated";
import { withWebhookExamples } from "./webhook-examples";

export type ApiName = "partner" | "lender" | "admin";
type Config = Parameters<Router["getOpenAPI31Document"]>[0];
interface Example {
  request?: unknown;
  response?: unknown;
  /** The same answer as `text/csv`, where the operation also answers CSV (the commission statement). */
  response_csv?: string;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The captured examples of one API, keyed `METHOD /path` as the document writes paths. */
export function examplesOf(api: ApiName): Map<string, Example> {
  const prefix = `${api} `;
  return new Map(
    Object.entries(captured as Record<string, Example>)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key.slice(prefix.length), value]),
  );
}

type Media = Record<string, { example?: unknown }>;
type Operation = { requestBody?: { content?: Media }; responses?: Record<string, { content?: Media }> };

/** Puts each operation's example on its request body and its success response. */
export function withExamples<T extends { paths?: unknown }>(document: T, api: ApiName): T {
  const examples = examplesOf(api);
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) {
      const operation = item[method];
      const example = examples.get(`${method.toUpperCase()} ${path}`);
      if (!operation || !example) continue;
      for (const media of Object.values(operation.requestBody?.content ?? {})) if (example.request !== undefined) media.example = example.request;
      const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith("2"))?.[1];
      for (const [type, media] of Object.entries(success?.content ?? {})) {
        const value = type === "text/csv" ? example.response_csv : example.response;
        if (value != null) media.example = value;
      }
    }
  }
  return document;
}

/**
 * The guides as the document's last section: Scalar lists the headings of `info.description` in
 * its sidebar, so "Guides" sits there with a link to each page under /docs/guides.
 */
export function withGuides<T extends { info?: { description?: string } }>(document: T): T {
  if (!document.info) return document;
  const links = GUIDES.map((g) => `- [${g.title}](/docs/guides/${g.slug})`).join("\n");
  document.info.description = `${document.info.description ?? ""}\n\n## Guides\n\nHow the service behaves, beyond each operation:\n\n${links}\n`;
  return document;
}

/**
 * `lateParts` adds what only the document needs (the webhook events' schemas) on the first request
 * for it, through a dynamic import, so a cold isolate of the API does not build them at startup.
 */
export function serveDocument(router: Router, api: ApiName, config: (c: Context<AppEnv>) => Config, lateParts?: () => Promise<void>) {
  let added: Promise<void> | undefined;
  // The document depends on the routes (all registered before the first request, late parts included) and on the
  // config, which differs only by the request's origin (`servers`): it is generated once per config, not on every
  // request (generating walks every route's zod schemas). At most a few origins are kept, the oldest dropped first.
  const built = new Map<string, object>();
  router.get("/openapi.json", async (c) => {
    await (added ??= lateParts ? lateParts() : Promise.resolve());
    const settings = config(c);
    const key = JSON.stringify(settings);
    let document = built.get(key);
    if (document === undefined) {
      document = withGuides(withWebhookExamples(withExamples(router.getOpenAPI31Document(settings), api), api));
      if (built.size >= DOCUMENTS_KEPT) built.delete(built.keys().next().value!);
      built.set(key, document);
    }
    return c.json(document);
  });
}

/** Origins whose document a router keeps (a deployment has one or two: its host and its sandbox host). */
const DOCUMENTS_KEPT = 4;
