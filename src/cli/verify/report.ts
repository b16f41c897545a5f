import type { OperationName } from "../../http/operations/table.js";
import type { Difference } from "./compare.js";
import { writePrivate } from "./output-files.js";

/**
 * What a run found, step by step: a table on stdout and, with `--json`, the same as JSON. Every difference names
 * its sides: `target` is the service verify was pointed at (or its recording), `mock` is loyalty-mock, so a
 * difference against a target the user trusts is one to send us as it stands.
 */
type Verdict = "match" | "differ" | "skipped";

export interface StepResult {
  name: string;
  operation: OperationName;
  verdict: Verdict;
  /** The statuses answered; absent for a skipped step. */
  target?: number;
  mock?: number;
  differences: Difference[];
  /** Why a step was skipped, or which incentive it deleted. */
  note?: string;
}

export interface Sides {
  /** The target's origin, or the recording it was replayed from. */
  target: string;
  mock: string;
}

export interface Report {
  sides: Sides;
  steps: {
    name: string;
    operation: OperationName;
    match: boolean;
    skipped: boolean;
    target_status: number | null;
    mock_status: number | null;
    note?: string;
    differences: Difference[];
  }[];
  matched: number;
  differed: number;
  skipped: number;
  /** Why the run stopped before its end (the target unreachable, its budget used up). */
  stopped?: string;
}

export function reportOf(sides: Sides, results: readonly StepResult[], stopped?: string): Report {
  const count = (verdict: Verdict) => results.filter((result) => result.verdict === verdict).length;
  return {
    sides,
    steps: results.map((result) => ({
      name: result.name,
      operation: result.operation,
      match: result.verdict === "match",
      skipped: result.verdict === "skipped",
      target_status: result.target ?? null,
      mock_status: result.mock ?? null,
      ...(result.note !== undefined && { note: result.note }),
      // Absent on one side: null, so every difference has both keys.
      differences: result.differences.map((d) => ({ ...d, target: d.target ?? null, mock: d.mock ?? null })),
    })),
    matched: count("match"),
    differed: count("differ"),
    skipped: count("skipped"),
    ...(stopped !== undefined && { stopped }),
  };
}

export function writeReport(file: string, report: Report): void {
  writePrivate(file, `${JSON.stringify(report, null, 2)}\n`);
}

/** The note of a step skipped because it writes. */
export const WRITES = "writes to the target";

const shown = (value: unknown) => {
  if (value === undefined) return "absent";
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

/** One difference in words, the service's side first. */
function describe(difference: Difference): string {
  const { path, kind, target, mock } = difference;
  if (kind === "redirect")
    return `redirected (verify follows no redirect): target ${String(target).slice(0, 200)}, mock ${String(mock).slice(0, 200)}`;
  if (kind === "only-target") return `${path}: only the target has it (${shown(target)})`;
  if (kind === "only-mock") return `${path}: only the mock has it (${shown(mock)})`;
  return `${path}: target ${shown(target)}, mock ${shown(mock)}`;
}

export function table(report: Report): string {
  const rows = report.steps.map((step) => [
    step.name,
    step.operation,
    String(step.target_status ?? "-"),
    String(step.mock_status ?? "-"),
    step.skipped ? "skipped" : step.match ? "match" : "DIFFERS",
    step.differences[0] ? describe(step.differences[0]) : (step.note ?? ""),
  ]);
  const head = ["step", "operation", "target", "mock", "verdict", "first difference"];
  // A recording may hold any number of steps: a loop, never a spread of every row into Math.max's arguments.
  const widths = head.map((title, column) =>
    rows.reduce((widest, row) => Math.max(widest, row[column]?.length ?? 0), title.length),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  const lines = [line(head), ...rows.map(line)];
  lines.push("", `${report.matched} matched, ${report.differed} differed, ${report.skipped} skipped`);
  lines.push(`target: ${report.sides.target}`, `mock:   ${report.sides.mock}`);
  if (report.steps.some((step) => step.note === WRITES))
    lines.push(
      "Skipped steps write to the target: allow_writes in the config (or --allow-writes) runs them.",
    );
  if (report.differed > 0)
    lines.push(
      "Where the target is the real service, a difference is loyalty-mock's to fix: the target column is what the",
      "service answered. Send the --json report (it holds no credentials) with a loyalty-mock issue.",
    );
  if (report.stopped !== undefined) lines.push(`Stopped early: ${report.stopped}`);
  return `${lines.join("\n")}\n`;
}
