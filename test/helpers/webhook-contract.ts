// Validates a notification's `data` against the vendor's webhook description (the vendor's document, MIT: the
// repository keeps no copy of it), read at test time from WEBHOOKS_CONTRACT_FILE, ../shared/contract/ beside the
// repository, or the .contract/ folder `npm run contract:fetch` fills (test/helpers/contract-files.ts). Found
// nowhere, every validation here is skipped and counted, unless LOYALTY_MOCK_REQUIRE_CONTRACT=1.
import { readFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { contractRequired, locateContractFile, missingContractMessage } from "./contract-files.js";
import { skippedWithout } from "./contract-skips.js";

interface WebhooksDocument {
  components: { schemas: Record<string, unknown> };
  webhooks: Record<
    string,
    { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
  >;
}

function load(path: string): WebhooksDocument {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as WebhooksDocument;
  } catch (error) {
    throw new Error(
      `webhooks contract: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error}). ` +
        "Tests read it from WEBHOOKS_CONTRACT_FILE, ../shared/contract/ beside the repository, or .contract/ " +
        "(`npm run contract:fetch`); set WEBHOOKS_CONTRACT_FILE to its path otherwise.",
    );
  }
}

function findDocument(): WebhooksDocument | undefined {
  const found = locateContractFile("webhooks");
  if (found) return load(found.path);
  if (contractRequired())
    throw new Error(
      `webhooks contract: ${missingContractMessage("webhooks")} (LOYALTY_MOCK_REQUIRE_CONTRACT=1)`,
    );
  return undefined;
}

/**
 * The document declares OpenAPI 3.1 but writes nullability the 3.0 way (`nullable: true`, 195 times, often beside a
 * bare `$ref` or an `allOf`, where Ajv's own `nullable` support refuses to compile). A 2020-12 validator ignores the
 * keyword, which would refuse every `null` the vendor means to allow. So each `{nullable: true, ...rest}` is read as
 * `{anyOf: [rest, {type: "null"}]}`: null allowed, nothing else loosened (the same 3.0-to-3.1 conversion the
 * six-operations contract records in its `x-conversions`).
 */
export function convertNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertNullable);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // A property named `nullable` holds a schema (an object); only the boolean is the keyword.
    if (key === "nullable" && typeof value === "boolean") continue;
    out[key] = convertNullable(value);
  }
  return (node as { nullable?: unknown }).nullable === true ? { anyOf: [out, { type: "null" }] } : out;
}

/** Undefined when the file is found nowhere: every validation is then skipped and counted. */
const document = findDocument();

// Both packages are CommonJS: the default import is `module.exports`, whose `.default` is the class / plugin.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
// First error only: the schemas are large (every voucher carries the discount oneOf tree), and collecting all errors
// nearly doubles their compile time (about 2.4 s against 1.3 s for the eleven types on this machine), paid once per
// test worker.
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
if (document) ajv.addSchema({ $id: "webhooks", components: convertNullable(document.components) });

/** `voucher.loyalty_card.points_added` -> `EVENTS.VOUCHER.LOYALTY_CARD.POINTS_ADDED`, the document's key. */
export function webhookKey(type: string): string {
  return `EVENTS.${type.toUpperCase()}`;
}

/** The event types the document describes, as the envelope's `type` writes them (none without the document). */
export const WEBHOOK_TYPES: readonly string[] = Object.keys(document?.webhooks ?? {}).map((key) =>
  key.slice("EVENTS.".length).toLowerCase(),
);

const validators = new Map<string, ValidateFunction>();
function validatorFor(type: string): ValidateFunction {
  let validate = validators.get(type);
  if (validate) return validate;
  const hook = document?.webhooks[webhookKey(type)];
  const ref = hook?.post.requestBody.content["application/json"]?.schema.$ref;
  if (!ref) throw new Error(`webhooks contract: no event ${webhookKey(type)} for type ${type}`);
  validate = ajv.getSchema(`webhooks${ref}`);
  if (!validate) throw new Error(`webhooks contract: no schema at ${ref}`);
  validators.set(type, validate);
  return validate;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 12)
    .map((e) => `  ${e.instancePath || "(root)"} ${e.message ?? e.keyword} [${e.schemaPath}]`)
    .join("\n");
}

/** Throws unless `data` matches the vendor's schema for the notification type. */
export function validateWebhookData(type: string, data: unknown): void {
  if (skippedWithout(document)) return;
  const validate = validatorFor(type);
  if (!validate(data)) {
    const body = JSON.stringify(data);
    throw new Error(
      `${type}: data does not match ${webhookKey(type)}:\n${describeErrors(validate.errors)}\n` +
        `data: ${body.length > 3000 ? `${body.slice(0, 3000)}...` : body}`,
    );
  }
}
