import { parseArgs } from "node:util";
import { UsageError } from "../usage-error.js";

/** `loyalty-mock verify`: its flags, checked before anything is read or called (a wrong one is exit 2). */
export interface VerifyCommand {
  command: "verify";
  config?: string;
  record?: string;
  replay?: string;
  json?: string;
  mock?: string;
  allowWrites: boolean;
}

export function parseVerify(args: readonly string[]): VerifyCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        config: { type: "string" },
        record: { type: "string" },
        replay: { type: "string" },
        json: { type: "string" },
        mock: { type: "string" },
        "allow-writes": { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`verify: ${(error as Error).message}`);
  }
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const [config, record, replay, json, mock] = ["config", "record", "replay", "json", "mock"].map(text);
  if (config === undefined && replay === undefined)
    throw new UsageError(
      "verify: give --config <file> (the target and its objects), or --replay <recording>",
    );
  if (record !== undefined && replay !== undefined)
    throw new UsageError("verify: --record calls the target and --replay does not: give one of them");
  if (mock !== undefined && (!URL.canParse(mock) || !/^https?:$/.test(new URL(mock).protocol)))
    throw new UsageError(
      `verify: invalid value for --mock: ${JSON.stringify(mock)}; expected an http:// URL`,
    );
  return {
    command: "verify",
    ...(config !== undefined && { config }),
    ...(record !== undefined && { record }),
    ...(replay !== undefined && { replay }),
    ...(json !== undefined && { json }),
    ...(mock !== undefined && { mock: mock.replace(/\/+$/, "") }),
    allowWrites: values["allow-writes"] === true,
  };
}
