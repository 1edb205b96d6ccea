import { inject } from "vitest";
import { expectJson, http } from "./answers";

export { describeAnswer, expectJson, http } from "./answers";

/**
 * The service of the calling file's lane. The e2e run has one `wrangler dev` per vitest worker (global
 * setup starts `maxWorkers` of them); a file runs on the lane of its worker slot (`VITEST_POOL_ID`,
 * 1 to maxWorkers, never held by two running files at once), so the files of a lane run one after the
 * other against their own service, as the whole run did on one service before.
 */
export function lane() {
  const lanes = inject("lanes");
  const slot = Number(process.env.VITEST_POOL_ID ?? "1");
  return lanes[(slot - 1) % lanes.length];
}

/** A tiny integrator-side client: plain fetch against the running service. */
export const baseUrl = () => lane().baseUrl;
export const sandboxUrl = () => lane().sandboxUrl;

export const operator = (method: string, path: string, body?: unknown) =>
  http(method, `${baseUrl()}/admin/v1${path}`, { headers: { Authorization: `Bearer ${inject("adminToken")}` }, body });

/** An organisation of `kind` made through the operator API, with a sandbox and a live key (each call must answer 201 with JSON). */
async function newOrganisation(kind: "partner" | "lender") {
  const org = expectJson(await operator("POST", "/organisations", { name: `e2e ${kind} ${Date.now()}`, kind }), 201);
  const sandbox = expectJson(await operator("POST", `/organisations/${org.id}/keys`, { environment: "sandbox" }), 201);
  const live = expectJson(await operator("POST", `/organisations/${org.id}/keys`, { environment: "live" }), 201);
  return { org, sandbox, live };
}

export const newPartner = () => newOrganisation("partner");
export const newLender = () => newOrganisation("lender");
