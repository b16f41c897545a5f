import { getHeapStatistics } from "node:v8";
import { measureMemory } from "node:vm";
import { collectGarbage } from "./collect-garbage.js";

const MIB = 1024 * 1024;

/**
 * The share of V8's heap limit a budget reaches at most, whatever it is set to: a process past its heap limit ends
 * (`FATAL ERROR: Reached heap limit`), with every project it held, so no setting may let a save or a restore take
 * it there. The rest is room for the requests running meanwhile and for V8's own work.
 */
const HEAP_SHARE = 0.85;

/** What a refusal says: the heap the work would have brought the server to, and the budget, both in MiB. */
export interface OverBudget {
  wouldUseMb: number;
  budgetMb: number;
}

let forceCollection: (() => void) | undefined;

/** The budget in bytes: the setting's MiB, or the heap limit's share when that is lower. */
function budgetBytes(budgetMb: number): number {
  return Math.min(budgetMb * MIB, getHeapStatistics().heap_size_limit * HEAP_SHARE);
}

/** How long a collection beside the running code may take before the look goes on without it (it then forces one). */
const COLLECTION_WAIT_MS = 10_000;

let collecting: Promise<void> | undefined;

const used = () => getHeapStatistics().used_heap_size;

/**
 * Makes room for a look at the budget that would otherwise force a full collection: when the heap in use, garbage
 * included, would pass the budget with `bytes` more, V8 collects its garbage beside the running code (as it does
 * on its own) and this resolves once it has. At a million cards that took the 0.3-1 s a forced collection stops
 * every request for, with pauses of tens of milliseconds (docs/performance.md, "The builds at a million cards").
 * Under the budget it resolves at once, collecting nothing.
 */
export async function makeRoom(bytes: number, budgetMb: number): Promise<void> {
  if (used() + bytes <= budgetBytes(budgetMb)) return;
  collecting ??= collectBeside().finally(() => {
    collecting = undefined;
  });
  await collecting;
}

/**
 * A full collection done as V8 does its own: `vm.measureMemory` with eager execution starts V8's incremental
 * marking, which runs beside the code, and resolves once that collection has ended (what it measured is not
 * needed). Node marks the function experimental and warns so on its first call; that warning, about this
 * server's own use of it, is not shown. A collection that fails or takes past COLLECTION_WAIT_MS is given up: the
 * look then forces one.
 */
function collectBeside(): Promise<void> {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (text.includes("vm.measureMemory")) return;
    (emitWarning as (...args: unknown[]) => void).apply(process, [warning, ...rest]);
  }) as typeof process.emitWarning;
  let measured: Promise<unknown>;
  try {
    measured = measureMemory({ mode: "summary", execution: "eager" });
  } catch {
    return Promise.resolve();
  } finally {
    process.emitWarning = emitWarning;
  }
  let timer: NodeJS.Timeout | undefined;
  const given = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, COLLECTION_WAIT_MS);
    timer.unref();
  });
  return Promise.race([
    measured.then(
      () => undefined,
      () => undefined,
    ),
    given,
  ]).finally(() => clearTimeout(timer));
}

/**
 * Admits `bytes` more of heap before they are spent, or says why not. The heap in use counts garbage too (a
 * restore leaves the project it replaced for the collector), so a first look over budget collects it and looks
 * again: work is refused for what is live, never for garbage. That collection blocks for as long as a full
 * collection takes (0.3-1 s at a million cards), and only when the budget is nearly reached: a save or a restore
 * calls `makeRoom` first, which leaves it nothing to collect but the garbage made since.
 */
export function overBudget(bytes: number, budgetMb: number): OverBudget | undefined {
  const budget = budgetBytes(budgetMb);
  if (used() + bytes <= budget) return undefined;
  forceCollection ??= collectGarbage();
  forceCollection();
  const wouldUse = used() + bytes;
  if (wouldUse <= budget) return undefined;
  return { wouldUseMb: Math.ceil(wouldUse / MIB), budgetMb: Math.floor(budget / MIB) };
}
