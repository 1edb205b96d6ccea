import { z } from "@hono/zod-openapi";

/**
 * What a key is issued with, beside its environment: one definition for the
 * operator API (`POST /admin/v1/organisations/{id}/keys`) and the portal's
 * key form, so both refuse the same origins with the same words.
 */
export const KeyOrigin = z
  .string()
  .max(200)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "https:" || u.protocol === "http:") && u.origin === s;
    } catch {
      return false;
    }
  }, "must be an origin like https://www.example.com (scheme, host and optional port, no path)");

export const KeyType = z.enum(["secret", "publishable"]);

export const AllowedOrigins = z.array(KeyOrigin).max(20);
