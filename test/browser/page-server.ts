import { createServer, type Server } from "node:http";

/**
 * A partner's web page on its own origin: serves an empty HTML page so the
 * browser has an origin to make cross-origin API calls from.
 */
export async function startPageServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end("<!doctype html><html><head><title>partner page</title></head><body>partner page</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
