import type { Child } from "hono/jsx";
import { raw } from "hono/html";

/**
 * Every page's first bytes. JSX has no doctype, and a page without one is drawn in quirks mode (another box
 * model, tables that ignore the font size, other line heights).
 */
const DOCTYPE = raw("<!doctype html>");

/**
 * A whole page of any area (portal, hub, application link): the doctype, then the head every page shares
 * (UTF-8, a phone's width, and no Referer, so a page reached by a token-bearing link never hands its address
 * to another site), the page's title and its own head (style, scripts, a refresh), then its body.
 */
export const HtmlPage = (props: { title: string; lang?: string; head?: Child; bodyClass?: string; children?: Child }) => (
  <>
    {DOCTYPE}
    <html lang={props.lang ?? "en"}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{props.title}</title>
        {props.head}
      </head>
      <body class={props.bodyClass}>{props.children}</body>
    </html>
  </>
);
