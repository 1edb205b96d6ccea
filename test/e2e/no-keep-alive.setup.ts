// A setup file of the e2e config (test/e2e/vitest.config.mts): every e2e and browser file's fetch goes
// through a pool without keep-alive (test/e2e/no-keep-alive.ts says why).
import { useNoKeepAlive } from "./no-keep-alive";

useNoKeepAlive();
