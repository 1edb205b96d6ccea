// Starts the Node-side webhook receiver and DoH mock once for the suite; tests
// read their addresses with inject("webhookReceiverUrl") / inject("dohUrl").
import { startDnsOverHttps, startReceiver } from "./receiver.mjs";

export default async function setup({ provide }) {
  const receiver = await startReceiver();
  const doh = await startDnsOverHttps();
  provide("webhookReceiverUrl", `http://127.0.0.1:${receiver.port}`);
  provide("dohUrl", `http://127.0.0.1:${doh.port}`);
  return async () => {
    receiver.server.closeAllConnections?.();
    doh.server.closeAllConnections?.();
    await Promise.all([new Promise((r) => receiver.server.close(r)), new Promise((r) => doh.server.close(r))]);
  };
}
