import { generateKey, keyKindFor, type Environment } from "../../domain/identity/keys";
import { findKeyById, insertApiKey, listKeysInScope, listKeysOf, revokeKey, revokeKeyInScope, type ApiKeyRow } from "../../db/identity/keys";
import { findOrganisation, insertOrganisation, listOrganisations, type Organisation } from "../../db/identity/organisations";
import type { Caller, Scope } from "../../domain/identity/caller";
import { sha256Hex } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { isoNow, type Deps } from "../deps";
import { forgetKey } from "./key-authority";
import { newId } from "../../lib/ids";

export async function createOrganisation(deps: Deps, input: { name: string; kind: Organisation["kind"] }) {
  return insertOrganisation(deps.db, { id: newId("org"), name: input.name, kind: input.kind, createdAt: isoNow(deps) });
}

export async function requireOrganisation({ db }: Deps, id: string) {
  const organisation = await findOrganisation(db, id);
  if (!organisation) throw new Refusal("not_found", `No organisation ${id}.`);
  return organisation;
}

/** Issues a key; the whole key is in the answer and nowhere else, ever. */
export async function issueKey(
  deps: Deps,
  organisationId: string,
  input: { environment: Environment; type: "secret" | "publishable"; allowed_origins: string[] },
) {
  const { db } = deps;
  const organisation = await requireOrganisation(deps, organisationId);
  const kind = keyKindFor(organisation.kind, input.type);
  if (!kind) throw new Refusal("invalid_request", "Lender organisations hold secret keys only.", { field: "type" });
  if (kind !== "publishable" && input.allowed_origins.length > 0) {
    throw new Refusal("invalid_request", "allowed_origins applies to publishable keys only.", { field: "allowed_origins" });
  }
  const { keyId, clientId, key } = generateKey(kind, input.environment);
  const row = await insertApiKey(db, {
    id: keyId,
    clientId,
    organisationId,
    environment: input.environment,
    kind,
    keyHash: await sha256Hex(key),
    allowedOrigins: input.allowed_origins,
    createdAt: isoNow(deps),
    revokedAt: null,
  });
  return { id: keyId, key, client_id: clientId, environment: row.environment, type: input.type, kind, allowed_origins: row.allowedOrigins, created_at: row.createdAt };
}

export async function describeOrganisation({ db }: Deps, organisation: Organisation) {
  const keys = await listKeysOf(db, organisation.id);
  return {
    id: organisation.id,
    name: organisation.name,
    kind: organisation.kind,
    created_at: organisation.createdAt,
    keys: keys.map(keySummary),
  };
}

/** A key as the operator API and the portal list it: never the key itself, nor its hash. */
const keySummary = (k: ApiKeyRow) => ({
  id: k.id,
  client_id: k.clientId,
  environment: k.environment,
  type: k.kind === "publishable" ? ("publishable" as const) : ("secret" as const),
  allowed_origins: k.allowedOrigins,
  created_at: k.createdAt,
  revoked_at: k.revokedAt,
});

/** The keys a portal member sees: their organisation's, in the environment they picked. */
export async function keysInScope({ db }: Deps, scope: Scope) {
  return (await listKeysInScope(db, scope)).map((k) => ({ ...keySummary(k), kind: k.kind }));
}

export const allOrganisations = ({ db }: Deps) => listOrganisations(db);

/** Revokes an active key; a key already revoked or never issued is `not_found`. */
/**
 * D1 is the record; the key's Durable Object is told before the answer, so the very next request
 * is refused (services/identity/key-authority.ts). It is told also when D1 says "already revoked": a
 * previous attempt may have failed between the two steps.
 */
export async function revokeClientKey(deps: Deps, clientId: string, scope?: Scope) {
  if (scope) return revokeScopedKey(deps, clientId, scope);
  const revoked = await revokeKey(deps.db, clientId, isoNow(deps));
  await forgetKey(deps, clientId);
  if (!revoked) throw new Refusal("not_found", "No active key with that client_id.");
}

/**
 * The portal's revocation: only a key of the member's organisation and environment, decided in the
 * statement itself. Another organisation's key is `not_found` and its object is left alone; a key of the
 * scope is forgotten by its object even when already revoked, for the reason above.
 */
async function revokeScopedKey(deps: Deps, clientId: string, scope: Scope) {
  const outcome = await revokeKeyInScope(deps.db, scope, clientId, isoNow(deps));
  if (outcome === "absent") throw new Refusal("not_found", "No active key with that client_id.");
  await forgetKey(deps, clientId);
  if (outcome === "already_revoked") throw new Refusal("not_found", "No active key with that client_id.");
}

/** The caller's organisation and key as stored, for `GET /me`; gone since authentication is `not_found`. */
export async function callerAccount({ db }: Deps, caller: Pick<Caller, "organisationId" | "keyId">) {
  const [organisation, key] = await Promise.all([findOrganisation(db, caller.organisationId), findKeyById(db, caller.keyId)]);
  if (!organisation || !key) throw new Refusal("not_found", "The caller's organisation no longer exists.");
  return { organisation, key };
}
