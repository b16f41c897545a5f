import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * No call spreads a collection into its arguments. `Math.min(...xs)`, `push(...xs)` and their kind put every
 * element on the stack: past about 120,000 of them V8 throws `Maximum call stack size exceeded` (issue 44: the
 * overview answered 500 at 120,000 point earnings). A spread of something bounded by the code itself is fine; each
 * one in src/ is listed here with what bounds it, and a new one fails until it is listed or replaced by a loop.
 */
const BOUNDED: Record<string, string> = {
  "src/cli/flags.ts: command.flags.map((one) => leftOf(one).length)":
    "the flags of one command, a fixed table",
  "src/domain/webhooks/payloads/custom-event.ts: paymentNotifications(project, facts, payment, { holder, custom })":
    "the notifications of one payment, two",
  "src/http/entrance/track-changes.ts: args": "the arguments of one res.write or res.end call",
  "src/http/fast/prototypes.ts: args": "the arguments of one constructor call",
  "src/http/route.ts: handlers": "the handlers of one route",
  "src/http/server/fair-turns.ts: next": "one request and its response",
};

const sourceFiles = (dir: string) => filesUnder(dir, ".ts");

/** Every argument spread into a call or a `new`, as `file: expression`. */
function spreadArguments(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isSpreadElement(node) && (ts.isCallExpression(node.parent) || ts.isNewExpression(node.parent)))
      found.push(`${relative(ROOT, file)}: ${node.expression.getText(source).replace(/\s+/g, " ")}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("spreads into calls", () => {
  it("src/ spreads no collection into a call's arguments, only what the code bounds", () => {
    const spreads = sourceFiles(join(ROOT, "src")).flatMap(spreadArguments);
    expect(spreads.filter((spread) => !(spread in BOUNDED))).toEqual([]);
    // A listed one that is gone is taken off the list, so the list says what is there.
    expect(Object.keys(BOUNDED).filter((listed) => !spreads.includes(listed))).toEqual([]);
  });
});
