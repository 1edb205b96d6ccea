/**
 * API key format: `<prefix><key id>_<secret>`, where the prefix names the kind
 * and the environment (`rfs_ptr_live_`). The client id used by the token
 * exchange is `<prefix><key id>`. Only a hash of the whole key is stored.
 */
import { randomToken } from "../../lib/crypto";

export const ENVIRONMENTS = ["sandbox", "live"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const KEY_KINDS = ["partner", "lender", "publishable"] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

const KIND_TAG: Record<KeyKind, string> = { partner: "ptr", lender: "lnd", publishable: "pub" };

export const keyPrefix = (kind: KeyKind, environment: Environment) => `rfs_${KIND_TAG[kind]}_${environment}_`;

const KEY_ID_LENGTH = 16;
const SECRET_LENGTH = 40;

const KEY_PATTERN = /^rfs_(ptr|lnd|pub)_(sandbox|live)_([a-z0-9]{16})(?:_([a-z0-9]{40}))?$/;
const TAG_KIND: Record<string, KeyKind> = { ptr: "partner", lnd: "lender", pub: "publishable" };

export interface ParsedKey {
  kind: KeyKind;
  environment: Environment;
  keyId: string;
  clientId: string;
  /** Absent when only a client id was parsed. */
  secret?: string;
}

/** Parses a full key or a client id; null when the text has neither shape. */
export function parseKey(text: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(text.trim());
  if (!match) return null;
  const [, tag, environment, keyId, secret] = match;
  const kind = TAG_KIND[tag];
  return { kind, environment: environment as Environment, keyId, clientId: `${keyPrefix(kind, environment as Environment)}${keyId}`, secret };
}

export function generateKey(kind: KeyKind, environment: Environment) {
  const keyId = randomToken(KEY_ID_LENGTH);
  const clientId = `${keyPrefix(kind, environment)}${keyId}`;
  return { keyId, clientId, key: `${clientId}_${randomToken(SECRET_LENGTH)}` };
}

/** Which organisation kind may hold which key kind. */
export function keyKindFor(organisationKind: "partner" | "lender", type: "secret" | "publishable"): KeyKind | null {
  if (organisationKind === "lender") return type === "secret" ? "lender" : null;
  return type === "secret" ? "partner" : "publishable";
}
