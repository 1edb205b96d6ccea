import { randomToken } from "./crypto";

/** Prefixed public ids (`org_…`, `req_…`): the prefix tells a reader what an id names. */
export const newId = (prefix: string, length = 20) => `${prefix}_${randomToken(length)}`;

export const newRequestId = () => newId("req", 24);

export const nowIso = () => new Date().toISOString();
