import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env";
import { takesFiles } from "../middleware/body-limit";
import { withDerivedResponses } from "./declared-responses";
import { validationHook } from "./validation-hook";

/** A body of JSON or of a urlencoded form is data; any other declared body (a multipart form, a raw PDF) carries files. */
const isDataBody = (mediaType: string) => /^application\/([a-z.-]+\+)?json|^application\/x-www-form-urlencoded/i.test(mediaType);

/**
 * An operation whose declared body carries files takes the upload limit: the route says it in the
 * route table (`takesFiles`), where the app's body limit reads it, so the document's
 * body and the limit cannot drift apart.
 */
function withFileLimit<R extends RouteConfig>(route: R): R {
  const types = Object.keys(route.request?.body?.content ?? {});
  if (!types.some((type) => !isDataBody(type))) return route;
  const declared = route.middleware ? [route.middleware].flat() : [];
  return { ...route, middleware: [takesFiles(), ...declared] };
}

/**
 * Every router validates through the same hook, so every validation failure
 * has one shape, and every route it registers declares the errors its guards
 * and validators can answer with (api/declared-responses.ts), not only the
 * ones its handler throws.
 */
export const createRouter = () => {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const register = router.openapi;
  router.openapi = ((route, handler, hook) => register(withFileLimit(withDerivedResponses(route)), handler, hook)) as typeof register;
  return router;
};

export type Router = ReturnType<typeof createRouter>;
