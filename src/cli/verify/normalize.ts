import { isDeepStrictEqual } from "node:util";
import type { Objects } from "./config.js";
import type { Answer } from "./exchange.js";
import { Redactor } from "./redact.js";
import type { Step, StepRequest } from "./step.js";

/**
 * Answers with what changes from call to call, side to side and run to run taken out, so that two answers (or an
 * answer and a recording) compare as equals when they behave alike. Done once per answer, before it is compared or
 * recorded, so a recording holds no token, no key and no id a sandbox would not want shared.
 */
export interface Normalized {
  status: number;
  /** `content-type`: its media type; the rate-limit headers: `<present>`; a redirect's `location`. */
  headers: Record<string, string>;
  body: unknown;
}

export interface SideContext {
  objects: Objects;
  /** Values never to be written anywhere: the key pair and the tokens. */
  secrets: readonly string[];
}

/** What an echo that matched the request becomes: the same on both sides, whatever each sent. */
const SENT = "<sent>";
const REQUEST_ID = /^v-[0-9a-f]{18}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** A generated id: a short prefix, then random characters with a digit among them (never a word like `invalid_payload`). */
const PREFIXED_ID = /^([a-z]{1,8})_(?=[A-Za-z]*[0-9])[A-Za-z0-9]{6,}$/;
/**
 * Properties whose values are made per call: tokens, key ids, card codes (an error's `code` is its status). A Map,
 * not an object: a target's property named `constructor` or `__proto__` must not find Object.prototype's.
 */
const VOLATILE: ReadonlyMap<string, (value: unknown) => unknown> = new Map<
  string,
  (value: unknown) => unknown
>([
  ["access_token", () => "<access_token>"],
  ["client_id", () => "<client_id>"],
  ["code", (value) => (typeof value === "string" ? "<code>" : value)],
  ["expires_at", () => 0],
  ["request_id", () => "<request_id>"],
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The value at a dotted path, or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  let node = value;
  for (const part of path.split(".")) {
    if (!isRecord(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

function setAt(value: unknown, path: string, replacement: unknown): void {
  const parts = path.split(".");
  const last = parts.pop() as string;
  const holder = parts.length === 0 ? value : valueAt(value, parts.join("."));
  if (isRecord(holder) && Object.hasOwn(holder, last)) holder[last] = replacement;
}

/** The side's own ids, by name: `<objects.location_id>` stands for the target's location and the mock's alike. */
function idNames(objects: Objects): Map<string, string> {
  const names = new Map<string, string>();
  names.set(objects.loyalty_campaign_id, "<objects.loyalty_campaign_id>");
  names.set(objects.location_id, "<objects.location_id>");
  names.set(objects.tier_structure_id, "<objects.tier_structure_id>");
  for (const id of objects.incentive_ids) names.set(id, "<objects.incentive_id>");
  return names;
}

/** Masks, as [value, what it becomes]: a card's code inside its URLs. */
type Masks = readonly (readonly [string, string])[];

function scrub(text: string, masks: Masks): string {
  let out = text;
  for (const [value, mask] of masks) if (value.length >= 4) out = out.split(value).join(mask);
  return out;
}

function normalizeString(text: string, ids: Map<string, string>, masks: Masks): string {
  const named = ids.get(text);
  if (named !== undefined) return named;
  if (REQUEST_ID.test(text)) return "<request_id>";
  if (TIMESTAMP.test(text)) return "<timestamp>";
  const prefixed = PREFIXED_ID.exec(text);
  if (prefixed) return `<${prefixed[1]}_id>`;
  let out = scrub(text, masks);
  for (const [id, name] of ids) out = out.split(id).join(name);
  return out;
}

/**
 * An error's `key` is kept as it is (it is what the comparison of errors is about; secrets are masked in it after).
 * Objects are rebuilt from their own properties only, each defined (never assigned), so `__proto__` stays data.
 */
function walk(value: unknown, ids: Map<string, string>, masks: Masks): unknown {
  if (typeof value === "string") return normalizeString(value, ids, masks);
  if (Array.isArray(value)) return value.map((item) => walk(item, ids, masks));
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value).map((key) => {
      const item = value[key];
      const volatile = VOLATILE.get(key);
      return [
        key,
        key === "key" ? item : volatile && item !== null ? volatile(item) : walk(item, ids, masks),
      ];
    }),
  );
}

/** A request as a recording keeps it: the side's ids by name, no credentials but their kind, no secret. */
export function normalizeRequest(request: StepRequest, side: SideContext): StepRequest {
  const ids = idNames(side.objects);
  const secrets = new Redactor(side.secrets);
  return {
    ...request,
    path: secrets.text(normalizeString(request.path, ids, [])),
    ...(request.json && { json: secrets.value(walk(request.json, ids, [])) as Record<string, unknown> }),
  };
}

/** A redirect's target as shown: without the user name and password a URL may carry. */
const withoutUserinfo = (location: string) => location.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, "$1");

/**
 * The secrets are masked in the raw answer (its keys and headers too), so that nothing normalizing does (naming
 * ids, masking codes) can split one and let part of it through, and again in what normalizing made.
 */
export function normalizeAnswer(
  answer: Answer,
  step: Step,
  sent: StepRequest,
  side: SideContext,
): Normalized {
  const secrets = new Redactor(side.secrets);
  const body = secrets.value(answer.body);
  const raw = secrets.value(answer.headers) as Record<string, string>;
  // An echo is judged against what this side was sent, before ids and times are taken out of either.
  for (const [responsePath, requestPath] of Object.entries(step.echo ?? {})) {
    const echoed = valueAt(body, responsePath);
    const input = valueAt(sent.json ?? sent.form, requestPath);
    if (echoed !== undefined && isDeepStrictEqual(echoed, input)) setAt(body, responsePath, SENT);
  }
  const headers: Record<string, string> = {};
  const type = raw["content-type"];
  if (type !== undefined) headers["content-type"] = (type.split(";")[0] ?? "").trim().toLowerCase();
  for (const name of ["x-rate-limit-limit", "x-rate-limit-remaining"])
    if (raw[name] !== undefined) headers[name] = "<present>";
  // A card's code is in its URLs too (`/v1/vouchers/<code>/publications`): masked wherever it is.
  const code = valueAt(body, "code");
  const masks: Masks = typeof code === "string" ? [[code, "<code>"]] : [];
  const ids = idNames(side.objects);
  if (raw.location !== undefined)
    headers.location = normalizeString(withoutUserinfo(raw.location), ids, masks);
  return {
    status: answer.status,
    headers: secrets.value(headers) as Record<string, string>,
    body: secrets.value(walk(body, ids, masks)),
  };
}
