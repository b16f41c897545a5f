import { getHeapStatistics } from "node:v8";
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

/**
 * Admits `bytes` more of heap before they are spent, or says why not. The heap in use counts garbage too (a
 * restore leaves the project it replaced for the collector), so a first look over budget collects it and looks
 * again: work is refused for what is live, never for garbage. That collection blocks for as long as a full
 * collection takes (about a second at a million cards), and only when the budget is nearly reached.
 */
export function overBudget(bytes: number, budgetMb: number): OverBudget | undefined {
  const budget = budgetBytes(budgetMb);
  const used = () => getHeapStatistics().used_heap_size;
  if (used() + bytes <= budget) return undefined;
  forceCollection ??= collectGarbage();
  forceCollection();
  const wouldUse = used() + bytes;
  if (wouldUse <= budget) return undefined;
  return { wouldUseMb: Math.ceil(wouldUse / MIB), budgetMb: Math.floor(budget / MIB) };
}
