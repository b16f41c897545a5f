import { type RunningServer, startServer } from "../../server.js";
import { Budget, BudgetExhausted } from "./budget.js";
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
import { Unreachable } from "./exchange.js";
import { type Played, type Player, play, playerOf } from "./play.js";
import {
  RECORDING_FORMAT,
  type RecordedExchange,
  type Recording,
  readRecording,
  writeRecording,
} from "./recording.js";
import { reportOf, type Sides, type StepResult, table, WRITES, writeReport } from "./report.js";
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
  }
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

/** `loyalty-mock verify`: resolves to the exit status (0 all matched, 1 a difference, 2 config, 3 target). */
export async function runVerify(command: VerifyCommand, io: VerifyIo): Promise<number> {
  const now = io.now ?? Date.now;
  let plan: Plan;
  try {
    plan = planOf(command, io.env);
  } catch (error) {
    if (!(error instanceof VerifyConfigError)) throw error;
    io.stderr(`loyalty-mock verify: ${error.message}\n`);
    return 2;
  }
  const { side: mockSide, running } = await startMock(plan, command);
  const targetSide = plan.config.target;
  const inputs = runInputs(now());
  const target = plan.recording || !targetSide ? undefined : playerOf(targetSide, inputs, new Budget());
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
    await runSteps(plan, target, playerOf(mockSide, inputs), results, recorded);
  } catch (error) {
    if (error instanceof VerifyConfigError) {
      io.stderr(`loyalty-mock verify: ${error.message}\n`);
      return 2;
    }
    if (!(error instanceof Unreachable || error instanceof BudgetExhausted)) throw error;
    stopped = error.message;
  } finally {
    await running?.close();
  }
  const report = reportOf(sides, results, stopped);
  io.stdout(table(report));
  if (command.json !== undefined) writeReport(command.json, report);
  if (stopped !== undefined) {
    io.stderr(`loyalty-mock verify: stopped: ${stopped}\n`);
    return 3;
  }
  if (command.record !== undefined && targetSide)
    writeRecording(command.record, {
      format: RECORDING_FORMAT,
      version: 1,
      recorded_at: new Date(now()).toISOString(),
      recorded_with: io.version,
      target: new URL(targetSide.url).origin,
      allow_writes: plan.allowWrites,
      inputs,
      exchanges: recorded,
    });
  return report.differed > 0 ? 1 : 0;
}
