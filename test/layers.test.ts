import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/process.js";

/**
 * The layers of docs/internals/layers.md: the entry points on the HTTP layer and the state files, those on the
 * domain, the domain on the platform. A module may import its own layer and the layers under it, never above.
 */
const SRC = join(ROOT, "src");
const RANK: Record<string, number> = { platform: 0, domain: 1, http: 2, persistence: 2, entry: 3 };

function layerOf(file: string): string {
  const top = relative(SRC, file).split("/")[0] ?? "";
  return top in RANK && top !== "entry" ? top : "entry";
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every relative import (type-only ones too: they name what a layer knows about) as the file it points at. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\bfrom\s+"(\.{1,2}\/[^"]+)"/g)].map((match) =>
    resolve(file, "..", (match[1] as string).replace(/\.js$/, ".ts")),
  );
}

describe("layers", () => {
  const files = sourceFiles(SRC);

  it("finds the source and its imports", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(importsOf(join(SRC, "main.ts"))).toContain(join(SRC, "settings.ts"));
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
});
