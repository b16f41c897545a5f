import { runInSlices, runToEnd, type Steps, StepsStopped } from "../../platform/steps.js";

/**
 * A build of one or more projects and how to put it in place: `steps` reads only what cannot change while it runs
 * (a frozen document, the registry's seed and clock settings), so it may run a slice at a time while the old
 * project keeps serving; `install` then checks again whatever may have changed meanwhile (the project deleted, a
 * key taken by another project) and puts the result in place in one synchronous step, or refuses, changing nothing.
 */
export interface BuildPlan<Built, Installed> {
  readonly steps: Steps<Built>;
  install(built: Built): Installed;
  /** Called once the plan is carried out or given up, whichever: what it held for its build is let go. */
  settled?(): void;
}

/** A plan carried out now, in one synchronous step: a start, a library call. */
export function buildNow<B, I>(plan: BuildPlan<B, I>): I {
  try {
    return plan.install(runToEnd(plan.steps));
  } finally {
    plan.settled?.();
  }
}

/**
 * The builds the control API asks for, run a slice at a time (platform/steps.ts) and one at a time per project: a
 * second reset, or a restore, of a project being built waits for the first to be installed and answered, then
 * starts from what that one installed. A build of every project (POST /__mock/reset) waits for every build asked
 * before it, and every build asked after it waits for it. Builds of different projects run side by side.
 */
export class BuildQueue {
  /** Per project id: the end of the last build asked for it, a turn later (never rejected). */
  readonly #tails = new Map<string, Promise<unknown>>();
  /** The end of the last build of every project (never rejected). */
  #all: Promise<unknown> = Promise.resolve();
  #stopped = false;
  readonly #sliceMs: number;

  /** `sliceMs`: how long a build runs before the event loop gets a turn (runInSlices). */
  constructor(sliceMs: number) {
    this.#sliceMs = sliceMs;
  }

  /**
   * Carries out the plan `plan()` makes once the builds of `id` asked before have ended, and `prepare` (when given)
   * has: a restore first has V8 collect the garbage of the builds before it (src/platform/memory-budget.ts).
   */
  run<I>(id: string, plan: () => BuildPlan<unknown, I>, prepare?: () => Promise<void>): Promise<I> {
    const run = Promise.all([this.#all, this.#tails.get(id)]).then(() => this.#carryOut(plan, prepare));
    const tail = afterATurn(run);
    this.#tails.set(id, tail);
    void tail.then(() => {
      if (this.#tails.get(id) === tail) this.#tails.delete(id);
    });
    return run;
  }

  /** The same for a build of every project: after every build asked before, before every build asked after. */
  runAll<I>(plan: () => BuildPlan<unknown, I>): Promise<I> {
    const run = Promise.all([this.#all, ...this.#tails.values()]).then(() => this.#carryOut(plan));
    this.#all = afterATurn(run);
    return run;
  }

  /**
   * Stops every build (a closing server): one running ends at its next slice, installing nothing, and one not
   * started yet never starts; both reject with StepsStopped. Resolves once none runs.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([this.#all, ...this.#tails.values()]);
  }

  /** The plan is made when its turn comes, so its checks see what the builds before it installed. */
  async #carryOut<I>(plan: () => BuildPlan<unknown, I>, prepare?: () => Promise<void>): Promise<I> {
    const stopped = () => this.#stopped;
    if (stopped()) throw new StepsStopped("the server is closing");
    if (prepare) {
      await prepare();
      if (stopped()) throw new StepsStopped("the server is closing");
    }
    const made = plan();
    try {
      return made.install(await runInSlices(made.steps, { stopped, sliceMs: this.#sliceMs }));
    } finally {
      made.settled?.();
    }
  }
}

/**
 * Resolves a turn of the event loop after `run` settles, whichever way: by then its answer (or its error's) has
 * been written, so the next build of the project, started then, is answered after it.
 */
function afterATurn(run: Promise<unknown>): Promise<void> {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return run.then(turn, turn);
}
