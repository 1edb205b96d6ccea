// Type-checks one temporary project under several tsconfig files in one process, for
// sdk-package.e2e.test.ts: `node typecheck.mjs <typescript> <tsconfig>...` prints, as JSON, each
// tsconfig's diagnostics formatted as tsc prints them (an empty list is a clean check).
//
// One compiler for all of them: a source file read and parsed for the first program (the scripts,
// the SDK's .d.ts, openapi-fetch's, Node's types and TypeScript's libs) is reused by the next when
// its text and options agree. Diagnostics are asked of every file except Node's types and
// TypeScript's own libs, which come from this repository, not from the package under test: checking
// those took most of each tsc run's 5-10 s of CPU and said nothing about the SDK. Everything the
// project installed (the SDK's .d.ts and its dependency's) and the two scripts are checked as
// `skipLibCheck: false` checks them, and the options and global diagnostics too.
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";

const [typescriptEntry, ...configs] = process.argv.slice(2);
const ts = createRequire(import.meta.url)(typescriptEntry);

const parsed = new Map();
const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n" };
const results = {};
for (const config of configs) {
  const path = resolve(config);
  const read = ts.readConfigFile(path, ts.sys.readFile);
  if (read.error) {
    results[config] = [ts.formatDiagnostic(read.error, formatHost)];
    continue;
  }
  const { options, fileNames, errors } = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(path), undefined, path);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(fileName, languageVersion, ...rest));
    return parsed.get(key);
  };
  const program = ts.createProgram({ rootNames: fileNames, options, host, configFileParsingDiagnostics: errors });
  const repositoryTypes = (file) => program.isSourceFileDefaultLibrary(file) || /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(file.fileName) && !file.fileName.startsWith(dirname(path));
  const checked = program.getSourceFiles().filter((file) => !repositoryTypes(file));
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  results[config] = diagnostics.map((d) => ts.formatDiagnostic(d, formatHost));
}
console.log(JSON.stringify(results));
