import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./process.js";

/**
 * The fenced blocks of the user pages and what runs each (docs/internals/doc-blocks.md). A block is run by its
 * page's shell session when it is `sh` and unmarked; otherwise an HTML comment on the line right above its fence
 * says what it is: `<!-- output -->`, `<!-- same as FILE -->`, `<!-- run by FILE -->`, `<!-- help: COMMAND -->`,
 * `<!-- transcript -->` or `<!-- not run: REASON -->`. test/docs/doc-blocks.test.ts holds every block to that.
 */

/** The pages whose every block runs (or says why not). Generated pages write their markers themselves. */
export const PAGES: readonly string[] = [
  "README.md",
  ...readdirSync(join(ROOT, "docs", "guide"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/guide/${name}`),
  ...readdirSync(join(ROOT, "docs", "reference"))
    .filter((name) => name.endsWith(".md") && name !== "control-api.md")
    .sort()
    .map((name) => `docs/reference/${name}`),
];

export type Marker =
  | { kind: "not run"; reason: string }
  | { kind: "output" }
  | { kind: "same as"; file: string }
  | { kind: "run by"; file: string }
  | { kind: "help"; command: string }
  | { kind: "transcript" };

export interface Block {
  page: string;
  /** The line of its opening fence, from 1. */
  line: number;
  lang: string;
  /** The body, each line ending in a newline. */
  text: string;
  /** The nearest heading above it, as written (`## The recipe`), or "" before the first. */
  heading: string;
  /** Absent: no comment above the fence. */
  marker?: Marker;
  /** A comment above the fence that is not a marker. */
  unknownMarker?: string;
}

const MARKERS: [RegExp, (match: RegExpExecArray) => Marker][] = [
  [/^not run: (.+)$/, (m) => ({ kind: "not run", reason: m[1] as string })],
  [/^output$/, () => ({ kind: "output" })],
  [/^same as (\S+)$/, (m) => ({ kind: "same as", file: m[1] as string })],
  [/^run by (\S+)$/, (m) => ({ kind: "run by", file: m[1] as string })],
  [/^help: (.*)$/, (m) => ({ kind: "help", command: m[1] as string })],
  [/^transcript$/, () => ({ kind: "transcript" })],
];

function markerOf(comment: string): Marker | undefined {
  for (const [pattern, make] of MARKERS) {
    const match = pattern.exec(comment);
    if (match) return make(match);
  }
  return undefined;
}

export function readPage(page: string): string {
  return readFileSync(join(ROOT, page), "utf8");
}

/** Every fenced block of a page, in order. */
export function blocksOf(page: string, text = readPage(page)): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  let heading = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^#{1,6} /.test(line)) heading = line;
    const open = /^```(\S*)\s*$/.exec(line);
    if (!open) continue;
    const end = lines.findIndex((candidate, index) => index > i && candidate === "```");
    if (end === -1) throw new Error(`${page}:${i + 1}: a block that never ends`);
    const above = /^<!-- (.*) -->$/.exec(lines[i - 1] ?? "")?.[1];
    const marker = above === undefined ? undefined : markerOf(above);
    blocks.push({
      page,
      line: i + 1,
      lang: open[1] as string,
      text: lines.slice(i + 1, end).join("\n") + (end > i + 1 ? "\n" : ""),
      heading,
      ...(marker !== undefined && { marker }),
      ...(above !== undefined && marker === undefined && { unknownMarker: above }),
    });
    i = end;
  }
  return blocks;
}

/** A shell block its page's session runs: `sh` without a marker. */
export const isSession = (block: Block) => block.marker === undefined && block.lang === "sh";

/** Where a block is, for a failure's message. */
export const where = (block: Block) => `${block.page}:${block.line}`;
