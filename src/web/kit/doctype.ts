import { raw } from "hono/html";

/**
 * Every page's first bytes. JSX has no doctype, and a page without one is drawn in quirks mode (another box
 * model, tables that ignore the font size, other line heights), so each area's outermost template starts with it.
 */
export const DOCTYPE = raw("<!doctype html>");
