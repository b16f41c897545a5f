import { DEFAULT_MAX_ANSWER_BYTES } from "../../clients/read-answer.js";
import { type RunningServer, startServer } from "../../server.js";
import { Budget } from "./budget.js";
import type { VerifyCommand } from "./command.js";
import {
  DEMO_KEY,
  DEMO_OBJECTS,
  loadConfig,
  type Side,
  type VerifyConfig,
  VerifyConfigError,
} from "./config.js";
import { TargetUnusable } from "./exchange.js";
import { checkOutputs } from "./output-files.js";
import {
  RECORDING_FORMAT,
  type RecordedExchange,
  type Recording,
  readRecording,
  writeRecording,
} from "./recording.js";
import { Redactor } from "./redact.js";
import { type Report, reportOf, type Sides, type StepResult, table, writeReport } from "./report.js";
import { type Plan, runSteps } from "./run-steps.js";
import { runSideOf } from "./send-step.js";
import { runInputs } from "./step.js";

/** Where the command writes, and what it reads besides its flags: given by the bin, or by a test. */
export interface VerifyIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** loyalty-mock's version, named in the report and the recording. */
  version: string;
  now?: () => number;
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

/** What a run found and how to say it: everything it prints or writes goes through `redactor`. */
interface Outcome {
  command: VerifyCommand;
  io: VerifyIo;
  plan: Plan;
  redactor: Redactor;
  sides: Sides;
  results: StepResult[];
  recorded: RecordedExchange[];
  /** Why the run stopped before its end. */
  stopped?: string;
  /** Made when the run began, kept in the recording. */
  recording: Omit<Recording, "exchanges">;
}

const sayTo = (io: VerifyIo, redactor: Redactor) => (text: string) =>
  io.stderr(redactor.text(`loyalty-mock verify: ${text}\n`));

/** The table, the files and the exit status of a run that went as far as it could. */
function conclude(run: Outcome): number {
  const { command, io, redactor, stopped, results } = run;
  const say = sayTo(io, redactor);
  const report = reportOf(run.sides, results, stopped);
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
  if (command.record !== undefined && run.plan.config.target)
    writeRecording(
      command.record,
      redactor.value({ ...run.recording, exchanges: run.recorded }) as Recording,
    );
  return report.differed > 0 ? 1 : 0;
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
  const say = sayTo(io, redactor);
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
      : runSideOf("the target", targetSide, inputs, limits, secrets, new Budget());
  const mock = runSideOf("the mock", mockSide, inputs, limits, secrets);
  const run: Outcome = {
    command,
    io,
    plan,
    redactor,
    sides: {
      target: plan.recording
        ? `the recording ${command.replay} (${plan.recording.target}, ${plan.recording.recorded_at})`
        : new URL(targetSide?.url ?? "http://unknown").origin,
      mock: `loyalty-mock ${io.version}, ${running ? "a fresh stand-in in this process (default fixtures)" : new URL(mockSide.url).origin}`,
    },
    results: [],
    recorded: [],
    recording: {
      format: RECORDING_FORMAT,
      version: 1,
      recorded_at: new Date(now()).toISOString(),
      recorded_with: io.version,
      target: new URL(targetSide?.url ?? "http://unknown").origin,
      allow_writes: plan.allowWrites,
      inputs,
    },
  };
  try {
    await runSteps(plan, target, mock, run.results, run.recorded);
  } catch (error) {
    if (error instanceof VerifyConfigError) {
      say(error.message);
      return 2;
    }
    if (!(error instanceof TargetUnusable)) throw error;
    run.stopped = error.message;
  } finally {
    await running?.close();
  }
  return conclude(run);
}
