import { vi } from "vitest";
import { invalidatePanelCache } from "../../src/services/panel/panel-cache";

// A setup file: it runs before every test file. The workerd files of a worker share one runtime
// (vitest.config.mts), so module state a file changed stays for the next file of that worker.
// Each file starts from the module state it would have had with a runtime of its own: a cold panel
// cache (another file may have narrowed the panel, test/helpers/panel.ts `panelOf`), real timers, no
// spies or stubs.
invalidatePanelCache();
vi.useRealTimers();
vi.restoreAllMocks();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
