import { admin } from "./api";

export interface Organisation {
  id: string;
  name: string;
  kind: "partner" | "lender";
}

export async function createOrganisation(kind: "partner" | "lender", name = `${kind} ${crypto.randomUUID().slice(0, 8)}`) {
  const res = await admin<Organisation>("POST", "/organisations", { name, kind });
  if (res.status !== 201) throw new Error(`organisation: ${res.status} ${res.text}`);
  return res.body;
}

export async function issueKey(
  organisationId: string,
  environment: "sandbox" | "live",
  type: "secret" | "publishable" = "secret",
  allowedOrigins: string[] = [],
) {
  const res = await admin<{ key: string; client_id: string }>("POST", `/organisations/${organisationId}/keys`, {
    environment,
    type,
    ...(type === "publishable" ? { allowed_origins: allowedOrigins } : {}),
  });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${res.text}`);
  return res.body;
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
