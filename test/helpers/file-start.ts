import { vi } from "vitest";
import { setPanelLoader } from "../../src/services/panel/panel-cache";

// A setup file: it runs before every test file. The workerd files of a worker share one runtime
// (vitest.config.mts), so module state a file changed stays for the next file of that worker.
// Each file starts from the module state it would have had with a runtime of its own: the D1 panel
// loader and a cold panel cache (test/helpers/panel.ts `panelOf`), real timers, no spies or stubs.
setPanelLoader(null);
vi.useRealTimers();
vi.restoreAllMocks();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
