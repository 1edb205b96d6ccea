import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";

/** One year, subdomains included: the value browsers' preload lists ask for. */
const HSTS = "max-age=31536000; includeSubDomains";

/**
 * `Strict-Transport-Security` on answers to HTTPS requests only: sent over plain HTTP it would be
 * ignored (RFC 6797 §8.1), and a local `http://localhost` must not be told to insist on TLS.
 */
export const strictTransport = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (new URL(c.req.url).protocol === "https:") c.res.headers.set("Strict-Transport-Security", HSTS);
});

/**
 * `Cache-Control: no-store` on every API answer that does not set its own: leads, deals, offers,
 * documents, events and keys carry personal data (names, e-mail addresses, bank details) or secrets,
 * so neither a browser nor a shared cache may keep them. An answer with its own Cache-Control (the
 * public OpenAPI documents) keeps it.
 */
export const noStoreApiAnswers = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
});
