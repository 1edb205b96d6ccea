import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./app-env";
import { validationError } from "./lib/validation";

/** Every router validates through the same hook, so every validation failure has one shape. */
export const createRouter = () =>
  new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, result.target);
    },
  });

export type Router = ReturnType<typeof createRouter>;
