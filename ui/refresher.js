// @ts-check

/**
 * @typedef {{ changed(): void, now(): void }} Refresher
 * @typedef {{
 *   gap: () => number,
 *   quiet: () => boolean,
 *   clock?: () => number,
 *   sleep?: (ms: number) => Promise<void>,
 * }} Pace
 */

/**
 * When a panel fetches again: at most once for each batch of changes the live feed tells, however many batches
 * arrive, and never two fetches at once. A change that arrives while the panel waits for its turn (the gap) is
 * taken in by the fetch it waits for; one that arrives while a fetch is on its way may have been missed by it, so
 * exactly one more fetch follows, for all such changes together. The server answers the page's calls on the event
 * loop of the operations under test: a fetch it did not need is time taken from them.
 *
 * `changed()`: the feed told of a change this panel shows; the first one is fetched at once while the project is
 * `quiet()`, later ones no sooner than `gap()` ms after the last fetch began. `now()`: the user asked (a project
 * chosen, a view shown), fetched without waiting for the gap.
 * @param {() => Promise<void>} fetch the panel's refresh
 * @param {Pace} pace
 * @returns {Refresher}
 */
export function refresher(fetch, pace) {
  const clock = pace.clock ?? Date.now;
  const sleep = pace.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  /** A refresh is under way (waiting for its turn, or fetching); `sent`: its fetch is on its way. */
  let running = false;
  let sent = false;
  let again = false;
  /** The user asked meanwhile: the next fetch does not wait for the gap. */
  let asked = false;
  /** Ends the wait for the gap early (the user asked). */
  let wake = () => {};
  let last = Number.NEGATIVE_INFINITY;

  /** @param {boolean} byUser */
  async function run(byUser) {
    if (byUser) asked = true;
    if (running) {
      if (sent) again = true;
      else if (byUser) wake();
      return;
    }
    running = true;
    try {
      let first = true;
      do {
        const wait = asked || (first && pace.quiet()) ? 0 : last + pace.gap() - clock();
        if (wait > 0)
          await Promise.race([sleep(wait), new Promise((resolve) => (wake = () => resolve(undefined)))]);
        again = false;
        asked = false;
        sent = true;
        last = clock();
        await fetch();
        sent = false;
        first = false;
      } while (again);
    } finally {
      running = false;
      sent = false;
    }
  }
  return { changed: () => run(false), now: () => run(true) };
}
