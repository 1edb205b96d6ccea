// Starts the register and VAT stand-in once for the suite; tests read its
// address with inject("registerServerUrl").
import { startRegisterServer } from "./register-server.mjs";

export default async function setup({ provide }) {
  const registers = await startRegisterServer();
  provide("registerServerUrl", `http://127.0.0.1:${registers.port}`);
  return () => registers.close();
}
