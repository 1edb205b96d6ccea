import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { patchedTestInternal, testInternalPath } from "../../harness/wrapper-prototypes.mjs";

// The pool's `createProxyPrototypeClass`, taken from its module text and run in Node with a plain class
// in place of `DurableObject` (the upstream issue's reproduction, cloudflare/workers-sdk#15092).
function wrapperFactory(moduleText: string) {
  const start = moduleText.indexOf("function createProxyPrototypeClass(");
  const end = moduleText.indexOf("\n}\n", start) + 2;
  const source = moduleText.slice(start, end);
  return new Function("IGNORED_KEYS", `${source}\nreturn createProxyPrototypeClass;`)(["self"]) as (
    superClass: new (...args: any[]) => object,
    unknownKey: (key: string) => unknown,
  ) => new (...args: unknown[]) => any;
}

class Base {
  constructor(readonly n: number) {}
}

describe("the pool's wrapper classes (test/harness/wrapper-prototypes.mts)", () => {
  const served = patchedTestInternal(readFileSync(testInternalPath(), "utf8"));

  it("install the prototype's proxy once: the thousandth instance reads through one trap, as the first did", () => {
    const unknownKeys: string[] = [];
    const Wrapper = wrapperFactory(served)(Base, (key) => (unknownKeys.push(key), `rpc:${key}`));
    Wrapper.prototype.fetch = function () {
      return "fetched";
    };
    new Wrapper(0);
    const proxied = Wrapper.prototype;
    for (let i = 1; i < 1000; i++) new Wrapper(i);
    expect(Wrapper.prototype).toBe(proxied);
    const instance = new Wrapper(1000);
    expect(instance.n).toBe(1000);
    expect(instance.fetch()).toBe("fetched");
    expect(instance).toBeInstanceOf(Base);
    // The trap still hands an unknown key to the pool's RPC lookup, once per read, and leaves symbols and `self` alone.
    expect(instance.someRpcMethod).toBe("rpc:someRpcMethod");
    expect(instance.self).toBeUndefined();
    expect(instance[Symbol("x")]).toBeUndefined();
    expect(unknownKeys).toEqual(["someRpcMethod"]);
  });

  it("the unpatched text wraps again on every construction (what the patch is for)", () => {
    const Wrapper = wrapperFactory(readFileSync(testInternalPath(), "utf8"))(Base, () => undefined);
    new Wrapper(0);
    const first = Wrapper.prototype;
    new Wrapper(1);
    expect(Wrapper.prototype).not.toBe(first);
  });

  it("refuses to serve a module whose text it does not recognise", () => {
    expect(() => patchedTestInternal("function createProxyPrototypeClass() {}")).toThrow(/workers-sdk#15092/);
  });
});
