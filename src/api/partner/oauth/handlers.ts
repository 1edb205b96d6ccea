import type { Context } from "hono";
import type { AppEnv } from "../../../app-env";
import { Refusal } from "../../../lib/refusal";
import type { Router } from "../../router";
import { applyVerdict, countFailedAttempt, limiterUnavailable, limitPolicy } from "../../../middleware/rate-limit";
import { exchangeClientCredentials } from "../../../services/identity/tokens";
import { issueToken } from "./routes";

const unreadable = () => new Refusal("invalid_request", "The body could not be read; send form-encoded or JSON fields grant_type, client_id and client_secret.");

/** OAuth clients send form-encoded bodies, SDKs often JSON: both are read here, anything else is unreadable. */
async function readTokenBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  try {
    if (type === "application/json") {
      const body = await c.req.json();
      if (body === null || typeof body !== "object" || Array.isArray(body)) throw unreadable();
      return body;
    }
    if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer())));
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw unreadable();
  }
  throw unreadable();
}

function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== "string" || value.trim() === "") {
    throw new Refusal("invalid_request", `${field} is required and must be a string.`, { field });
  }
  return value;
}

export function registerTokenRoutes(router: Router) {
  // Registered for the document only: the body is read by hand so an unreadable body, another media type
  // included, is a 400 as the spec and OAuth clients expect, not a 415. Its errors are therefore listed by hand.
  router.openAPIRegistry.registerPath(issueToken);
  router.post(issueToken.path, async (c) => {
    const body = await readTokenBody(c);
    const grantType = requiredString(body, "grant_type");
    const clientId = requiredString(body, "client_id");
    const clientSecret = requiredString(body, "client_secret");
    if (grantType !== "client_credentials") {
      throw new Refusal("unsupported_grant_type", `grant_type "${grantType}" is not supported; use client_credentials.`, { field: "grant_type" });
    }
    c.header("Cache-Control", "no-store");
    // A matching secret is counted in its key's exchange window; a wrong one against the sender's
    // address (the failed-authentication bucket), so knowing a client id spends nothing of its key's.
    const exchange = await exchangeClientCredentials(c.get("deps"), clientId, clientSecret, limitPolicy(c)).catch(async (error) => {
      if (!(error instanceof Refusal)) throw limiterUnavailable(c, error);
      if (error.code === "unauthorized") await countFailedAttempt(c);
      throw error;
    });
    // 429 unless the window allowed the exchange, and then the token was issued.
    applyVerdict(c, exchange.verdict);
    return c.json(exchange.token!, 200);
  });
}
