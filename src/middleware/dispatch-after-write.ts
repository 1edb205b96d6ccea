import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { dispatchPendingEvents } from "../services/webhook-dispatch";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Webhooks are a low-latency notification: after a successful write, the
 * events it put in the outbox are turned into deliveries at once, after the
 * response has gone. The every-minute cron remains the safety net, so a failure
 * here delays a delivery but never loses it.
 */
export const dispatchAfterWrite = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.env.DISPATCH_AFTER_WRITE === "true" && MUTATING.has(c.req.method) && c.res.status < 400 && c.get("caller")) {
    c.executionCtx.waitUntil(dispatchPendingEvents(c.env).catch((error) => console.error(JSON.stringify({ level: "warn", dispatch: String(error) }))));
  }
});
