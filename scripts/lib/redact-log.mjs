// `npm run dev` prints wrangler's output, whose request lines carry the request path. A client-hub
// link's first visit (`/hub/{leadId}/{token}`) and an invitation link's (`/portal/invitations/{token}`)
// would so print a working credential into the terminal and any log it is piped to (issue 24 item 15).
// Every line of the child's output passes through `redactTokens` first; the path keeps its shape, the
// token reads `[token]`. The tokens: a hub token is 40 hex characters (src/lib/signed-links.ts), an
// invitation token 43 base64url characters (src/services/portal/invitations.ts).

const HUB_TOKEN_IN_PATH = /(\/hub\/[^/\s?#]+\/)[0-9a-fA-F]{40}(?![0-9a-fA-F])/g;
const INVITATION_TOKEN_IN_PATH = /(\/portal\/invitations\/)[A-Za-z0-9_-]{20,}/g;

/** The text with every hub or invitation token in a path replaced by `[token]`. */
export const redactTokens = (text) => text.replace(HUB_TOKEN_IN_PATH, "$1[token]").replace(INVITATION_TOKEN_IN_PATH, "$1[token]");

/**
 * A writer that redacts whole lines: a chunk may end inside a token, so the unfinished tail waits for
 * its newline (or 200 ms of quiet, for a prompt that ends without one).
 * @param {(text: string) => void} write
 */
export function redactingLines(write) {
  let rest = "";
  let timer;
  const flush = () => {
    clearTimeout(timer);
    if (rest) write(redactTokens(rest));
    rest = "";
  };
  return {
    push(chunk) {
      rest += String(chunk);
      const end = rest.lastIndexOf("\n");
      if (end >= 0) {
        write(redactTokens(rest.slice(0, end + 1)));
        rest = rest.slice(end + 1);
      }
      clearTimeout(timer);
      if (rest) timer = setTimeout(flush, 200);
    },
    flush,
  };
}
