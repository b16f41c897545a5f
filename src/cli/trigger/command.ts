import { ANSWER_TIMEOUT_MS } from "../../clients/bounded-request.js";
import { SETTINGS } from "../../config/settings.js";
import { variableOf } from "../../config/settings-table.js";
import { WEBHOOK_EVENT } from "../../domain/webhooks/types.js";
import { type Command, HELP, helpOf, nearestName, parseCommand } from "../flags.js";
import { answerBytesOf, baseUrlProblem, MAX_ANSWER_BYTES_FLAG } from "../untrusted-server.js";
import { UsageError } from "../usage-error.js";
import { CAUSES } from "./causes.js";
import { SETTLE_TIMEOUT_MS } from "./outbox-wait.js";

/** `loyalty-mock trigger <type>`: one notification caused on demand through a running server. */
export interface TriggerCommand {
  command: "trigger";
  /** The notification type, as the envelope writes it; undefined with --list. */
  type?: string;
  list: boolean;
  url: string;
  project: string;
  customer?: string;
  adminToken?: string;
  maxAnswerBytes?: number;
}

type TypeName = keyof typeof WEBHOOK_EVENT;

/** Every type the stand-in sends, with its cause, in the order the server declares them. */
export function triggerTypes(): { type: string; name: TypeName; how: string }[] {
  return (Object.keys(WEBHOOK_EVENT) as TypeName[]).map((name) => ({
    type: WEBHOOK_EVENT[name],
    name,
    how: CAUSES[name].how,
  }));
}

const TYPES_IN_WORDS = () => triggerTypes().map(({ type }) => type);

export const TRIGGER: Command = {
  name: "trigger",
  usage: [
    "trigger <notification-type> [--url <url>] [--project <id>] [--customer <source_id>] [--admin-token <token>] [--max-answer-bytes <n>]",
    "trigger --list",
  ],
  about:
    "Causes one webhook notification through the public operations of a running server, with the project's own\n" +
    "data (its event schemas, earning rules, programs and referral codes, read from the control API), waits until\n" +
    "the outbox shows it delivered (or recorded, when no endpoint wants it), and prints its id, type and where it went.",
  flags: [
    { name: "list", help: "print every type the stand-in sends and how trigger causes each, and exit" },
    { name: "url", value: "<url>", help: "the server's base URL (http://127.0.0.1:3000)" },
    { name: "project", value: "<id>", help: "the project whose data and key pair are used (demo)" },
    {
      name: "customer",
      value: "<source_id>",
      help: "the customer the calls are made for (a new one, trigger-<hex>@example.com, unless given)",
    },
    {
      name: "admin-token",
      value: "<token>",
      help: `the server's admin token, for the control API [${variableOf(SETTINGS.adminToken)}]`,
    },
    MAX_ANSWER_BYTES_FLAG,
    HELP,
  ],
  more: [
    "The key pair is the project's first active key (GET /__mock/projects/<id>/keys). The server is not trusted: no",
    "redirect is followed (the key pair and the admin token go to --url only), and a call fails on a redirect, an",
    `answer that is not JSON, past --max-answer-bytes or not whole within ${ANSWER_TIMEOUT_MS / 1000} s. It waits at most ${SETTLE_TIMEOUT_MS / 1000} s for the outbox.`,
    "Exit status: 0 delivered or recorded, 1 a call or the delivery failed, 2 a usage error or a type it cannot",
    "cause (with the project's data), naming the types it can.",
  ],
  examples: [
    "loyalty-mock trigger --list",
    "loyalty-mock trigger customer.rewarded.loyalty_points",
    "loyalty-mock trigger voucher.published --url http://127.0.0.1:3000 --project demo --customer zoe@example.com",
  ],
};

const fail = (message: string) => new UsageError(`trigger: ${message}`, TRIGGER);

/** A type trigger does not know, refused naming the ones it does (and the nearest, when one is close). */
export function unknownType(type: string): string {
  const near = nearestName(TYPES_IN_WORDS(), type);
  return `unknown notification type ${JSON.stringify(type)}${near ? ` (did you mean ${near}?)` : ""}; it can cause ${TYPES_IN_WORDS().join(", ")}`;
}

export function parseTrigger(args: readonly string[]): TriggerCommand | { command: "help"; text: string } {
  const parsed = parseCommand(TRIGGER, args);
  if (parsed === "help") return { command: "help", text: helpOf(TRIGGER) };
  const { values, positionals } = parsed;
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const list = values.list === true;
  const [type, ...extra] = positionals;
  if (type === undefined && !list)
    throw fail("give a notification type, as in loyalty-mock trigger voucher.published (--list names them)");
  if (extra.length > 0) throw fail(`one type at a time; ${JSON.stringify(extra[0])} is one too many`);
  if (type !== undefined && !TYPES_IN_WORDS().includes(type)) throw fail(unknownType(type));
  const url = text("url") ?? "http://127.0.0.1:3000";
  // The address is not repeated: it may hold a password.
  const urlProblem = baseUrlProblem(url, "the project's keys (read from the control API)");
  if (urlProblem !== undefined) throw fail(`invalid value for --url: ${urlProblem}`);
  const [customer, adminToken, project = "demo"] = ["customer", "admin-token", "project"].map(text);
  const maxAnswerBytes = answerBytesOf(text(MAX_ANSWER_BYTES_FLAG.name), TRIGGER);
  return {
    command: "trigger",
    ...(type !== undefined && { type }),
    list,
    url: url.replace(/\/+$/, ""),
    project,
    ...(customer !== undefined && { customer }),
    ...(adminToken !== undefined && { adminToken }),
    ...(maxAnswerBytes !== undefined && { maxAnswerBytes }),
  };
}
