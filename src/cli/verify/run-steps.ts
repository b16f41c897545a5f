import { compareAnswers } from "./compare.js";
import { type VerifyConfig, VerifyConfigError } from "./config.js";
import { TargetUnusable } from "./exchange.js";
import type { Normalized } from "./normalize.js";
import type { RecordedExchange, Recording } from "./recording.js";
import { type StepResult, WRITES } from "./report.js";
import { type RunSide, type Sent, sendStep } from "./send-step.js";
import type { Step } from "./step.js";
import { isTokenStep, STEPS } from "./steps.js";

/** What a run plays: the config, the recording of a replay, and whether the writing steps run. */
export interface Plan {
  config: VerifyConfig;
  recording?: Recording;
  allowWrites: boolean;
}

/** A key pair refused on the first step is the config's fault, not a difference: every later step would differ. */
function refusedKey(step: Step, side: string, status: number, live: boolean): void {
  if (live && isTokenStep(step) && status === 401)
    throw new VerifyConfigError(
      `${side} refused the key pair (401 to the token request): check its app_id and app_token (or their variables)`,
    );
}

/**
 * The tier steps' ranges start at 500,000,000 points (250,000,000 for the generally available form's): above any
 * tier with a max_value, but inside any open-ended POINTS tier (no max_value), which overlaps every range above its
 * min. Such a structure is the config's fault
 * (403 tier_range_overlap on every run), not a difference: said as a config error, naming the tier.
 */
function openEndedTier(
  step: Step,
  side: string,
  answer: { status: number; body: unknown },
  live: boolean,
): void {
  const body = answer.body as { key?: unknown; details?: unknown } | null;
  if (
    !live ||
    !step.success ||
    step.operation !== "createTier" ||
    answer.status !== 403 ||
    body?.key !== "tier_range_overlap"
  )
    return;
  throw new VerifyConfigError(
    `${side}'s tier_structure_id has an open-ended POINTS tier, which overlaps the tier verify adds (${String(body.details)}): ` +
      "name a structure whose POINTS tiers all have a max_value",
  );
}

/** The run, step by step; each target answer goes into `recorded` as it comes. */
export async function runSteps(
  plan: Plan,
  target: RunSide | undefined,
  mock: RunSide,
  results: StepResult[],
  recorded: RecordedExchange[],
): Promise<void> {
  // A replay plays what the recording holds, matched by step name: a step a later version added is skipped.
  const recordedAs = (name: string) => plan.recording?.exchanges.find((exchange) => exchange.step === name);
  const skipReason = (step: Step) => {
    if (!plan.recording) return step.writes && !plan.allowWrites ? WRITES : undefined;
    const exchange = recordedAs(step.name);
    return !exchange ? "not in the recording" : exchange.skipped ? "skipped when recorded" : undefined;
  };
  const runs = STEPS.map((step) => skipReason(step) === undefined);
  for (const [index, step] of STEPS.entries()) {
    const base = { name: step.name, operation: step.operation };
    const skipped = skipReason(step);
    if (skipped !== undefined) {
      results.push({ ...base, verdict: "skipped", differences: [], note: skipped });
      recorded.push({ step: step.name, operation: step.operation, skipped: true });
      continue;
    }
    const needed = runs.slice(index).filter(Boolean).length;
    const fromTarget: Partial<Sent> = target
      ? await sendStep(target, step, needed)
      : (recordedAs(step.name) ?? {});
    if (!fromTarget.answer) throw new VerifyConfigError(`the recording has no answer for step ${step.name}`);
    const fromMock = await sendStep(mock, step, needed);
    refusedKey(step, "the target", fromTarget.answer.status, plan.recording === undefined);
    refusedKey(step, "the mock", fromMock.answer.status, true);
    openEndedTier(step, "the target", fromTarget.answer, plan.recording === undefined);
    openEndedTier(step, "the mock", fromMock.answer, true);
    recorded.push({
      step: step.name,
      operation: step.operation,
      ...(fromTarget.request && { request: fromTarget.request }),
      answer: fromTarget.answer,
    });
    const differences = compareAnswers(step, fromTarget.answer, fromMock.answer);
    const { note } = fromTarget;
    results.push({
      ...base,
      verdict: differences.length === 0 ? "match" : "differ",
      target: fromTarget.answer.status,
      mock: fromMock.answer.status,
      differences,
      ...(note !== undefined && { note }),
    });
    redirectedToken(step, "the target", fromTarget.answer, plan.recording === undefined);
    redirectedToken(step, "the mock", fromMock.answer, true);
  }
}

/**
 * A redirect is never followed (the key pair would go wherever it points). On the token step it leaves the run
 * without a token and every later step answered by the same redirect (a loop, a moved host): the run stops there,
 * the step's redirect in the report.
 */
function redirectedToken(step: Step, side: string, answer: Normalized, live: boolean): void {
  if (!live || !isTokenStep(step) || answer.status < 300 || answer.status >= 400) return;
  const location = Object.hasOwn(answer.headers, "location") ? answer.headers.location : "(no Location)";
  throw new TargetUnusable(
    `${side} answered the token request with a redirect (${answer.status} to ${location}); verify follows no redirect, so that its key pair goes nowhere else: if the service moved, point the config at its new address`,
  );
}
