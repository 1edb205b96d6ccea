/**
 * The client hub's per-address bucket that every request without `request.cf` shares
 * (`hub:address:unattributed`, lib/client-address.ts). hub-link.test.ts spends it on purpose (a forged,
 * rotating CF-Connecting-IP must hit its limit); it empties the bucket before and after, so a spent
 * bucket never answers 429 to the hub pages of the next file in the same runtime.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { KeyAuthority } from "../../src/durable-objects/key-authority";
import { HUB_LIMIT_WINDOW_SECONDS, HUB_REQUESTS_PER_ADDRESS, hubAddressBucket } from "../../src/domain/hub/link";
import { UNATTRIBUTED_ADDRESS } from "../../src/lib/client-address";

/** The fields of the instance's request window that hold it in memory (the stored copy is only its ceiling). */
interface WindowFields {
  requests: { current: unknown; reserved: number };
}

const bucket = () => env.KEY_AUTHORITY.get(env.KEY_AUTHORITY.idFromName(hubAddressBucket(UNATTRIBUTED_ADDRESS)));

/**
 * Empties the bucket: its stored window and the window the running instance keeps in memory, as a
 * new instance would start. Then counts one request through the object's own `hit` and expects a
 * fresh window (one counted of 120), so a renamed field fails here instead of leaving the bucket spent.
 */
export async function emptyUnattributedHubBucket() {
  const stub = bucket();
  await runInDurableObject(stub, async (instance: KeyAuthority, state) => {
    await state.storage.deleteAll();
    const { requests } = instance as unknown as WindowFields;
    requests.current = undefined;
    requests.reserved = -1;
  });
  const verdict = await stub.hit(HUB_REQUESTS_PER_ADDRESS, HUB_LIMIT_WINDOW_SECONDS);
  if (!verdict.allowed || verdict.remaining !== HUB_REQUESTS_PER_ADDRESS - 1) {
    throw new Error(`the unattributed hub bucket was not emptied: ${HUB_REQUESTS_PER_ADDRESS - verdict.remaining} counted after the reset`);
  }
}
