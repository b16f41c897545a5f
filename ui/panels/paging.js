// @ts-check
import { h, show } from "../dom.js";

/**
 * Prev/next over a list the server pages (limit/offset): the page never holds more than one page of rows, whatever
 * the size of the project.
 * @param {string} label what is paged, for the buttons' names
 * @param {() => void} changed
 */
export function pager(label, changed) {
  const state = { page: 0, total: 0, size: 20 };
  const summary = h("span", { className: "page-summary", "aria-live": "off" });
  const prev = h(
    "button",
    { type: "button", "aria-label": `Previous page of ${label}`, onclick: () => move(-1) },
    "‹ Previous",
  );
  const next = h(
    "button",
    { type: "button", "aria-label": `Next page of ${label}`, onclick: () => move(1) },
    "Next ›",
  );
  const element = h("div", { className: "pager" }, prev, summary, next);
  /** @param {number} step */
  function move(step) {
    state.page = Math.max(0, state.page + step);
    changed();
  }
  return {
    element,
    state,
    /**
     * The offset of the current page, newest first, in a list stored oldest first.
     * @param {number} total
     */
    offsetFor(total) {
      state.total = total;
      const pages = Math.max(1, Math.ceil(total / state.size));
      if (state.page >= pages) state.page = pages - 1;
      const end = total - state.page * state.size;
      return { offset: Math.max(0, end - state.size), limit: Math.min(state.size, end) || 1 };
    },
    /**
     * The current page, newest first, in one call when the list's length has not changed since the last (the
     * common case: a card's points moved), in two when it has.
     * @template {{ total: number }} T
     * @param {(window: { offset: number, limit: number }) => Promise<T>} fetchPage
     * @returns {Promise<T>}
     */
    async newest(fetchPage) {
      let answer = await fetchPage(this.offsetFor(state.total));
      if (answer.total !== state.total) answer = await fetchPage(this.offsetFor(answer.total));
      return answer;
    },
    /**
     * The offset of the current page in stored order, for lists no operation adds to.
     * @param {number} total
     */
    offsetInOrder(total) {
      state.total = total;
      const pages = Math.max(1, Math.ceil(total / state.size));
      if (state.page >= pages) state.page = pages - 1;
      return { offset: state.page * state.size, limit: state.size };
    },
    /** @param {number} shown */
    render(shown) {
      const first = state.page * state.size + (shown ? 1 : 0);
      show(summary, `${first}–${state.page * state.size + shown} of ${state.total.toLocaleString("en")}`);
      prev.disabled = state.page === 0;
      next.disabled = (state.page + 1) * state.size >= state.total;
    },
    reset() {
      state.page = 0;
    },
  };
}
