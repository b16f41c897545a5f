// @ts-check
import { titleOf } from "./panels/operations.js";

/**
 * The status line's sentence for the requests a batch of the live feed told: how many, and how the last one went,
 * the operation named as people call it ("Custom event"), never a raw path (a long one wrapped the header during
 * a play and pushed the page down).
 * @param {number} count requests since the line last spoke
 * @param {import("./feed.js").RequestSummary} last
 */
export function requestsSentence(count, last) {
  const what = last.operation ? titleOf(last.operation) : "a call no emulated operation handles";
  const outcome = last.status === null ? "got no answer" : `answered ${last.status}`;
  return `Live. ${count.toLocaleString("en")} new call${count === 1 ? "" : "s"}; the last, ${what}, ${outcome}.`;
}
