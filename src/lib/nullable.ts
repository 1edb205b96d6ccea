/** The "unknown is null" rule of every view: a key the service does not hold is present and null. */
export const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);
