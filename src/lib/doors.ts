/**
 * The doors of the service by path: the prefix each is mounted under (src/app.ts mounts a door's module
 * there) and what it speaks. Whatever must know which door a request is for asks this one table: the app
 * routes by it, the body limit gives a page door's forms the form limit, the database keeps a page door's
 * read bookmark in a cookie on the door's path. A door added here is known to all three at once; one
 * answered by hand somewhere was forgotten somewhere else (the application link's forms once had the
 * APIs' JSON limit and no bookmark).
 */
import { EMBED_ROUTE } from "./embed-route";
import { APPLICATION_ROUTE, FILE_ROUTE, HUB_ROUTE } from "./signed-links";

/**
 * What a door speaks: `api` JSON (problem+json refusals); `pages` HTML pages a browser reads and posts
 * forms to; `files` signed downloads; `reference` the API reference and its guides; `embed` the widget's
 * static script.
 */
type DoorKind = "api" | "pages" | "files" | "reference" | "embed";

/** Every door, its prefix the door's own constant (test/app-doors.test.ts holds them equal). */
export const DOOR_TABLE = [
  { prefix: "/partner/v1", kind: "api" },
  { prefix: "/v1", kind: "api" },
  { prefix: "/admin/v1", kind: "api" },
  { prefix: FILE_ROUTE, kind: "files" },
  { prefix: HUB_ROUTE, kind: "pages" },
  { prefix: APPLICATION_ROUTE, kind: "pages" },
  { prefix: "/portal", kind: "pages" },
  { prefix: "/docs", kind: "reference" },
  { prefix: EMBED_ROUTE, kind: "embed" },
] as const satisfies readonly { prefix: string; kind: DoorKind }[];

export type DoorPrefix = (typeof DOOR_TABLE)[number]["prefix"];

/** The door whose prefix the path is under, if any: the prefix itself or anything below it, never a suffix. */
export const doorAt = (path: string) => DOOR_TABLE.find((d) => path === d.prefix || path.startsWith(`${d.prefix}/`));

/** The prefix of the door of pages (portal, hub, application link) the path is under, if it is under one. */
export const pageDoorAt = (path: string): DoorPrefix | undefined => {
  const door = doorAt(path);
  return door?.kind === "pages" ? door.prefix : undefined;
};
