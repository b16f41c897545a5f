import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * The layers of docs/internals/layers.md, bottom up: the platform; the emulator's machinery (emulation/: fault
 * rules, the journal, rate limits, the change feed, path patterns), which knows no resource and none of the
 * service's errors; the domain (the vendor's resources and the project that holds them and the machinery); the
 * HTTP layer and the state files beside each other; the configuration (the settings table, which names options of
 * both); the clients (clients/), which talk to a server from outside: the control client and the Testcontainers
 * module, which know the control API's schemas and the settings' names by their types only, and the play client and
 * the bounded request verify and play make, which read the HTTP layer's operation table; the assembly at the src/
 * root (server.ts, index.ts); the command (cli/); and the bin (main.ts) on top.
 * A module may import its own layer and the layers under it, never one above, nor a layer of its own rank.
 */
const SRC = join(ROOT, "src");
const RANK: Record<string, number> = {
  platform: 0,
  emulation: 1,
  domain: 2,
  http: 3,
  persistence: 3,
  config: 4,
  clients: 5,
  assembly: 6,
  cli: 7,
  bin: 8,
};

function layerOf(file: string): string {
  const path = relative(SRC, file);
  if (path === "main.ts") return "bin";
  const top = path.split("/")[0] ?? "";
  return path.includes("/") && top in RANK ? top : "assembly";
}

const sourceFiles = (dir: string) => filesUnder(dir, ".ts");

/** Every relative import (type-only ones too: they name what a layer knows about) as the file it points at. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\bfrom\s+"(\.{1,2}\/[^"]+)"/g)].map((match) =>
    resolve(file, "..", (match[1] as string).replace(/\.js$/, ".ts")),
  );
}

/**
 * The import cycles among `files`: each strongly connected component of more than one file, or a file importing
 * itself (Tarjan's algorithm), as the list of its files, so the failure names every file of the ring.
 */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target))
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component.reverse());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return components;
}

describe("layers", () => {
  const files = sourceFiles(SRC);

  it("finds the source and its imports", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(importsOf(join(SRC, "cli", "serve.ts"))).toContain(join(SRC, "config", "settings.ts"));
  });

  it("no module imports a layer above its own; http and the state files stay apart", () => {
    const wrong: string[] = [];
    for (const file of files)
      for (const target of importsOf(file)) {
        const [from, to] = [layerOf(file), layerOf(target)];
        const above = (RANK[to] as number) > (RANK[from] as number);
        const sideways = from !== to && RANK[to] === RANK[from];
        if (above || sideways)
          wrong.push(`${relative(SRC, file)} (${from}) imports ${relative(SRC, target)} (${to})`);
      }
    expect(wrong).toEqual([]);
  });

  it("no import cycle anywhere, type-only imports included", () => {
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    const cycles = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(SRC, file)).join(" -> "));
    expect(cycles).toEqual([]);
  });

  it("the cycle finder finds a ring, a self-import, and nothing in a tree", () => {
    const ring = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
    ]);
    expect(cyclesOf(ring)).toEqual([["a", "b", "c"], ["e"]]);
    expect(
      cyclesOf(
        new Map([
          ["a", ["b", "c"]],
          ["b", ["c"]],
          ["c", []],
        ]),
      ),
    ).toEqual([]);
  });
});

/**
 * The folders of src/http in their own layers, bottom up, as docs/internals/layers.md draws them: the HTTP errors
 * and the speed tricks; what every part shares at the folder's top (route(), the request's context, JSON
 * answers); reading input; the operations; what every request passes (the entrance, the traffic step, the node:http
 * server); the control API; and at the top the app, its one error handler and the dashboard's files, which put
 * the rest together. A folder imports its own rank and those under it, never one above nor beside it.
 */
const HTTP = join(SRC, "http");
const HTTP_RANK: Record<string, number> = {
  errors: 0,
  fast: 0,
  shared: 1,
  input: 2,
  operations: 3,
  entrance: 4,
  traffic: 4,
  server: 4,
  control: 5,
  app: 6,
};
/** The files at src/http's top that put the app together; the others there are shared by every folder. */
const HTTP_APP = new Set(["app.ts", "error-handler.ts", "ui.ts"]);

function httpFolderOf(file: string): string {
  const path = relative(HTTP, file);
  if (!path.includes("/")) return HTTP_APP.has(path) ? "app" : "shared";
  return path.split("/")[0] as string;
}

describe("the layers inside src/http", () => {
  const files = sourceFiles(HTTP);

  it("ranks every folder of src/http", () => {
    const folders = readdirSync(HTTP, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name).filter((name) => !(name in HTTP_RANK))).toEqual([]);
    expect(httpFolderOf(join(HTTP, "route.ts"))).toBe("shared");
    expect(httpFolderOf(join(HTTP, "error-handler.ts"))).toBe("app");
  });

  it("no folder imports one above it or beside it", () => {
    const wrong: string[] = [];
    for (const file of files)
      for (const target of importsOf(file)) {
        if (relative(HTTP, target).startsWith("..")) continue;
        const [from, to] = [httpFolderOf(file), httpFolderOf(target)];
        const above = (HTTP_RANK[to] as number) > (HTTP_RANK[from] as number);
        const sideways = from !== to && HTTP_RANK[to] === HTTP_RANK[from];
        if (above || sideways)
          wrong.push(`${relative(HTTP, file)} (${from}) imports ${relative(HTTP, target)} (${to})`);
      }
    expect(wrong).toEqual([]);
  });
});

describe("the house's shape", () => {
  it("the src/ root holds the bin, the library and the server, at most four files; the rest is in folders by role", () => {
    const root = readdirSync(SRC, { withFileTypes: true });
    const files = root.filter((entry) => entry.isFile()).map((entry) => entry.name);
    expect(files.length).toBeLessThanOrEqual(4);
    expect(files).toEqual(expect.arrayContaining(["main.ts", "index.ts", "server.ts"]));
    const folders = root.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in RANK))).toEqual([]);
  });

  it("src/http holds the app and what every part of it shares, at most ten files; the rest is in folders by job", () => {
    const top = readdirSync(join(SRC, "http"), { withFileTypes: true });
    expect(top.filter((entry) => entry.isFile()).length).toBeLessThanOrEqual(10);
    expect(top.filter((entry) => entry.isDirectory()).map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        "server",
        "entrance",
        "operations",
        "input",
        "errors",
        "control",
        "traffic",
        "fast",
      ]),
    );
  });

  it("tests live in area folders, none loose at the top of test/", () => {
    const loose = readdirSync(join(ROOT, "test")).filter((name) => name.endsWith(".test.ts"));
    expect(loose).toEqual([]);
  });
});
