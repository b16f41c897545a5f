import type { ScaleResult } from "./scale.js";

export interface Row {
  target: string;
  workload: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Median server CPU time per request, in microseconds (Linux only). */
  cpuUs?: number | undefined;
}

export interface Check {
  target: string;
  value: string;
  met: boolean;
}

/** The operation every server of the run answers, the one the targets compare with bare Express. */
export const LOCATION_OPERATION = "getLocation";

function baseline(rows: Row[], target: string): number {
  return rows.find((row) => row.target === target && row.workload === LOCATION_OPERATION)?.rps ?? Number.NaN;
}

/** The targets, each judged against the baselines of this same run. */
export function checkTargets(rows: Row[], scale: ScaleResult | undefined): Check[] {
  const express = baseline(rows, "express");
  const checks: Check[] = [];
  for (const row of rows.filter((r) => r.target === "ours")) {
    const wanted = row.workload === LOCATION_OPERATION ? 0.8 : 0.6;
    const ratio = row.rps / express;
    checks.push({
      target: `${row.workload}: >= ${wanted}x bare Express req/s`,
      value: `${ratio.toFixed(2)}x`,
      met: ratio >= wanted,
    });
    checks.push({ target: `${row.workload}: p99 < 10 ms`, value: `${row.p99} ms`, met: row.p99 < 10 });
    checks.push({ target: `${row.workload}: no errors`, value: String(row.errors), met: row.errors === 0 });
  }
  if (scale) {
    checks.push({
      target: `${scale.cards} cards: ready < 10 s`,
      value: `${(scale.readyMs / 1000).toFixed(1)} s`,
      met: scale.readyMs < 10_000,
    });
    // Issue 36: at most 640 MiB resident, from the generator and from a fixtures folder alike.
    checks.push({
      target: `${scale.cards} cards: resident <= 640 MiB`,
      value: `${scale.rssMiB ?? "?"} MiB`,
      met: scale.rssMiB !== undefined && scale.rssMiB <= 640,
    });
    checks.push({
      target: `${scale.cards} cards from a fixtures folder: resident <= 640 MiB`,
      value: `${scale.folder.rssMiB ?? "?"} MiB`,
      met: scale.folder.rssMiB !== undefined && scale.folder.rssMiB <= 640,
    });
    checks.push({
      target: `${scale.cards} cards: assignment p50 within 1.2x of 1k cards`,
      value: `${scale.ratio}x (${scale.p50LargeMs} vs ${scale.p50SmallMs} ms)`,
      met: scale.ratio <= 1.2,
    });
    checks.push({
      target: "default fixtures: first request < 1 s after start",
      value: `${scale.defaultReadyMs} ms`,
      met: scale.defaultReadyMs < 1000,
    });
  }
  return checks;
}

function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

/** A Markdown table, so a run can be pasted into the README as it is. */
export function printReport(
  rows: Row[],
  scale: ScaleResult | undefined,
  checks: Check[],
  settings: { rounds: number; duration: number; connections: number },
): void {
  const express = baseline(rows, "express");
  const expressPlus = baseline(rows, "express+");
  const bare = baseline(rows, "node:http");
  const out: string[] = [];
  out.push(
    `\n${settings.rounds} rounds x ${settings.duration} s, ${settings.connections} connections, medians; node ${process.version}`,
    "express: a bare Express 5 app with its defaults (the targets' baseline); express+: the same app with its",
    'requests built on the app\'s prototypes, as ours are (README "Performance")\n',
  );
  out.push(
    table(
      [
        "Server",
        "Workload",
        "req/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "vs Express",
        "vs Express+",
        "vs node:http",
        "CPU us/req",
      ],
      rows.map((r) => [
        r.target,
        r.workload,
        Math.round(r.rps).toString(),
        String(r.p50),
        String(r.p99),
        String(r.errors),
        `${(r.rps / express).toFixed(2)}x`,
        `${(r.rps / expressPlus).toFixed(2)}x`,
        `${(r.rps / bare).toFixed(2)}x`,
        r.cpuUs === undefined ? "?" : r.cpuUs.toFixed(0),
      ]),
    ),
  );
  if (scale)
    out.push(
      "",
      table(
        ["Scale", "Value"],
        [
          ["cards in one campaign", String(scale.cards)],
          ["start to first successful request", `${scale.readyMs} ms`],
          ["resident memory", `${scale.rssMiB ?? "?"} MiB`],
          ["assignment p50, 1k-card campaign", `${scale.p50SmallMs} ms`],
          [`assignment p50, ${scale.cards}-card campaign`, `${scale.p50LargeMs} ms`],
          ["default fixtures: start to first request", `${scale.defaultReadyMs} ms`],
          [`default fixtures and ${scale.cards} cards: start to first request`, `${scale.folder.readyMs} ms`],
          [`default fixtures and ${scale.cards} cards: resident memory`, `${scale.folder.rssMiB ?? "?"} MiB`],
        ],
      ),
    );
  out.push(
    "",
    table(
      ["Target", "Measured", "Met"],
      checks.map((c) => [c.target, c.value, c.met ? "yes" : "NO"]),
    ),
  );
  process.stdout.write(`${out.join("\n")}\n`);
}
