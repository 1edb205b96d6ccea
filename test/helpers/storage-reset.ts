import { reset } from "cloudflare:test";

// A setup file of the "workerd-isolated" project only (vitest.config.mts), listed before
// apply-migrations.ts: it runs before each of that project's files, which share ONE runtime.
// Those files read whole tables (test/helpers/storage-snapshot.ts, prequalification's "writes nothing")
// or rely on the demo panel alone, so each starts from storage as a runtime of its own would have it.
//
// `reset()` (@cloudflare/vitest-pool-workers) deletes every Durable Object's storage, and Miniflare
// keeps D1 and R2 in Durable Objects too: the D1 database (its tables and `d1_migrations`, which
// apply-migrations.ts then applies again), every R2 object and every KeyAuthority instance (keys'
// cached state and every rate-limit bucket) go. Queues hold no state to reset: the register lookups
// go to a queue nothing consumes, and a webhook message left by the previous file finds no delivery
// in the emptied database and writes nothing.
await reset();
