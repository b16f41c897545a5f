import type { Request, RequestHandler } from "express";
import { invalidPayload } from "../../domain/errors.js";
import { runInSlices } from "../../platform/steps.js";
import { propertyPath } from "../../platform/validation-messages.js";

/**
 * Limits on the shape of a parsed body, beyond its size in bytes. The JSON parser has no depth limit, and a body
 * nested a hundred thousand levels deep is small enough to pass the size limit yet overflows the stack of any
 * code that walks it recursively (validation, copying, JSON.stringify of a journal entry): so the shape is checked
 * once, iteratively, before anything else looks at the body.
 */
export interface InputLimits {
  /** Deepest nesting of objects and arrays in a body; the body itself is level 1. */
  jsonDepth: number;
  /** Longest string, property names included, in characters. */
  stringChars: number;
  /** Most properties a `metadata` object may hold, wherever it appears in a body. */
  metadataKeys: number;
}

interface Node {
  value: unknown;
  depth: number;
  parent: Node | undefined;
  key: string | number | undefined;
}

function pathOf(node: Node): string {
  const keys: (string | number)[] = [];
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) keys.unshift(at.key);
  return propertyPath(keys);
}

function subject(node: Node): string {
  const path = pathOf(node);
  return path === "" ? "Request body" : `Property ${path}`;
}

interface LimitProblem {
  /** The `details` of the 400. */
  details: string;
  /** The body is nested too deep to be walked by recursive code (the journal's copy, JSON.stringify). */
  tooDeep: boolean;
}

const problem = (details: string, tooDeep = false): LimitProblem => ({ details, tooDeep });

/**
 * The walk of a body against the limits, iterative, a number of nodes at a time: the first way the body breaks
 * them, or undefined when it keeps to them. Too deep a nesting is reported whatever else is wrong, since the body
 * must then not be walked by anything else at all.
 */
class LimitWalk {
  readonly #limits: InputLimits;
  readonly #stack: Node[];
  #first: LimitProblem | undefined;
  #over = false;

  constructor(body: unknown, limits: InputLimits) {
    this.#limits = limits;
    this.#stack = [{ value: body, depth: 1, parent: undefined, key: undefined }];
  }

  get problem(): LimitProblem | undefined {
    return this.#first;
  }

  /** Walks up to `nodes` more nodes; true once the walk is over, and `problem` says how it ended. */
  step(nodes: number): boolean {
    const limits = this.#limits;
    const stack = this.#stack;
    for (let left = nodes; left > 0; left--) {
      const node = stack.pop();
      if (node === undefined || this.#over) return true;
      const { value } = node;
      if (typeof value === "string") {
        if (value.length > limits.stringChars)
          this.#first ??= problem(
            `${subject(node)} should NOT be longer than ${limits.stringChars} characters`,
          );
        continue;
      }
      if (value === null || typeof value !== "object") continue;
      if (node.depth > limits.jsonDepth) {
        this.#first = problem(
          `Request body should NOT be nested deeper than ${limits.jsonDepth} levels`,
          true,
        );
        this.#over = true;
        return true;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--)
          stack.push({ value: value[i], depth: node.depth + 1, parent: node, key: i });
        continue;
      }
      const keys = Object.keys(value);
      if (node.key === "metadata" && keys.length > limits.metadataKeys)
        this.#first ??= problem(
          `${subject(node)} should NOT have more than ${limits.metadataKeys} properties`,
        );
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (key.length > limits.stringChars)
          this.#first ??= problem(
            `${subject(node)} should NOT have a property name longer than ${limits.stringChars} characters`,
          );
        stack.push({
          value: (value as Record<string, unknown>)[key],
          depth: node.depth + 1,
          parent: node,
          key,
        });
      }
    }
    return stack.length === 0;
  }
}

/**
 * The limits of the app serving the request (baseApp puts them in app.locals). An app without them is a bug, not
 * a reason to read bodies unchecked: too deep a body would overflow the stack of whatever walks it next.
 */
function inputLimitsOf(req: Request): InputLimits {
  const limits = (req.app?.locals as { inputLimits?: InputLimits } | undefined)?.inputLimits;
  if (limits === undefined)
    throw new Error("The app has no input limits: build it with baseApp or createApp");
  return limits;
}

/**
 * Refuses a parsed body that breaks the limits with 400 invalid_payload (thrown). A body nested too deep is dropped
 * from the request, so that the journal keeps its raw text instead of walking it.
 */
export function enforceInputLimits(req: Request): void {
  if (req.body === undefined) return;
  const walk = new LimitWalk(req.body, inputLimitsOf(req));
  walk.step(Number.POSITIVE_INFINITY);
  refuseFound(req, walk.problem);
}

/** Nodes walked between two turns of the event loop: a few milliseconds. */
const WALK_STEP = 16_384;

/**
 * The same a slice at a time (runInSlices): a state document of a million cards is tens of millions of nodes, a
 * second of walking that no request should wait behind.
 */
export async function enforceInputLimitsInSlices(req: Request, sliceMs?: number): Promise<void> {
  if (req.body === undefined) return;
  const walk = new LimitWalk(req.body, inputLimitsOf(req));
  await runInSlices(
    (function* () {
      while (!walk.step(WALK_STEP)) yield;
    })(),
    { sliceMs },
  );
  refuseFound(req, walk.problem);
}

function refuseFound(req: Request, found: LimitProblem | undefined): void {
  if (found === undefined) return;
  if (found.tooDeep) req.body = undefined;
  throw invalidPayload(found.details);
}

/** enforceInputLimits as a handler, after a body parser. */
export const checkInputLimits: RequestHandler = (req, _res, next) => {
  enforceInputLimits(req);
  next();
};
