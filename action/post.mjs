// @ts-check
import { appendSummary, fail, info, state, warning } from "./runner.mjs";
import { stop } from "./server.mjs";
import { journalSummary } from "./summary.mjs";

/**
 * The action's post step, at the end of the job whatever happened before: the journal's summary on the job's page,
 * then the server stopped as Ctrl-C stops it (its state saved, for a cache step to keep), its logs left in the log
 * folder for an upload step.
 */
async function post() {
  const launched = state("launched");
  if (!launched) {
    info("loyalty-mock: no server to stop (the main step did not start one)");
    return;
  }
  const url = state("url");
  if (url) {
    try {
      appendSummary(await journalSummary(url, state("admin-token")));
    } catch (error) {
      warning(`loyalty-mock: no journal summary: ${/** @type {Error} */ (error).message}`);
    }
  }
  const how = await stop(JSON.parse(launched));
  const line = `The server ${how}. Its logs: \`${state("log-dir")}\` (server.log, server.err).`;
  // A blank line first: a line right under a table would be read as one more of its rows.
  appendSummary(`\n${line}\n`);
  if (how.startsWith("stopped cleanly") || how === "had already stopped") info(`loyalty-mock: ${line}`);
  else warning(`loyalty-mock: ${line}`);
}

post().catch((/** @type {Error} */ error) => fail(`loyalty-mock: ${error.message}`));
