import { readFileSync } from "node:fs";
import { z } from "zod";
import { VERIFY_VARIABLES } from "../../config/other-variables.js";
import { baseUrlProblem } from "../untrusted-server.js";

/**
 * The config file of `loyalty-mock verify`: the target (the real service's sandbox project, or anything that speaks
 * its API), the target's objects the steps use, and optionally the mock side's. The secrets may stay out of the
 * file: the environment variables of config/other-variables.ts fill what the file leaves out, and win over it, so a
 * CI job keeps them in its secret store.
 */

/** Where a side's key pair is given, rather than in its URL. */
export const KEY_PAIR_IN = "app_id and app_token";

/** A config that cannot be used; the command says it and exits 2. */
export class VerifyConfigError extends Error {
  override name = "VerifyConfigError";
}

const objectsSchema = z.strictObject({
  loyalty_campaign_id: z.string().min(1),
  location_id: z.string().min(1),
  tier_structure_id: z.string().min(1),
  /** Tried in order: one is deleted per run; those an earlier run deleted are skipped (404). */
  incentive_ids: z.array(z.string().regex(/^linc_[a-f0-9]+$/)).min(1),
  custom_event: z.strictObject({
    name: z.string().min(1),
    metadata: z.record(z.string(), z.unknown()).default({}),
  }),
});

export type Objects = z.infer<typeof objectsSchema>;

const url = z
  .string()
  .superRefine((value, context) => {
    const problem = baseUrlProblem(value, KEY_PAIR_IN);
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  })
  .transform((value) => value.replace(/\/+$/, ""));

/** What an HTTP header can carry (visible ASCII): a key with other characters could never be sent. */
const HEADER_TEXT = /^[\x21-\x7e]+$/;
const headerText = z
  .string()
  .min(1)
  .regex(HEADER_TEXT, "holds a character an HTTP header cannot carry (only visible ASCII)");

const fileSchema = z.strictObject({
  target: z.strictObject({ url, app_id: headerText.optional(), app_token: headerText.optional() }).optional(),
  objects: objectsSchema.optional(),
  allow_writes: z.boolean().default(false),
  mock: z
    .strictObject({
      url: url.optional(),
      app_id: headerText.optional(),
      app_token: headerText.optional(),
      objects: objectsSchema.optional(),
    })
    .default({}),
});

/** One side of the comparison: where it answers, with which key pair, and which of its objects to use. */
export interface Side {
  url: string;
  appId: string;
  appToken: string;
  objects: Objects;
}

/**
 * The default fixtures' objects that stand for the target's: the demo project's card campaign (customers join it
 * once), its circle location, its first tier structure (closed ranges far below 250,000,000), two incentives no
 * earning rule uses (the incentive and the benefit steps delete one each), and `user_subscribed` (whose schema
 * asks for `plan`).
 */
export const DEMO_OBJECTS: Objects = {
  loyalty_campaign_id: "camp_demo_loyalty",
  location_id: "loc_demo_circle",
  tier_structure_id: "lts_d0000000000000001",
  incentive_ids: ["linc_d0000000000000101", "linc_d0000000000000102"],
  custom_event: { name: "user_subscribed", metadata: { plan: "verify" } },
};
export const DEMO_KEY = { appId: "demo-app-id", appToken: "demo-app-token" };

export interface VerifyConfig {
  /** Absent only for a replay without a config. */
  target?: Side;
  allowWrites: boolean;
  /** The mock side's key and objects; `url` only when the config's mock block names one. */
  mock: Omit<Side, "url"> & { url?: string };
}

function read(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new VerifyConfigError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new VerifyConfigError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

/** A secret from its variable, when set; one no header can carry is refused by name (its value is never said). */
function secretOf(env: NodeJS.ProcessEnv, which: keyof typeof VERIFY_VARIABLES): string | undefined {
  const variable = VERIFY_VARIABLES[which];
  const value = env[variable];
  if (value && !HEADER_TEXT.test(value))
    throw new VerifyConfigError(
      `${variable} holds a character an HTTP header cannot carry (only visible ASCII)`,
    );
  return value;
}

/** The config from its file and the environment; `needTarget` is false for a replay, which never calls it. */
export function loadConfig(file: string, env: NodeJS.ProcessEnv, needTarget = true): VerifyConfig {
  const parsed = fileSchema.safeParse(read(file));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(the file)";
    throw new VerifyConfigError(`${file}: ${where}: ${issue?.message ?? "invalid"}`);
  }
  const { target, objects, allow_writes, mock } = parsed.data;
  const config: VerifyConfig = {
    allowWrites: allow_writes,
    mock: {
      ...(mock.url !== undefined && { url: mock.url }),
      appId: secretOf(env, "mockAppId") || mock.app_id || DEMO_KEY.appId,
      appToken: secretOf(env, "mockAppToken") || mock.app_token || DEMO_KEY.appToken,
      objects: mock.objects ?? DEMO_OBJECTS,
    },
  };
  if (!needTarget) return config;
  if (!target) throw new VerifyConfigError(`${file}: target: required (its url, at least)`);
  if (!objects)
    throw new VerifyConfigError(`${file}: objects: required (the target's objects the steps use)`);
  const appId = secretOf(env, "targetAppId") || target.app_id;
  const appToken = secretOf(env, "targetAppToken") || target.app_token;
  if (!appId || !appToken)
    throw new VerifyConfigError(
      `${file}: target: app_id and app_token are needed, in the file or in ${VERIFY_VARIABLES.targetAppId} and ${VERIFY_VARIABLES.targetAppToken}`,
    );
  return { ...config, target: { url: target.url, appId, appToken, objects } };
}
