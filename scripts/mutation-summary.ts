import { readFileSync, writeFileSync } from "node:fs";

/**
 * `npm run test:mutation` ends here: Stryker's incremental record (every mutant with the sources and tests it ran
 * against, about 10 MB, rewritten by every run) stays in `.cache/mutation/`, out of git, and this writes what is
 * worth keeping in the history: per file, the mutants by status and the score, and where each survivor stands.
 * docs/internals/testing.md's table is checked against it (test/docs/mutation-summary.test.ts).
 */

const INCREMENTAL = process.argv[2] ?? ".cache/mutation/incremental.json";
const SUMMARY = process.argv[3] ?? "test/mutation/summary.json";

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}

const STATUSES = {
  Killed: "killed",
  Timeout: "timeout",
  Survived: "survived",
  NoCoverage: "noCoverage",
  CompileError: "compileErrors",
  Ignored: "ignored",
} as const;

type Counts = Record<(typeof STATUSES)[keyof typeof STATUSES] | "mutants", number>;

function countsOf(mutants: readonly Mutant[]): Counts {
  const counts = Object.fromEntries(["mutants", ...Object.values(STATUSES)].map((key) => [key, 0])) as Counts;
  for (const mutant of mutants) {
    counts.mutants += 1;
    const key = STATUSES[mutant.status as keyof typeof STATUSES];
    if (key === undefined) throw new Error(`unknown mutant status ${mutant.status}`);
    counts[key] += 1;
  }
  return counts;
}

const record = JSON.parse(readFileSync(INCREMENTAL, "utf8")) as {
  files: Record<string, { mutants: Mutant[] }>;
};
const files = Object.fromEntries(
  Object.entries(record.files)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, { mutants }]) => [
      path,
      {
        ...countsOf(mutants),
        survivors: mutants
          .filter((mutant) => mutant.status === "Survived" || mutant.status === "NoCoverage")
          .map((m) => ({
            line: m.location.start.line,
            column: m.location.start.column,
            mutator: m.mutatorName,
            status: m.status,
            ...(m.replacement !== undefined && { replacement: m.replacement }),
          }))
          .sort((a, b) => a.line - b.line || a.column - b.column),
      },
    ]),
);
writeFileSync(SUMMARY, `${JSON.stringify({ files }, null, 2)}\n`);
console.log(`${SUMMARY}: ${Object.keys(files).length} files`);
