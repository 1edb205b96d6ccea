/**
 * What a portal member says of themselves: the name they go by, which the
 * client hub shows as the business's adviser, and the time zone every portal time is shown in. Pure
 * (Intl only).
 */

/** A display name is plain text on one line of at most this many characters (the API's one text rule refuses bidi and control characters). */
export const DISPLAY_NAME_MAX = 100;

/** The zone of a member who chose none: times stay exact and named ("14:05 UTC"). */
export const DEFAULT_TIME_ZONE = "UTC";

/** Every IANA zone the platform knows (Intl's own list), UTC first: the choices of the settings form, and the one check of a stored or posted zone. */
export const TIME_ZONES: readonly string[] = [DEFAULT_TIME_ZONE, ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== DEFAULT_TIME_ZONE)];

const KNOWN = new Set(TIME_ZONES);

export const isTimeZone = (name: string): boolean => KNOWN.has(name);

/** The zone a member's times are shown in: the stored one while the platform still knows it, else UTC. */
export const timeZoneOf = (stored: string | null | undefined): string => (stored && isTimeZone(stored) ? stored : DEFAULT_TIME_ZONE);

/** "Your adviser: …" on the client hub: the member's name and the firm, or the firm alone when no name is set. */
export const adviserInWords = (name: string | null | undefined, firm: string): string => (name ? `${name}, ${firm}` : firm);
