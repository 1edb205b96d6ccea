/**
 * Where a webhook delivery's body lives: R2, not D1. The body is serialised once per
 * event and payload mode at dispatch and put in the DOCUMENTS bucket under
 * `webhook-bodies/<environment>/<day of the delivery>/<SHA-256 of its bytes>`; the delivery row keeps the
 * hash (`body_hash`) and every attempt, automatic or by hand, sends those exact bytes, so a re-send days
 * later is byte-identical and its signature verifies with the same secret.
 *
 * Why stored and not rebuilt from the event at send time: a `full` body is the subject's view at
 * dispatch, which changes as the deal moves on, and a request's file links are signed with an expiry
 * from the moment they were made; a rebuild would send different bytes. Why by hash: the receivers of
 * one event in one mode share one object. Why under the day: retention deletes a whole day of bodies
 * once no delivery of that day is left (`pruneDeliveryBodies`), which also takes any body whose
 * delivery batch never landed; no marker row is written per body.
 *
 * The isolate keeps the bodies it has just stored or read (a bounded map): the first attempt, made by
 * the request that dispatched, reads no R2. The map is only a cache: forgetting it changes no byte sent.
 */
import { sha256Hex } from "../../lib/crypto";
import { deliveriesHeldBetween } from "../../db/retention/retention";
import type { Deps } from "../deps";

const BODY_PREFIX = "webhook-bodies/";

/** What names a body: the delivery's environment and creation time, and the hash of its bytes. */
interface BodyPlace {
  environment: "sandbox" | "live";
  createdAt: string;
}

const dayOf = (iso: string) => iso.slice(0, 10);
export const bodyKey = (place: BodyPlace, hash: string) => `${BODY_PREFIX}${place.environment}/${dayOf(place.createdAt)}/${hash}`;

/** Bodies kept in the isolate; a dispatch round of 100 events in two modes fits. */
const CACHED_BODIES = 256;
const cache = new Map<string, string>();

function remember(key: string, body: string) {
  cache.delete(key);
  cache.set(key, body);
  if (cache.size > CACHED_BODIES) cache.delete(cache.keys().next().value!);
}

/** Drops bodies from the isolate's cache (every one when no key is named): the next read of them goes to R2. */
export function forgetCachedBodies(keys?: readonly string[]) {
  if (keys === undefined) cache.clear();
  else for (const key of keys) cache.delete(key);
}

/** Puts the body in R2 (R2 checks the bytes against the hash on arrival) and answers the hash the row keeps. */
export async function storeBody({ env }: Pick<Deps, "env">, place: BodyPlace, body: string): Promise<string> {
  const hash = await sha256Hex(body);
  const key = bodyKey(place, hash);
  await env.DOCUMENTS.put(key, body, { httpMetadata: { contentType: "application/json" }, sha256: hash });
  remember(key, body);
  return hash;
}

/** What a delivery row says about its body. */
interface StoredBody extends BodyPlace {
  id: string;
  body: string;
  bodyHash: string | null;
}

/** The bytes a delivery sends: its own column on a row from before migration 0020, else R2 by its hash. */
export async function bodyOf({ env }: Pick<Deps, "env">, delivery: StoredBody): Promise<string> {
  if (delivery.bodyHash === null) return delivery.body;
  const key = bodyKey(delivery, delivery.bodyHash);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const object = await env.DOCUMENTS.get(key);
  // Only retention deletes bodies, and only of days no delivery is left in: a miss is a fault, retried later.
  if (!object) throw new Error(`webhook body of delivery ${delivery.id} missing from R2`);
  const body = await object.text();
  remember(key, body);
  return body;
}

/** Days of bodies one tick deletes at most, and objects per listing (R2's own page size). */
const DAYS_PER_TICK = 4;
const LIST_PAGE = 1000;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/**
 * Deletes the bodies of each day before `before` (the retention cutoff's day, `YYYY-MM-DD`) in which no
 * delivery of the environment is left (a pending one outlives the cutoff, and keeps its day's bodies).
 * A body whose row never landed goes with its day. Bounded per tick; a backlog shrinks over the next ticks.
 */
export async function pruneDeliveryBodies({ db, env, environment: own }: Pick<Deps, "db" | "env" | "environment">, before: string) {
  let days = 0;
  let objects = 0;
  // The bodies of `db`'s own environment: the other's deliveries are in the other database, pruned by its own run.
  for (const environment of [own ?? "live"] as const) {
    const prefix = `${BODY_PREFIX}${environment}/`;
    const listed = await env.DOCUMENTS.list({ prefix, delimiter: "/", limit: LIST_PAGE });
    const old = listed.delimitedPrefixes.map((p) => p.slice(prefix.length, -1)).filter((day) => day < before).sort();
    for (const day of old) {
      if (days >= DAYS_PER_TICK) return { days, objects };
      if (await deliveriesHeldBetween(db, environment, day, nextDay(day))) continue;
      let cursor: string | undefined;
      do {
        const page = await env.DOCUMENTS.list({ prefix: `${prefix}${day}/`, limit: LIST_PAGE, cursor });
        const keys = page.objects.map((o) => o.key);
        if (keys.length > 0) await env.DOCUMENTS.delete(keys);
        // A deleted body is never served from this isolate's cache either.
        forgetCachedBodies(keys);
        objects += page.objects.length;
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      days++;
    }
  }
  return { days, objects };
}
