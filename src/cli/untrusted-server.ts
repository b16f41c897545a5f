import { DEFAULT_MAX_ANSWER_BYTES, MOST_ANSWER_BYTES } from "../clients/read-answer.js";
import type { Command, Flag } from "./flags.js";
import { UsageError } from "./usage-error.js";

/**
 * What the commands that call a server they do not trust (verify's target and mock, the server play plays on)
 * check alike before the first call: the base URL, and the cap on each answer, one flag declared once.
 */

/**
 * Why a base URL cannot be used, or undefined. A user name and password in it (`https://user:pw@host`) would go to
 * the server with every call beside the key pair, and into any message naming the address: the key pair is the
 * only credential sent, and `keyPairIn` says where it is given. A query or fragment would end up before each
 * step's path. The problem never repeats the value, which may hold a password.
 */
export function baseUrlProblem(value: string, keyPairIn: string): string | undefined {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) return "expected an http(s) URL";
  const parsed = new URL(value);
  if (parsed.username !== "" || parsed.password !== "")
    return `must not hold a user name or password (user:pw@); the key pair goes in ${keyPairIn}`;
  if (parsed.search !== "" || parsed.hash !== "" || /[?#]/.test(value))
    return "expected a base URL, without a query (?) or fragment (#)";
  return undefined;
}

export const MAX_ANSWER_BYTES_FLAG: Flag = {
  name: "max-answer-bytes",
  value: "<n>",
  help: `the most bytes one answer may be, as sent and decoded (default ${DEFAULT_MAX_ANSWER_BYTES}, 8 MiB)`,
};

/** `--max-answer-bytes` as given to `command`, or undefined when not given (the default applies). */
export function answerBytesOf(text: string | undefined, command: Command): number | undefined {
  if (text === undefined) return undefined;
  const bytes = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!(bytes >= 1 && bytes <= MOST_ANSWER_BYTES))
    throw new UsageError(
      `${command.name}: invalid value for --${MAX_ANSWER_BYTES_FLAG.name}: ${JSON.stringify(text)}; expected a whole number of bytes from 1 to ${MOST_ANSWER_BYTES} (default ${DEFAULT_MAX_ANSWER_BYTES})`,
      command,
    );
  return bytes;
}
