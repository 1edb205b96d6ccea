/** How a PATCH body changes a held draft. */
import type { Lead, LeadParts } from "./types";

const MERGED_OBJECTS = ["channel", "business", "contact", "funding", "trading", "consent"] as const;

function mergeObject<T extends object>(held: T | null, patch: T | null | undefined): T | null {
  if (patch === undefined) return held;
  if (patch === null) return null;
  const out: Record<string, unknown> = { ...(held ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const heldValue = out[key];
    // One nested level (business.vat) merges the same way.
    if (value !== null && typeof value === "object" && !Array.isArray(value) && heldValue && typeof heldValue === "object") {
      out[key] = mergeObject(heldValue as object, value as object);
    } else if (value === null) {
      delete out[key];
    } else {
      out[key] = value;
    }
  }
  return out as T;
}

/**
 * A PATCH applied to the held parts: nested objects merge key by key, `null`
 * clears a key (or a whole part), absent keys are untouched, and the list of
 * significant persons is replaced whole.
 */
export function mergeParts(held: Pick<Lead, "partnerReference" | "significantPersons" | (typeof MERGED_OBJECTS)[number]>, patch: LeadParts) {
  const merged = { ...held };
  for (const part of MERGED_OBJECTS) {
    (merged as Record<string, unknown>)[part] = mergeObject(held[part] as object | null, patch[part] as object | null | undefined);
  }
  if (patch.partner_reference !== undefined) merged.partnerReference = patch.partner_reference;
  if (patch.significant_persons !== undefined) merged.significantPersons = patch.significant_persons ?? [];
  return merged;
}
