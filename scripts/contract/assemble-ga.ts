/**
 * The contract of the generally available Loyalty v2's two emulated operations, built from the vendor's GA file
 * (documentation/openapi/loyalties-v2.json at 65c33a7a, scripts/contract/sources.ts pins it): an OpenAPI 3.1 subset
 * holding POST .../tier-structures/{tierStructureId}/tiers and DELETE .../benefits/{benefitId} with every component
 * they use, so that the GA form's answers, successes and errors, are validated against the GA schemas. Everything
 * here is the recipe; the schemas are read from the vendor's file at run time, and `info.x-conversions` records
 * every change made to them. Both `npm run contract:fetch` (which checks the recipe applies) and the tests
 * (test/helpers/contract-ga.ts, from the vendor's file wherever it is found) build it with this function.
 */
import {
  asDocument,
  clone,
  componentClosure,
  fail,
  HTTP_METHODS,
  type Json,
  type JsonObject,
  objectAt,
  pointerToken,
} from "./assemble.js";
import { VENDOR_FILES, VENDOR_REPOSITORY } from "./sources.js";

interface GaRecipe {
  path: string;
  method: string;
  /**
   * The vendor's path-parameter defect: the file declares the parameter `id` where its path template names it
   * otherwise (`{tierStructureId}`, `{benefitId}`). Renamed to the template's name, so the operation is a valid
   * OpenAPI one and a validator can tell which segment it describes.
   */
  parameter: { declared: string; template: string };
}

const GA_RECIPE: readonly GaRecipe[] = [
  {
    path: "/v2/loyalties/tier-structures/{tierStructureId}/tiers",
    method: "post",
    parameter: { declared: "id", template: "tierStructureId" },
  },
  {
    path: "/v2/loyalties/benefits/{benefitId}",
    method: "delete",
    parameter: { declared: "id", template: "benefitId" },
  },
];

const FILE = VENDOR_FILES.loyaltiesV2Ga;

/** The parameters of an operation with the defect's one renamed; fails when the file no longer has the defect. */
function renameParameter(recipe: GaRecipe, parameters: Json | undefined, what: string): Json[] {
  if (!Array.isArray(parameters)) fail(`${what}: no parameters`);
  const { declared, template } = recipe.parameter;
  let renamed = 0;
  const out = parameters.map((parameter) => {
    const object = objectAt(parameter, `${what}: parameter`);
    if (object.in !== "path" || object.name !== declared) return clone(object);
    renamed += 1;
    return { ...clone(object), name: template };
  });
  if (renamed !== 1)
    fail(
      `${what}: expected one path parameter named ${declared} against {${template}} (the vendor's defect), found ${renamed}; the recipe needs a look`,
    );
  return out;
}

/** `loyalty-v2-ga` contract: the two GA operations and the components they use, with the conversions listed. */
export function assembleLoyaltyV2Ga(source: JsonObject): JsonObject {
  const document = asDocument(source, "loyaltiesV2Ga");
  const security = document.security ?? fail(`${FILE.path}: no root security`);
  const paths: JsonObject = {};
  const conversions: string[] = [
    "Only the two operations the stand-in emulates in the generally available form are kept, each path with only that method.",
    `Root security ${JSON.stringify(security)} (key pair OR bearer token) copied onto each operation, which has none of its own.`,
  ];
  const components: { [kind: string]: JsonObject } = {};
  for (const recipe of GA_RECIPE) {
    const what = `${recipe.method.toUpperCase()} ${recipe.path}`;
    const item = objectAt(document.paths[recipe.path], `${FILE.path}: ${recipe.path}`);
    const operation = clone(objectAt(item[recipe.method], `${FILE.path}: ${what}`));
    operation.parameters = renameParameter(recipe, operation.parameters, what);
    operation.security = clone(security);
    operation["x-source"] = {
      file: FILE.path,
      repo: VENDOR_REPOSITORY,
      commit: FILE.commit,
      pointer: `/paths/${pointerToken(recipe.path)}/${recipe.method}`,
    };
    const kept: JsonObject = {};
    for (const [key, value] of Object.entries(item))
      if (key === recipe.method) kept[key] = operation;
      else if (!HTTP_METHODS.has(key)) kept[key] = clone(value);
    paths[recipe.path] = kept;
    conversions.push(
      `${what}: path parameter "${recipe.parameter.declared}" renamed "${recipe.parameter.template}", the name its path template gives it (the vendor's file declares "${recipe.parameter.declared}").`,
    );
    for (const [kind, names] of componentClosure(kept, document, "loyaltiesV2Ga"))
      for (const name of [...new Set(names)].sort()) {
        components[kind] ??= {};
        (components[kind] as JsonObject)[name] = clone(document.components[kind]?.[name] as Json);
      }
  }
  components.securitySchemes = clone(
    objectAt(document.components.securitySchemes, `${FILE.path}: securitySchemes`),
  );
  return {
    openapi: "3.1.0",
    info: {
      title:
        "Voucherify Loyalty v2 (generally available) - contract for the two emulated operations (mock server)",
      version: String(objectAt(document.info, "info").version ?? ""),
      "x-source": { repo: VENDOR_REPOSITORY, repo_license: "MIT", commit: FILE.commit, file: FILE.path },
      "x-conversions": conversions,
    },
    paths,
    components,
  };
}
