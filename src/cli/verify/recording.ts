import { readFileSync } from "node:fs";
import { z } from "zod";
import { MAX_ANSWER_DEPTH, nestedDeeper } from "../../clients/read-answer.js";
import type { OperationName } from "../../http/operations/table.js";
import { VerifyConfigError } from "./config.js";
import type { Normalized } from "./normalize.js";
import { writePrivate } from "./output-files.js";
import type { RunInputs, StepRequest } from "./step.js";

/**
 * A recording: the target's side of one run, normalized (its ids by name, times, tokens and request ids masked,
 * no credential), for a team to commit and for `--replay` to compare the mock with, offline. It carries what the
 * mock side needs: the run's inputs and which steps ran.
 */
export const RECORDING_FORMAT = "loyalty-mock-verify-recording";

export interface RecordedExchange {
  step: string;
  operation: OperationName;
  /** The step did not run (a write without allow_writes); the replay skips it too. */
  skipped?: true;
  request?: StepRequest;
  answer?: Normalized;
}

export interface Recording {
  format: typeof RECORDING_FORMAT;
  version: 1;
  recorded_at: string;
  /** The loyalty-mock version that recorded it. */
  recorded_with: string;
  /** The target's origin only (never a path, a query or credentials). */
  target: string;
  allow_writes: boolean;
  inputs: RunInputs;
  exchanges: RecordedExchange[];
}

const normalized = z.object({
  status: z.number(),
  headers: z.record(z.string(), z.string()),
  body: z.unknown(),
});
const schema = z.object({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(1),
  recorded_at: z.string(),
  recorded_with: z.string(),
  target: z.string(),
  allow_writes: z.boolean(),
  // A recording of 0.11 or earlier also holds its two customers and its tier's name, which a step now derives from
  // the run's name: read and left.
  inputs: z.object({ run: z.string(), tierPoints: z.number() }),
  exchanges: z.array(
    z.object({
      step: z.string(),
      operation: z.string(),
      skipped: z.literal(true).optional(),
      request: z.unknown().optional(),
      answer: normalized.optional(),
    }),
  ),
});

export function writeRecording(file: string, recording: Recording): void {
  writePrivate(file, `${JSON.stringify(recording, null, 2)}\n`);
}

/** A recording's answers sit four levels down (`exchanges[].answer.body`): the answers' own bound, plus those. */
const RECORDING_DEPTH = MAX_ANSWER_DEPTH + 4;

export function readRecording(file: string): Recording {
  let data: unknown;
  try {
    const text = readFileSync(file, "utf8");
    if (nestedDeeper(text, RECORDING_DEPTH))
      throw new Error(`it nests deeper than ${RECORDING_DEPTH} levels, which no recording does`);
    data = JSON.parse(text);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new VerifyConfigError(`cannot read the recording ${file} (${reason})`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new VerifyConfigError(
      `${file} is not a verify recording: ${issue?.path.join(".") || "(the file)"}: ${issue?.message}`,
    );
  }
  const recording = parsed.data as Recording;
  for (const exchange of recording.exchanges) exchange.step = RENAMED.get(exchange.step) ?? exchange.step;
  return recording;
}

/**
 * Success steps are named by their operation since 0.12; a recording made before calls them as it did, and is
 * read as if it were new (the requests and answers are the same calls').
 */
const RENAMED: ReadonlyMap<string, OperationName> = new Map<string, OperationName>([
  ["token-api", "generateToken"],
  ["location", "getLocation"],
  ["member-new-customer", "addMember"],
  ["event", "trackEvent"],
  ["tier", "createTier"],
  ["incentive-delete", "deleteIncentive"],
]);
