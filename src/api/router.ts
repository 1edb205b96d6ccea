import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env";
import { withDerivedResponses } from "./declared-responses";
import { validationHook } from "./validation-hook";

/**
 * Every router validates through the same hook, so every validation failure
 * has one shape, and every route it registers declares the errors its guards
 * and validators can answer with (lib/declared-responses.ts), not only the
 * ones its handler throws.
 */
export const createRouter = () => {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const register = router.openapi;
  router.openapi = ((route, handler, hook) => register(withDerivedResponses(route), handler, hook)) as typeof register;
  return router;
};

export type Router = ReturnType<typeof createRouter>;
