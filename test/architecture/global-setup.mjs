// Collects the import graph of src/ on the Node side, where files can be listed, and hands it
// to test/architecture.test.ts (which runs in workerd) through inject("importGraph").
import { collectConsoleCalls } from "./console-calls.mjs";
import { collectImportGraph } from "./import-graph.mjs";

export default function setup({ provide }) {
  provide("importGraph", collectImportGraph(process.cwd()));
  provide("consoleCalls", collectConsoleCalls(process.cwd()));
}
