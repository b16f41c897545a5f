import type { Budget } from "./budget.js";
import type { Side } from "./config.js";
import { type Answer, type SendLimits, send, TargetUnusable } from "./exchange.js";
import { type Normalized, normalizeAnswer, normalizeRequest } from "./normalize.js";
import type { RunInputs, Step, StepRequest } from "./step.js";
import { isTokenStep } from "./steps.js";

/**
 * One side of a run: its address, key and objects, the inputs of the run, the token its first step got, and (for
 * the target) the call budget. `secrets` is the run's list, both sides' (a side could echo the other's): it grows
 * with each token, so nothing that carries one is kept or printed.
 */
export interface RunSide {
  /** "the target" or "the mock", as messages name it. */
  role: string;
  side: Side;
  inputs: RunInputs;
  limits: SendLimits;
  budget?: Budget;
  token?: string;
  secrets: string[];
  /**
   * The incentives of the side's list this run found gone: deleted by a step (the incentive's, the benefit's) or
   * answered 404. The next step that deletes one starts after them, rather than spend a call of the target's
   * budget on each again.
   */
  gone: Set<string>;
}

export interface Sent {
  request: StepRequest;
  answer: Normalized;
  /** The incentive deleted, or why none was. */
  note?: string;
}

export function runSideOf(
  role: string,
  side: Side,
  inputs: RunInputs,
  limits: SendLimits,
  secrets: string[],
  budget?: Budget,
): RunSide {
  secrets.push(side.appId, side.appToken);
  return { role, side, inputs, limits, ...(budget && { budget }), secrets, gone: new Set() };
}

/** What an Authorization header can carry: visible ASCII (RFC 9110's field value, without obs-text). */
const SENDABLE = /^[\x21-\x7e]+$/;

async function call(player: RunSide, request: StepRequest, needed: number): Promise<Answer> {
  player.budget?.spend(needed);
  const answer = await send(player.side, request, player.token, player.limits);
  player.budget?.read(answer.status, answer.headers);
  return answer;
}

/**
 * The incentives a step that deletes one tries, in the config's order: those this run has not found gone, or the
 * last of the list when none is left (its 404 says so).
 */
function incentivesToTry(player: RunSide, step: Step): readonly string[] {
  if (!step.triesIncentives) return [""];
  const listed = player.side.objects.incentive_ids;
  const left = listed.filter((id) => !player.gone.has(id));
  return left.length > 0 ? left : listed.slice(-1);
}

/**
 * Plays one step on one side. `needed`: the calls the run still makes, this one included, so the budget can
 * stop it before it runs short. A step that deletes an incentive (the incentive's, the benefit's) tries the
 * config's incentives in order: a 404 is one an earlier run deleted.
 */
export async function sendStep(player: RunSide, step: Step, needed: number): Promise<Sent> {
  const { objects } = player.side;
  const ids = incentivesToTry(player, step);
  let answer: Answer | undefined;
  let request: StepRequest | undefined;
  let note: string | undefined;
  for (const [index, id] of ids.entries()) {
    request = step.request(objects, player.inputs, id);
    answer = await call(player, request, needed);
    if (!step.triesIncentives) break;
    if (answer.status < 400 || answer.status === 404) player.gone.add(id);
    if (answer.status < 400) note = `deleted ${id}: take it out of incentive_ids`;
    if (answer.status !== 404) break;
    if (index === ids.length - 1) note = "every incentive of incentive_ids is deleted already: add new ones";
  }
  if (!answer || !request) throw new Error(`step ${step.name} has nothing to send`);
  if (isTokenStep(step)) {
    const token = (answer.body as { access_token?: unknown } | null)?.access_token;
    if (typeof token === "string" && token !== "") {
      // Masked from here on, whatever else is wrong with it.
      player.secrets.push(token);
      if (!SENDABLE.test(token))
        throw new TargetUnusable(
          `${player.role} answered the token step with an access_token that holds characters an Authorization header cannot carry (only visible ASCII can be sent): verify cannot use it`,
        );
      player.token = token;
    }
  }
  const context = { objects, secrets: player.secrets };
  return {
    request: normalizeRequest(request, context),
    answer: normalizeAnswer(answer, step, request, context),
    ...(note !== undefined && { note }),
  };
}
