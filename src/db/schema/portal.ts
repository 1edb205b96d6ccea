import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organisations } from "./identity";

/** A person of an organisation who signs in to the portal with a passkey (no password is ever stored). */
export const portalMembers = sqliteTable(
  "portal_members",
  {
    id: text("id").primaryKey(),
    organisationId: text("organisation_id").notNull().references(() => organisations.id),
    /** Lower-cased; only shown to the organisation's own admins. */
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    createdAt: text("created_at").notNull(),
    removedAt: text("removed_at"),
    /** The environment the member last switched to: a new session opens in it, so a live user is not dropped into the sandbox. */
    lastEnvironment: text("last_environment", { enum: ["sandbox", "live"] }).notNull().default("sandbox"),
    /** The name the member goes by (the client hub's "Your adviser"); null: none given, the firm is named alone. */
    displayName: text("display_name"),
    /** The IANA zone every portal time is shown in for this member (domain/portal/profile.ts); null: UTC. */
    timeZone: text("time_zone"),
  },
  (t) => [uniqueIndex("portal_members_organisation_email").on(t.organisationId, t.email)],
);

export const portalInvitations = sqliteTable(
  "portal_invitations",
  {
    id: text("id").primaryKey(),
    organisationId: text("organisation_id").notNull().references(() => organisations.id),
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    /** SHA-256 hex of the link's token: the link itself is shown once. */
    tokenHash: text("token_hash").notNull(),
    /** `operator` or the inviting member's id. */
    invitedBy: text("invited_by").notNull(),
    /** Epoch seconds. */
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    memberId: text("member_id"),
    createdAt: text("created_at").notNull(),
    /** Set when the invitation dies unused: revoked by an admin or the operator, or by a newer invitation, an acceptance or a removal for the same email. */
    revokedAt: text("revoked_at"),
    /** The name the invitation was issued with: the member's display name on joining. */
    displayName: text("display_name"),
  },
  (t) => [
    uniqueIndex("portal_invitations_token").on(t.tokenHash),
    index("portal_invitations_organisation").on(t.organisationId),
    index("portal_invitations_email").on(t.organisationId, t.email),
  ],
);

export const portalPasskeys = sqliteTable(
  "portal_passkeys",
  {
    /** base64url credential id. */
    credentialId: text("credential_id").primaryKey(),
    memberId: text("member_id").notNull().references(() => portalMembers.id),
    /** base64url COSE public key. */
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("portal_passkeys_member").on(t.memberId)],
);

/**
 * A passkey a new sign-in link replaced: kept so that whoever still holds it is told,
 * on their next sign-in with it, that their passkeys were replaced, when and by whose link. Never a way in.
 */
export const portalReplacedPasskeys = sqliteTable("portal_replaced_passkeys", {
  credentialId: text("credential_id").primaryKey(),
  memberId: text("member_id").notNull().references(() => portalMembers.id),
  /** The replaced passkey's own key: the refusal is only told to an answer signed by it. */
  publicKey: text("public_key").notNull(),
  counter: integer("counter").notNull(),
  invitationId: text("invitation_id").notNull().references(() => portalInvitations.id),
  replacedAt: text("replaced_at").notNull(),
});

export const portalChallenges = sqliteTable("portal_challenges", {
  id: text("id").primaryKey(),
  challenge: text("challenge").notNull(),
  purpose: text("purpose", { enum: ["register", "sign_in"] }).notNull(),
  invitationId: text("invitation_id"),
  /** Epoch seconds. */
  expiresAt: integer("expires_at").notNull(),
});

export const portalSessions = sqliteTable(
  "portal_sessions",
  {
    /** SHA-256 hex of the cookie's token. */
    tokenHash: text("token_hash").primaryKey(),
    memberId: text("member_id").notNull().references(() => portalMembers.id),
    organisationId: text("organisation_id").notNull().references(() => organisations.id),
    /** The environment the member is looking at; sandbox unless they switch. */
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull().default("sandbox"),
    createdAt: text("created_at").notNull(),
    /** Epoch seconds of the last request: sessions end after 12 idle hours. */
    lastSeenAt: integer("last_seen_at").notNull(),
    /** Epoch seconds of the session's last passkey proof (sign-in, enrolment, step-up): the step-up actions need one of the last 5 minutes. */
    passkeyVerifiedAt: integer("passkey_verified_at").notNull().default(0),
    endedAt: text("ended_at"),
  },
  (t) => [index("portal_sessions_member").on(t.memberId)],
);

export const portalAuditLog = sqliteTable(
  "portal_audit_log",
  {
    id: text("id").primaryKey(),
    // No foreign key to organisations (migration 0035): the log is in every database, the sandbox's has no organisations.
    organisationId: text("organisation_id").notNull(),
    memberId: text("member_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** A fixed action name, e.g. `key.created`, `lead.submitted`. */
    action: text("action").notNull(),
    /** The id the action was about (a lead id, a client id); never personal data. */
    target: text("target"),
    at: text("at").notNull(),
  },
  (t) => [index("portal_audit_organisation").on(t.organisationId, t.at), index("portal_audit_target").on(t.organisationId, t.target)],
);

/**
 * A portal form token used for one action: the first post claims the row, and
 * writes its outcome (the HTTP status, the redirect's Location) when it finishes; a second post of
 * the same rendered form is shown that outcome instead of acting again.
 */
export const portalFormUses = sqliteTable(
  "portal_form_uses",
  {
    /** The session's token hash. */
    sessionId: text("session_id").notNull(),
    /** The form token's random part: one per rendered page. */
    nonce: text("nonce").notNull(),
    /** The path the form posted to. */
    action: text("action").notNull(),
    createdAt: text("created_at").notNull(),
    /** Null while the first post is in flight. */
    status: integer("status"),
    location: text("location"),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.nonce, t.action] }), index("portal_form_uses_created").on(t.createdAt)],
);

/**
 * A refused form post's page, kept for the one GET its 303 leads to (post/redirect/get): the portal's,
 * the hub's and the application link's forms alike (web/kit/refused-posts.ts).
 */
export const refusedPosts = sqliteTable(
  "refused_posts",
  {
    /** sha256 of the random one-time id the redirect carries (`?refused=`); the id itself is never stored. */
    idHash: text("id_hash").primaryKey(),
    /** sha256 of the browser session that posted (the portal session and environment, the hub's or the link's cookie). */
    sessionHash: text("session_hash").notNull(),
    /** The form's page the redirect goes to: the page is shown at this path only. */
    path: text("path").notNull(),
    /** The refusal's status (400, 409, 422), answered again with the page. */
    status: integer("status").notNull(),
    /** The page as drawn for the refusal, its form tokens taken out. */
    page: text("page").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("refused_posts_created").on(t.createdAt)],
);
