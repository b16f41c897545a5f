import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./process.js";

/**
 * A consumer's folder for the installation tests, installed without the network. npm's cache holds every
 * tarball since `npm ci` ran here, but not the registry's package documents, so `npm install` cannot resolve a
 * range offline. The consumer gets a lockfile instead, made from this repository's own: the entries that the
 * package's dependencies (and the consumer's dev tools) reach, at the versions tested here. With it
 * `npm install --offline` takes every tarball from the cache by its integrity.
 */
interface LockEntry {
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
}

const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

/** Where Node would find `name` from the package at `from`: its own node_modules, then each parent's. */
function locate(entries: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base === "" ? "" : `${base}/`}node_modules/${name}`;
    if (entries[candidate]) return candidate;
    if (base === "") return undefined;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent === -1 ? "" : base.slice(0, parent);
  }
}

/** package.json and package-lock.json of a consumer with `devTools` installed and room for this package. */
export function consumerManifests(devTools: string[], scripts: Record<string, string> = {}) {
  const lock = read("package-lock.json") as { packages: Record<string, LockEntry> };
  const ours = read("package.json") as { dependencies: Record<string, string> };
  const picked = new Map<string, LockEntry>();
  const visit = (path: string) => {
    const entry = lock.packages[path];
    if (picked.has(path) || entry === undefined) return;
    // Dev and peer marks are this repository's; npm works out the consumer's own.
    const { dev, devOptional, peer, ...kept } = entry;
    picked.set(path, kept);
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = locate(lock.packages, path, name);
      if (found) visit(found);
    }
  };
  for (const name of [...Object.keys(ours.dependencies), ...devTools]) visit(`node_modules/${name}`);
  const devDependencies = Object.fromEntries(
    devTools.map((name) => [name, lock.packages[`node_modules/${name}`]?.version as string]),
  );
  const manifest = { name: "app", private: true, type: "module", scripts, devDependencies };
  const packages = { "": { name: "app", devDependencies }, ...Object.fromEntries(picked) };
  return { manifest, lock: { name: "app", lockfileVersion: 3, requires: true, packages } };
}

/** The body of the first ```lang block after the heading of a Markdown file of the repository (docs/guide/ci.md). */
export function docBlock(file: string, heading: string, lang: string): string {
  const page = readFileSync(join(ROOT, file), "utf8");
  const at = page.startsWith(`${heading}\n`) ? 0 : page.indexOf(`\n${heading}\n`);
  if (at === -1) throw new Error(`${file} has no "${heading}"`);
  const start = page.indexOf(`\n\`\`\`${lang}\n`, at);
  const end = page.indexOf("\n```\n", start + 1);
  return page.slice(start + lang.length + 5, end + 1);
}

export interface WorkflowStep {
  run: string;
  always: boolean;
}

/** The `run` steps of the CI guide's GitHub Actions job, in order, and the job's `env`. */
export function workflowSteps(yaml: string): { env: Record<string, string>; steps: WorkflowStep[] } {
  const env: Record<string, string> = {};
  const envBlock = /\n {4}env:\n((?: {6}\S.*\n)+)/.exec(yaml)?.[1] ?? "";
  for (const [, name, value] of envBlock.matchAll(/^ {6}(\w+): (.*)$/gm))
    env[name as string] = value as string;
  const steps: WorkflowStep[] = [];
  for (const step of yaml.split(/\n {6}- /).slice(1)) {
    const always = /^\s*if: always\(\)$/m.test(step);
    const inline = /^(?:\s*)run: (?!\|)(.+)$/m.exec(step)?.[1];
    const block = /run: \|\n((?: {10}.*\n?)+)/.exec(step)?.[1];
    const run = inline ?? block?.replace(/^ {10}/gm, "");
    if (run !== undefined) steps.push({ run, always });
  }
  return { env, steps };
}
