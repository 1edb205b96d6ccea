/**
 * A fixture made on first use and shared by every later caller of the file (or describe block) that
 * holds it: for fixtures the cases only read (test/portal/every-form.test.ts, test/leads/leads.error.test.ts).
 * A failed make is kept too, so every case that needs it fails with the same error.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
