import { CreateKey, CreateOrganisation } from "../../src/api/admin/organisations/routes";
import { createOrganisation as createOrganisationOf, issueKey as issueKeyOf } from "../../src/services/identity/organisations";
import { testDeps } from "./deps";

export interface Organisation {
  id: string;
  name: string;
  kind: "partner" | "lender";
}

/**
 * The fixtures' organisations and keys are made with the admin API's own services and request
 * schemas (src/services/identity/organisations.ts, the bodies parsed as the route parses them), not
 * through its HTTP door: the same rows, the same normalised input, the same answer body, without a
 * whole request (edge, auth, logging, the contract judge) per fixture. An admin call cost about 20 ms
 * of CPU in the runtime, the service alone about 3 ms (docs/testing.md, "Fixtures without the admin
 * door"), and every file makes organisations and keys. The admin door itself is tested where it is
 * the subject (test/admin.test.ts, test/contract/declared-statuses.test.ts, test/idempotency.test.ts).
 */
export async function createOrganisation(kind: "partner" | "lender", name = `${kind} ${crypto.randomUUID().slice(0, 8)}`): Promise<Organisation & { created_at: string }> {
  const organisation = await createOrganisationOf(testDeps(), CreateOrganisation.parse({ name, kind }));
  return { id: organisation.id, name: organisation.name, kind: organisation.kind, created_at: organisation.createdAt };
}

export async function issueKey(
  organisationId: string,
  environment: "sandbox" | "live",
  type: "secret" | "publishable" = "secret",
  allowedOrigins: string[] = [],
) {
  const input = CreateKey.parse({ environment, type, ...(type === "publishable" ? { allowed_origins: allowedOrigins } : {}) });
  const { kind: _kind, ...issued } = await issueKeyOf(testDeps(), organisationId, input);
  return issued;
}

/** A partner with a sandbox and a live secret key. */
export async function partnerWithKeys() {
  const organisation = await createOrganisation("partner");
  const sandbox = await issueKey(organisation.id, "sandbox");
  const live = await issueKey(organisation.id, "live");
  return { organisation, sandbox, live };
}

export async function lenderWithKeys() {
  const organisation = await createOrganisation("lender");
  const sandbox = await issueKey(organisation.id, "sandbox");
  const live = await issueKey(organisation.id, "live");
  return { organisation, sandbox, live };
}

export function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  const ok =
    res.status === status &&
    res.headers.get("Content-Type")?.startsWith("application/problem+json") &&
    res.body?.error?.code === code &&
    typeof res.body?.request_id === "string" &&
    res.headers.get("X-Request-Id") === res.body.request_id;
  if (!ok) throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
}
