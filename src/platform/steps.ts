/**
 * Work that can pause: a generator that yields between steps of a few hundred items each and returns its result.
 * A start runs it to its end at once (nothing is served yet); a control call runs it a slice of a few
 * milliseconds at a time, letting the event loop answer other requests between slices (runInSlices), so that
 * building a project of a million cards holds no request for more than a slice.
 */
export type Steps<T> = Generator<void, T, void>;

/** Items a loop handles between two yields: under a millisecond for the costliest (a record validated). */
export const STEP_ITEMS = 256;

/** Runs `steps` to its end, now: the work done as one synchronous call. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** `each(item)` for every item, yielding every STEP_ITEMS items. */
export function* eachInSteps<T>(items: Iterable<T>, each: (item: T) => void): Steps<void> {
  let left = STEP_ITEMS;
  for (const item of items) {
    each(item);
    if (--left === 0) {
      left = STEP_ITEMS;
      yield;
    }
  }
}

/** `each(item, index)` for every element of an array, yielding every STEP_ITEMS elements. */
export function* eachOfArray<T>(items: readonly T[], each: (item: T, index: number) => void): Steps<void> {
  for (let start = 0; start < items.length; start += STEP_ITEMS) {
    const end = Math.min(items.length, start + STEP_ITEMS);
    for (let i = start; i < end; i++) each(items[i] as T, i);
    if (end < items.length) yield;
  }
}

/** How long a slice runs before the event loop gets a turn, by default. */
export const SLICE_MS = 5;

/** Why a run in slices ended before its work did: `stopped` said so (the server is closing). */
export class StepsStopped extends Error {
  override name = "StepsStopped";
}

/**
 * Runs `steps` a slice of about SLICE_MS at a time, giving the event loop a turn (setImmediate: the requests that
 * arrived meanwhile are read and answered) between slices. An error the work throws rejects the promise; so does
 * `stopped()` answering true between two slices, with StepsStopped, the work left where it was.
 */
export async function runInSlices<T>(
  steps: Steps<T>,
  options: { stopped?: () => boolean; sliceMs?: number } = {},
): Promise<T> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  for (;;) {
    const end = performance.now() + sliceMs;
    let next = steps.next();
    while (!next.done && performance.now() < end) next = steps.next();
    if (next.done) return next.value;
    await new Promise((resolve) => setImmediate(resolve));
    if (options.stopped?.()) {
      steps.return(undefined as T);
      throw new StepsStopped("stopped before the work ended");
    }
  }
}
