import { DurableObject } from "cloudflare:workers";
import { database, type DataEnvironment } from "../db/client";
import { insertAccessToken, loadKeyState } from "../db/identity/keys";
import { admits, refusesOrigin, rememberToken, type KeyFacts, type KeyState, type PresentedCredential } from "../domain/identity/key-state";
import { laterBookmark } from "../lib/bookmarks";
import { UNATTRIBUTED_ADDRESS } from "../lib/client-address";
import type { Bindings } from "../lib/env";
import { nowIso } from "../lib/ids";

export interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  /** A publishable key's request: the sender's address's share of the same window. */
  share?: { limit: number; remaining: number };
}

export interface LimitPolicy {
  limit: number;
  windowSeconds: number;
  /** Of a publishable key's `limit`, how many requests one client address may make in the window. */
  addressShare?: number;
}

/** Where a request comes from: its page's `Origin` and its client address (lib/client-address.ts). */
export interface RequestSource {
  origin?: string;
  clientAddress?: string;
}

/** Which key a call is about: both parts, so a client id that does not own the key id finds nothing. */
export interface KeyAddress {
  keyId: string;
  clientId: string;
}

/**
 * `verdict` is null when the request was not counted: a publishable key used from an origin it does not allow.
 * `bookmark` is the D1 bookmark of the key's latest write (absent until the key has written): the request
 * opens its D1 session there, so it reads at least what the key last wrote (docs/capacity.md).
 */
export type Admission = { admitted: true; key: KeyFacts; verdict: RateLimitVerdict | null; bookmark?: string } | { admitted: false };

/**
 * The token exchange's outcome: not admitted (the pair opens no partner secret key), or admitted and
 * counted in the key's exchange window; the token was recorded only when `verdict.allowed`.
 */
type TokenIssue = { admitted: true; key: KeyFacts; verdict: RateLimitVerdict } | { admitted: false };

interface Window {
  startedAt: number;
  count: number;
}

/**
 * How many blocks a window's allowance is reserved in: the stored copy of the window is written
 * when the count passes what was last reserved, and reserves the next `limit / RESERVE_BLOCKS`
 * requests at once, so a key's object writes its storage about 20 times a window (at any limit)
 * instead of on every request. The stored count is a ceiling of what was handed out, never less.
 */
const RESERVE_BLOCKS = 20;
const reserveStep = (limit: number) => Math.max(1, Math.floor(limit / RESERVE_BLOCKS));

const epochSeconds = (ms: number) => Math.floor(ms / 1000);

/**
 * One fixed window of one object: the count in memory, a ceiling of it in the object's storage under
 * its own storage key, so an evicted instance does not hand out a fresh allowance.
 */
class FixedWindow {
  private current: Window | undefined;
  /** The count the stored window holds: at least this window's count (-1: nothing stored for it yet). */
  private reserved = -1;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly storageKey: string,
  ) {}

  /** When the window `now` falls in started (ms). */
  async startedAt(windowSeconds: number, now: number): Promise<number> {
    return (await this.at(windowSeconds, now)).startedAt;
  }

  /** The window `now` falls in: loaded from the stored ceiling on first use, a fresh one once the last has passed. */
  private async at(windowSeconds: number, now: number): Promise<Window> {
    if (!this.current) {
      // An instance starting again (evicted, restarted) counts from the stored ceiling.
      const stored = await this.storage.get<Window>(this.storageKey);
      this.current = stored ?? { startedAt: now, count: 0 };
      this.reserved = stored ? stored.count : -1;
    }
    if (now - this.current.startedAt >= windowSeconds * 1000) {
      this.current = { startedAt: now, count: 0 };
      this.reserved = -1;
    }
    return this.current;
  }

  /** The verdict without counting: what a request refused by another rule (an address's share) is told of the window. */
  async peek(limit: number, windowSeconds: number, now: number): Promise<RateLimitVerdict> {
    const current = await this.at(windowSeconds, now);
    return this.verdict(current, current.count < limit, limit, windowSeconds, now);
  }

  async hit(limit: number, windowSeconds: number, now: number): Promise<RateLimitVerdict> {
    const current = await this.at(windowSeconds, now);
    const allowed = current.count < limit;
    if (allowed) current.count += 1;
    // Storage is written only when the count passes the stored ceiling, reserving the next block
    // (`reserveStep`): one write per block of requests, not one per request (each is a storage
    // transaction the object commits before its next request; measured as most of what
    // auth + limit added over /health, docs/capacity.md). An evicted instance resumes from the ceiling, so it never
    // hands out more than the limit; it may refuse up to a block's worth early in that window.
    // The verdict does not wait for the write to be confirmed (`allowUnconfirmed`).
    if (current.count > this.reserved) {
      this.reserved = Math.min(Math.max(limit, current.count), current.count + reserveStep(limit) - 1);
      void this.storage.put(this.storageKey, { startedAt: current.startedAt, count: this.reserved }, { allowUnconfirmed: true });
    }
    return this.verdict(current, allowed, limit, windowSeconds, now);
  }

  private verdict(current: Window, allowed: boolean, limit: number, windowSeconds: number, now: number): RateLimitVerdict {
    const resetSeconds = Math.max(1, Math.ceil((current.startedAt + windowSeconds * 1000 - now) / 1000));
    return { allowed, limit, remaining: Math.max(0, limit - current.count), resetSeconds };
  }
}

/**
 * What each client address has used of a publishable key's current window. Held in memory only, and
 * at most one entry per admitted request of the window (refused ones add none), so at most the key's
 * limit: an instance started again forgets the shares, never the key's own count, so an address may
 * at worst get its share again in that minute, still inside the key's limit.
 */
class AddressShares {
  private windowStartedAt = -1;
  private readonly used = new Map<string, number>();

  /** Requests `address` has made in the window that started at `windowStartedAt`. */
  of(windowStartedAt: number, address: string): number {
    if (windowStartedAt !== this.windowStartedAt) {
      this.windowStartedAt = windowStartedAt;
      this.used.clear();
    }
    return this.used.get(address) ?? 0;
  }

  count(address: string, used: number) {
    this.used.set(address, used + 1);
  }
}

/**
 * One instance per key, named `key:<client id>`, and the authority for that
 * key: it holds the key's hash, owner, environment, kind, revoked flag and
 * live bearer tokens (loaded from D1 on first use, D1 staying the record),
 * and counts the key's requests in a fixed one-minute window. Authentication
 * and the rate limit are therefore one call. Revocation writes D1 and then
 * calls `forget`, so the next request reloads and sees it. The key's token
 * exchanges have a window of their own (`exchanges`), counted only once the
 * secret matched: wrong secrets are counted against the sender's address
 * (`ip:<address>`) by the caller, never here.
 *
 * Other instances are plain limiters (`ip:<address>` for failed attempts)
 * and only ever receive `hit`. One instance serialises its own requests, so
 * the count needs no locking; the window is persisted so an evicted instance
 * does not hand out a fresh allowance.
 */
/**
 * A bookmark is a position in one database's log. A live key's is `DB`'s, stored as before; a sandbox
 * key's is `DB_SANDBOX`'s, under its own name, so a sandbox key's bookmark of `DB` kept before the
 * sandbox had its own database is never handed to `DB_SANDBOX` (docs/capacity.md).
 */
const bookmarkStorageKey = (environment: DataEnvironment) => (environment === "sandbox" ? "bookmark:sandbox" : "bookmark");

export class KeyAuthority extends DurableObject<Bindings> {
  /** The key's requests (or a plain limiter's hits); stored under `window`, the name it always had. */
  private readonly requests = new FixedWindow(this.ctx.storage, "window");
  /** The key's token exchanges with the correct secret. */
  private readonly exchanges = new FixedWindow(this.ctx.storage, "exchanges");
  /** A publishable key's requests per client address, within `requests`. */
  private readonly shares = new AddressShares();
  private state: Promise<KeyState | null> | undefined;
  /** The key's latest write's bookmark, loaded from storage on first use (undefined: not loaded yet; null: none). */
  private bookmark: string | null | undefined;

  async hit(limit: number, windowSeconds: number, now = Date.now()): Promise<RateLimitVerdict> {
    return this.requests.hit(limit, windowSeconds, now);
  }

  /**
   * Checks the credential and, when it opens the key, counts the request: one call per authenticated
   * request. A publishable key presented from an origin it does not allow is admitted uncounted
   * (`verdict: null`), so the caller refuses it (`origin_not_allowed`) without spending the key's quota.
   * A publishable key's request is counted against its address's share first: an address past its
   * share is refused without spending the key's window, so one visitor or script cannot spend the
   * allowance the partner's other visitors need (requests without Origin included).
   */
  async authenticate(address: KeyAddress, credential: PresentedCredential, policy: LimitPolicy, from: RequestSource = {}, now = Date.now()): Promise<Admission> {
    const state = await this.keyState(address, now);
    if (!state || state.facts.clientId !== address.clientId || !admits(state, credential, epochSeconds(now))) return { admitted: false };
    if (refusesOrigin(state.facts, from.origin)) return { admitted: true, key: state.facts, verdict: null };
    const bookmark = (await this.latestBookmark(state.facts.environment)) ?? undefined;
    if (state.facts.kind !== "publishable" || policy.addressShare === undefined) {
      return { admitted: true, key: state.facts, verdict: await this.requests.hit(policy.limit, policy.windowSeconds, now), bookmark };
    }
    return { admitted: true, key: state.facts, verdict: await this.hitWithinShare(policy, policy.addressShare, from.clientAddress ?? UNATTRIBUTED_ADDRESS, now), bookmark };
  }

  /**
   * Keeps the bookmark of a request by this key that wrote, if it is later than the one held: concurrent
   * requests of the key may report out of order, and the kept bookmark only moves forward. Stored, so an
   * evicted instance still starts the key's next session after its last write. Answers what it keeps.
   */
  async rememberBookmark(bookmark: string, environment: DataEnvironment = "live"): Promise<string | null> {
    await this.latestBookmark(environment);
    // Compared and set with no await in between, so two reports cannot both pass the check.
    const later = laterBookmark(this.bookmark, bookmark) ?? null;
    if (later !== this.bookmark) {
      this.bookmark = later;
      await this.ctx.storage.put(bookmarkStorageKey(environment), later);
    }
    return later;
  }

  /** A key has one environment, so one database and one bookmark: the cache is that one. */
  private async latestBookmark(environment: DataEnvironment): Promise<string | null> {
    if (this.bookmark === undefined) this.bookmark = (await this.ctx.storage.get<string>(bookmarkStorageKey(environment))) ?? null;
    return this.bookmark;
  }

  private async hitWithinShare(policy: LimitPolicy, share: number, clientAddress: string, now: number): Promise<RateLimitVerdict> {
    const used = this.shares.of(await this.requests.startedAt(policy.windowSeconds, now), clientAddress);
    if (used >= share) return { ...(await this.requests.peek(policy.limit, policy.windowSeconds, now)), allowed: false, share: { limit: share, remaining: 0 } };
    const verdict = await this.requests.hit(policy.limit, policy.windowSeconds, now);
    if (verdict.allowed) this.shares.count(clientAddress, used);
    return { ...verdict, share: { limit: share, remaining: share - used - (verdict.allowed ? 1 : 0) } };
  }

  /**
   * The token exchange: when the presented key opens this partner key, the exchange is counted in
   * the key's exchange window and, while that allows it, the token's hash is recorded in D1 and held
   * here. A wrong secret is not counted here (the caller counts it against the sender's address), so
   * nobody who merely knows the client id can spend the key's exchanges. The token itself never
   * reaches this object; the isolate hands over its hash.
   */
  async issueToken(address: KeyAddress, keyHash: string, token: { hash: string; expiresAt: number }, policy: LimitPolicy, now = Date.now()): Promise<TokenIssue> {
    const state = await this.keyState(address, now);
    if (!state || state.facts.clientId !== address.clientId || state.facts.kind !== "partner" || !admits(state, { keyHash }, epochSeconds(now))) return { admitted: false };
    const verdict = await this.exchanges.hit(policy.limit, policy.windowSeconds, now);
    if (!verdict.allowed) return { admitted: true, key: state.facts, verdict };
    await insertAccessToken(database(this.env.DB), { tokenHash: token.hash, keyId: state.facts.keyId, expiresAt: token.expiresAt, createdAt: nowIso() });
    rememberToken(state, token.hash, token.expiresAt, epochSeconds(now));
    return { admitted: true, key: state.facts, verdict };
  }

  /** Drops what is held about the key; the next call reads D1 again. Called after revocation is written. */
  async forget(): Promise<void> {
    this.state = undefined;
  }

  /**
   * Loads once and shares the load among concurrent calls. A failed or empty
   * load is not kept (a key created later is found), and a load overtaken by
   * `forget` is not kept either: it may predate the revocation.
   */
  private keyState(address: KeyAddress, now: number): Promise<KeyState | null> {
    if (this.state) return this.state;
    const loading = loadKeyState(database(this.env.DB), address.keyId, address.clientId, epochSeconds(now));
    this.state = loading;
    const drop = () => {
      if (this.state === loading) this.state = undefined;
    };
    loading.then((state) => state === null && drop(), drop);
    return loading;
  }
}
