import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileLines } from "../../src/persistence/file-lines.js";

const dir = mkdtempSync(join(tmpdir(), "file-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function linesOf(text: string | Buffer) {
  const file = join(dir, "lines");
  writeFileSync(file, text);
  const seen: Buffer[] = [];
  const lines = [...fileLines(file, (bytes) => seen.push(Buffer.from(bytes)))];
  return { lines, hashed: Buffer.concat(seen) };
}

describe("fileLines: a state file read in chunks", () => {
  it("keeps a line longer than its buffer whole, and multi-byte characters across chunk edges intact", () => {
    const long = `${"ż".repeat(3 * 1024 * 1024)}x`; // 6 MiB of UTF-8, past the 4 MiB buffer
    const { lines, hashed } = linesOf(`a\n${long}\nb\n`);
    expect(lines.map((line) => line.text)).toEqual(["a", long, "b"]);
    expect(lines.map((line) => line.number)).toEqual([1, 2, 3]);
    expect(hashed.toString("utf8")).toBe(`a\n${long}\nb\n`);
  });

  it("gives a last line without its newline as not ended, and never hands it to onBytes", () => {
    const { lines, hashed } = linesOf('{"o":"put"}\n{"o":"pu');
    expect(lines).toEqual([
      { text: '{"o":"put"}', number: 1, ended: true },
      { text: '{"o":"pu', number: 2, ended: false },
    ]);
    expect(hashed.toString("utf8")).toBe('{"o":"put"}\n');
  });
});
