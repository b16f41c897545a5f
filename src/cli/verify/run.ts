import { type RunningServer, startServer } from "../../server.js";
import { Budget } from "./budget.js";
import type { VerifyCommand } from "./command.js";
import { compareAnswers } from "./compare.js";
import {
  DEMO_KEY,
  DEMO_OBJECTS,
  loadConfig,
  type Side,
  type VerifyConfig,
  VerifyConfigError,
} from "./config.js";
import type { Normalized } from "./normalize.js";
import { checkOutputs } from "./output-files.js";
import { type Played, type Player, play, playerOf } from "./play.js";
import { DEFAULT_MAX_ANSWER_BYTES, TargetUnusable } from "./read-answer.js";
import {
  RECORDING_FORMAT,
  type RecordedExchange,
  type Recording,
  readRecording,
  writeRecording,
} from "./recording.js";
import { Redactor } from "./redact.js";
import { type Report, reportOf, type Sides, type StepResult, table, WRITES, writeReport } from "./report.js";
import { runInputs, type Step } from "./scenario.js";
import { SCENARIO } from "./steps.js";

/** Where the command writes, and what it reads besides its flags: given by the bin, or by a test. */
export interface VerifyIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** loyalty-mock's version, named in the report and the recording. */
  version: string;
  now?: () => number;
}

interface Plan {
  config: VerifyConfig;
  recording?: Recording;
  allowWrites: boolean;
}

function planOf(command: VerifyCommand, env: NodeJS.ProcessEnv): Plan {
  const recording = command.replay === undefined ? undefined : readRecording(command.replay);
  const config: VerifyConfig =
    command.config === undefined
      ? { allowWrites: false, mock: { ...DEMO_KEY, objects: DEMO_OBJECTS } }
      : loadConfig(command.config, env, recording === undefined);
  const allowWrites = recording ? recording.allow_writes : command.allowWrites || config.allowWrites;
  return { config, allowWrites, ...(recording && { recording }) };
}

/** A key pair refused on the first step is the config's fault, not a difference: every later step would differ. */
function refusedKey(step: Step, side: string, status: number, live: boolean): void {
  if (live && step.name === "token-api" && status === 401)
    throw new VerifyConfigError(
      `${side} refused the key pair (401 to the token request): check its app_id and app_token (or their variables)`,
    );
}

/**
 * The tier step's range starts at 500,000,000 points: above any tier with a max_value, but inside any open-ended
 * POINTS tier (no max_value), which overlaps every range above its min. Such a structure is the config's fault
 * (403 tier_range_overlap on every run), not a difference: said as a config error, naming the tier.
 */
function openEndedTier(
  step: Step,
  side: string,
  answer: { status: number; body: unknown },
  live: boolean,
): void {
  const body = answer.body as { key?: unknown; details?: unknown } | null;
  if (!live || step.name !== "tier" || answer.status !== 403 || body?.key !== "tier_range_overlap") return;
  throw new VerifyConfigError(
    `${side}'s tier_structure_id has an open-ended POINTS tier, which overlaps the tier verify adds (${String(body.details)}): ` +
      "name a structure whose POINTS tiers all have a max_value",
  );
}

/** The scenario, step by step; each target answer goes into `recorded` as it comes. */
async function runSteps(
  plan: Plan,
  target: Player | undefined,
  mock: Player,
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
  const runs = SCENARIO.map((step) => skipReason(step) === undefined);
  for (const [index, step] of SCENARIO.entries()) {
    const base = { name: step.name, operation: step.operation };
    const skipped = skipReason(step);
    if (skipped !== undefined) {
      results.push({ ...base, verdict: "skipped", differences: [], note: skipped });
      recorded.push({ step: step.name, operation: step.operation, skipped: true });
      continue;
    }
    const needed = runs.slice(index).filter(Boolean).length;
    const fromTarget: Partial<Played> = target
      ? await play(target, step, needed)
      : (recordedAs(step.name) ?? {});
    if (!fromTarget.answer) throw new VerifyConfigError(`the recording has no answer for step ${step.name}`);
    const fromMock = await play(mock, step, needed);
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
  if (!live || step.name !== "token-api" || answer.status < 300 || answer.status >= 400) return;
  const location = Object.hasOwn(answer.headers, "location") ? answer.headers.location : "(no Location)";
  throw new TargetUnusable(
    `${side} answered the token request with a redirect (${answer.status} to ${location}); verify follows no redirect, so that its key pair goes nowhere else: if the service moved, point the config at its new address`,
  );
}

async function startMock(
  plan: Plan,
  command: VerifyCommand,
): Promise<{ side: Side; running?: RunningServer }> {
  const url = command.mock ?? plan.config.mock.url;
  const { appId, appToken, objects } = plan.config.mock;
  if (url !== undefined) return { side: { url, appId, appToken, objects } };
  // A fresh stand-in on the default fixtures, so the mock side starts from the same state every run.
  const running = await startServer({ host: "127.0.0.1", port: 0 });
  return { side: { url: running.url, appId, appToken, objects }, running };
}

/** Why every step was skipped, counted by reason: `16 not in the recording`. */
function skippedWhy(results: readonly StepResult[]): string {
  const counts = new Map<string, number>();
  for (const { note } of results) counts.set(note ?? "skipped", (counts.get(note ?? "skipped") ?? 0) + 1);
  return [...counts].map(([note, count]) => `${count} ${note}`).join(", ");
}

/**
 * `loyalty-mock verify`: resolves to the exit status (0 all matched, 1 a difference, 2 config or usage, 3 the target
 * unusable). Everything it prints or writes goes through the run's secrets first (both sides' key pairs, every
 * token either side issued), whatever put them there.
 */
export async function runVerify(command: VerifyCommand, io: VerifyIo): Promise<number> {
  const now = io.now ?? Date.now;
  const secrets: string[] = [];
  const redactor = new Redactor(secrets);
  const say = (text: string) => io.stderr(redactor.text(`loyalty-mock verify: ${text}\n`));
  let plan: Plan;
  try {
    plan = planOf(command, io.env);
    // Before the first call: a path that cannot be written must not cost the target a run.
    checkOutputs(command);
  } catch (error) {
    if (!(error instanceof VerifyConfigError)) throw error;
    say(error.message);
    return 2;
  }
  const limits = { maxBytes: command.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES };
  const { side: mockSide, running } = await startMock(plan, command);
  const targetSide = plan.config.target;
  const inputs = runInputs(now());
  const target =
    plan.recording || !targetSide
      ? undefined
      : playerOf("the target", targetSide, inputs, limits, secrets, new Budget());
  const mock = playerOf("the mock", mockSide, inputs, limits, secrets);
  const sides: Sides = {
    target: plan.recording
      ? `the recording ${command.replay} (${plan.recording.target}, ${plan.recording.recorded_at})`
      : new URL(targetSide?.url ?? "http://unknown").origin,
    mock: `loyalty-mock ${io.version}, ${running ? "a fresh stand-in in this process (default fixtures)" : new URL(mockSide.url).origin}`,
  };
  const results: StepResult[] = [];
  const recorded: RecordedExchange[] = [];
  let stopped: string | undefined;
  try {
    await runSteps(plan, target, mock, results, recorded);
  } catch (error) {
    if (error instanceof VerifyConfigError) {
      say(error.message);
      return 2;
    }
    if (!(error instanceof TargetUnusable)) throw error;
    stopped = error.message;
  } finally {
    await running?.close();
  }
  const report = reportOf(sides, results, stopped);
  io.stdout(redactor.text(table(report)));
  if (command.json !== undefined) writeReport(command.json, redactor.value(report) as Report);
  if (stopped !== undefined) {
    say(`stopped: ${stopped}`);
    // A recording is a baseline to commit: one cut short would replay as a partial run and pass.
    if (command.record !== undefined) say(`${command.record} not written: the run did not reach its end`);
    return 3;
  }
  if (report.matched + report.differed === 0) {
    say(
      `nothing was compared: all ${report.skipped} steps were skipped (${skippedWhy(results)}); a run that compares nothing proves nothing`,
    );
    return 2;
  }
  if (command.record !== undefined && targetSide)
    writeRecording(
      command.record,
      redactor.value({
        format: RECORDING_FORMAT,
        version: 1,
        recorded_at: new Date(now()).toISOString(),
        recorded_with: io.version,
        target: new URL(targetSide.url).origin,
        allow_writes: plan.allowWrites,
        inputs,
        exchanges: recorded,
      }) as Recording,
    );
  return report.differed > 0 ? 1 : 0;
}
