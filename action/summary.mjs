// @ts-check

/**
 * The job summary's table of what the application sent: for each project with calls in its journal, the calls per
 * operation and how many failed (a status of 400 or more, or a connection a fault rule dropped), then the failed
 * calls themselves. The journal keeps each project's newest calls only (LOYALTY_MOCK_JOURNAL_SIZE, 1000 unless
 * set); a project whose journal is full says so.
 */

/**
 * @typedef {{ method: string, path: string, operation: string | null, status: number | null,
 *   response_body: unknown }} Entry
 */

/** Failed calls listed, at most, across the projects. */
const FAILED_SHOWN = 20;

/**
 * A control call; its parsed answer, or a thrown error naming the call.
 * @param {string} url @param {string} token @param {string} path
 */
async function get(url, token, path) {
  const res = await fetch(`${url}/__mock${path}`, {
    headers: { "X-Mock-Admin-Token": token },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`GET /__mock${path}: ${res.status}`);
  return /** @type {any} */ (await res.json());
}

/** A table cell's text: pipes escaped, on one line. @param {unknown} text */
const cell = (text) => String(text).replace(/\|/g, "\\|").replace(/\s+/g, " ");

/** @param {Entry} entry */
const failed = (entry) => entry.status === null || entry.status >= 400;

/** What a refusal said: its key and details, from the service's error object. @param {Entry} entry */
function refusal(entry) {
  const body = /** @type {Record<string, unknown> | null} */ (
    typeof entry.response_body === "object" ? entry.response_body : null
  );
  if (entry.status === null) return "no answer (the connection was dropped)";
  if (!body || typeof body.key !== "string") return "";
  return `${body.key}${typeof body.details === "string" ? `: ${body.details}` : ""}`;
}

/**
 * The summary's Markdown, read from a running server's journals.
 * @param {string} url @param {string} token
 * @returns {Promise<string>}
 */
export async function journalSummary(url, token) {
  const { projects } = await get(url, token, "/projects");
  /** @type {string[]} */
  const rows = [];
  /** @type {string[]} */
  const failures = [];
  /** @type {string[]} */
  const full = [];
  let calls = 0;
  for (const project of /** @type {{ id: string }[]} */ (projects)) {
    const path = `/projects/${encodeURIComponent(project.id)}`;
    const entries = /** @type {Entry[]} */ ((await get(url, token, `${path}/requests`)).requests);
    if (entries.length === 0) continue;
    calls += entries.length;
    const { effective } = await get(url, token, `${path}/settings`);
    if (entries.length >= effective.journal_size) full.push(project.id);
    /** @type {Map<string, { calls: number, failed: number }>} */
    const byOperation = new Map();
    for (const entry of entries) {
      const name = entry.operation ?? "(none: not emulated, or an unknown path)";
      const counts = byOperation.get(name) ?? { calls: 0, failed: 0 };
      counts.calls++;
      if (failed(entry)) {
        counts.failed++;
        failures.push(
          `| ${cell(project.id)} | \`${cell(`${entry.method} ${entry.path}`)}\` | ${entry.status ?? "none"} | ${cell(refusal(entry))} |`,
        );
      }
      byOperation.set(name, counts);
    }
    for (const [name, counts] of [...byOperation].sort(([a], [b]) => a.localeCompare(b)))
      rows.push(`| ${cell(project.id)} | ${cell(name)} | ${counts.calls} | ${counts.failed} |`);
  }
  const lines = ["### loyalty-mock", ""];
  if (calls === 0) return [...lines, "No call reached loyalty-mock's operations.", ""].join("\n");
  lines.push("| Project | Operation | Calls | Failed |", "| --- | --- | --- | --- |", ...rows, "");
  if (full.length > 0)
    lines.push(`The journal of ${full.join(", ")} is full: it kept the newest calls only.`, "");
  if (failures.length > 0) {
    const shown = failures.slice(0, FAILED_SHOWN);
    lines.push(
      `#### Failed calls${failures.length > shown.length ? ` (the first ${shown.length} of ${failures.length})` : ""}`,
      "",
      "| Project | Call | Status | Error |",
      "| --- | --- | --- | --- |",
      ...shown,
      "",
    );
  }
  return lines.join("\n");
}
