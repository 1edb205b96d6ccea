import { listPanel } from "../../db/panel/panel";
import type { PanelProduct } from "../../domain/panel/product";
import type { Deps } from "../deps";

/**
 * The panel, read from D1 once per isolate and kept for a short lifetime, so
 * a prequalification costs no database round trip on the hot path. A change
 * made through the operator API is seen at once by the isolate that made it
 * (it invalidates) and by every other isolate within the lifetime.
 */
export const PANEL_CACHE_TTL_MS = 60_000;

let entry: { loadedAt: number; panel: Promise<PanelProduct[]> } | null = null;

/** How many times the panel was read from D1; tests read it to prove the cache holds. */
export const panelCacheStats = { loads: 0 };

/** The panel as of `deps.clock()`, read through `deps.db` when the isolate holds none younger than the lifetime. */
export function currentPanel(deps: Deps): Promise<PanelProduct[]> {
  const now = deps.clock().getTime();
  if (entry && now - entry.loadedAt < PANEL_CACHE_TTL_MS) return entry.panel;
  panelCacheStats.loads++;
  // The promise is cached, so concurrent requests on a cold isolate share one read.
  const panel = listPanel(deps.db);
  const loaded = { loadedAt: now, panel };
  entry = loaded;
  // A failed read is not kept: the next request tries again.
  panel.catch(() => {
    if (entry === loaded) entry = null;
  });
  return panel;
}

export function invalidatePanelCache() {
  entry = null;
}
