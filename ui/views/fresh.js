// @ts-check

/** How long a row that just came in, or a number that just changed, stays marked for the eye (CSS fades it). */
export const FRESH_MS = 4000;

/**
 * What is new on a view: each key (a request, a timeline entry, a figure's value) is remembered when first seen,
 * and is fresh for FRESH_MS after, unless it was there when the view first drew (a page opened on a busy project
 * marks nothing). The view draws fresh rows with the class `new`; `fade` takes the class off each marked element
 * once its time is up, so the next drawing, equal, leaves the page as it is.
 */
export function freshness() {
  /** @type {Map<string, number>} */
  const seenAt = new Map();
  let primed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const isFresh = (/** @type {string} */ key) => Date.now() - (seenAt.get(key) ?? 0) < FRESH_MS;
  const keyOf = (/** @type {Element} */ el) => el.getAttribute("data-fresh") ?? "";
  /**
   * Once the marks drawn in `root` are due, takes them off (elements carry their key in `data-fresh`).
   * @param {HTMLElement} root
   */
  function fade(root) {
    clearTimeout(timer);
    const marked = [...root.querySelectorAll("[data-fresh].new")];
    if (marked.length === 0) return;
    let due = Number.POSITIVE_INFINITY;
    for (const el of marked) due = Math.min(due, (seenAt.get(keyOf(el)) ?? 0) + FRESH_MS);
    timer = setTimeout(
      () => {
        for (const el of root.querySelectorAll("[data-fresh].new"))
          if (!isFresh(keyOf(el))) el.classList.remove("new");
        fade(root);
      },
      Math.max(0, due - Date.now()) + 20,
    );
  }
  return {
    /**
     * Takes in the keys a drawing shows; the first drawing's are old.
     * @param {Iterable<string>} keys
     */
    see(keys) {
      const now = Date.now();
      const kept = new Map();
      for (const key of keys) kept.set(key, seenAt.get(key) ?? (primed ? now : 0));
      // Only what the drawing shows is kept: a view open all day remembers one screen's keys.
      seenAt.clear();
      for (const [key, at] of kept) seenAt.set(key, at);
      primed = true;
    },
    isFresh,
    /** Forgets everything: a new project, whose first drawing marks nothing. */
    forget() {
      seenAt.clear();
      primed = false;
    },
    fade,
  };
}
