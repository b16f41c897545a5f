import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../src/cli/command-line.js";
import { type Block, blocksOf, isSession, PAGES, where } from "../helpers/doc-blocks.js";
import { commandsOf } from "../helpers/doc-shell.js";
import { ROOT } from "../helpers/process.js";

/**
 * Every fenced block of the user pages runs, or says why not (docs/internals/doc-blocks.md). Here: each block is
 * accounted for, without running it. The shell sessions and the transcripts spawn bash, curl and the built command
 * for every line, so they run in the slow tier (test/slow/doc-blocks.test.ts).
 */

/** What a block is, checked without running it. */
function problemsOf(block: Block, previous: Block | undefined): string[] {
  const at = where(block);
  if (block.unknownMarker !== undefined)
    return [
      `${at}: "<!-- ${block.unknownMarker} -->" is no marker (docs/internals/doc-blocks.md lists them)`,
    ];
  const marker = block.marker;
  if (marker === undefined)
    return isSession(block)
      ? []
      : [
          `${at}: a \`${block.lang || "plain"}\` block nothing runs: mark it (<!-- output -->, <!-- same as FILE -->, ` +
            "<!-- run by FILE -->, <!-- help: COMMAND -->, <!-- transcript -->, <!-- not run: REASON -->)",
        ];
  switch (marker.kind) {
    case "not run":
      return marker.reason.length >= 12 ? [] : [`${at}: "not run" needs a reason a reader understands`];
    case "output":
      return previous === undefined ? [`${at}: an output block with no block before it`] : [];
    case "same as": {
      const file = join(ROOT, marker.file);
      if (!existsSync(file)) return [`${at}: ${marker.file} does not exist`];
      return readFileSync(file, "utf8") === block.text
        ? []
        : [`${at}: the block is not ${marker.file} as it is (copy the file into the page)`];
    }
    case "run by": {
      const file = join(ROOT, marker.file);
      if (!existsSync(file)) return [`${at}: ${marker.file} does not exist`];
      const source = readFileSync(file, "utf8");
      // The test names the page and the section it takes the block from.
      const title = block.heading.replace(/^#+ /, "");
      return source.includes(basename(block.page)) && source.includes(title)
        ? []
        : [
            `${at}: ${marker.file} names neither ${basename(block.page)} nor "${title}": is it the test that runs this?`,
          ];
    }
    case "help": {
      const line = parseCommandLine([...marker.command.split(" ").filter(Boolean), "--help"]);
      if (line.command !== "help") return [`${at}: no help for "${marker.command}"`];
      const usage = line.text
        .split("\n")
        .map((text) => text.replace(/^(Usage:)?\s+loyalty-mock /, "loyalty-mock "));
      return block.text
        .trimEnd()
        .split("\n")
        .filter((text) => !usage.includes(text))
        .map((text) => `${at}: "${text}" is not a usage line of loyalty-mock ${marker.command} --help`);
    }
    case "transcript":
      return /^\$ /.test(block.text) ? [] : [`${at}: a transcript starts with "$ " and a command`];
  }
}

describe("every block of the user pages runs, or says why not", () => {
  for (const page of PAGES)
    it(`${page}: each block is run, or marked`, () => {
      const blocks = blocksOf(page);
      const problems = blocks.flatMap((block, index) => problemsOf(block, blocks[index - 1]));
      for (const block of blocks.filter(isSession)) commandsOf(block);
      expect(problems).toEqual([]);
    });
});
