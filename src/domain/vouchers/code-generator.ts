import { type IdSource, randomIds } from "../../platform/ids.js";
import type { Campaign } from "../campaigns/campaign.js";

type CodeConfig = Campaign["voucher"]["code_config"];

const DEFAULT_LENGTH = 8;
const RANDOM_ATTEMPTS = 64;
/** Below this many possible codes, a crowded space is searched exhaustively rather than given up on. */
const ENUMERABLE = 100_000;

/** The random part of a code: the pattern's `#`s, or `length` characters. */
function randomSlots(config: CodeConfig): number {
  return config.pattern
    ? [...config.pattern].filter((c) => c === "#").length
    : (config.length ?? DEFAULT_LENGTH);
}

function fill(config: CodeConfig, randomPart: string): string {
  if (!config.pattern) return `${config.prefix}${randomPart}${config.postfix}`;
  let i = 0;
  const body = config.pattern.replace(/#/g, () => randomPart[i++] ?? "");
  return `${config.prefix}${body}${config.postfix}`;
}

/** How many distinct codes the configuration can make. */
export function codeSpace(config: CodeConfig): number {
  return config.charset.length ** randomSlots(config);
}

/**
 * A new code in the campaign's format (`code_config`: pattern, or prefix + length + postfix, over the charset) that
 * `taken` does not know. Random draws first, as the service makes codes; when the space is small and crowded, every
 * code is tried in turn so that the last free one is still found. Undefined when the space is exhausted.
 */
export function generateCode(
  config: CodeConfig,
  taken: (code: string) => boolean,
  ids: IdSource = randomIds,
): string | undefined {
  const slots = randomSlots(config);
  for (let attempt = 0; attempt < RANDOM_ATTEMPTS; attempt++) {
    const code = fill(config, ids.randomString(slots, config.charset));
    if (!taken(code)) return code;
  }
  if (codeSpace(config) > ENUMERABLE) return undefined;
  for (const randomPart of enumerate(config.charset, slots)) {
    const code = fill(config, randomPart);
    if (!taken(code)) return code;
  }
  return undefined;
}

function* enumerate(charset: string, slots: number): Generator<string> {
  if (slots === 0) {
    yield "";
    return;
  }
  for (const head of charset) for (const tail of enumerate(charset, slots - 1)) yield head + tail;
}
