import { describe, expect, it } from "vitest";
import { compareAnswers } from "../../src/cli/verify/compare.js";
import { STEPS } from "../../src/cli/verify/steps.js";

/**
 * `verify` on two error answers: the status first, then every field a client branches on or shows (`key` and
 * `message`), each on its own, present or absent on either side; never `details` or `request_id`, which are for
 * people and differ from call to call.
 */

const step = STEPS.find((candidate) => candidate.name === "location-unknown");
if (!step) throw new Error("the scenario has no location-unknown step");
const headers = { "content-type": "application/json" };
const NOT_FOUND = {
  code: 404,
  key: "not_found",
  message: "Resource not found",
  details: "a",
  request_id: "r1",
};
const error = (status: number, body: Record<string, unknown>) => ({ status, headers, body });

describe("verify: comparing two errors field by field", () => {
  it("an error identical but for details and request_id is no difference", () => {
    const mock = error(404, { ...NOT_FOUND, details: "b", request_id: "r2" });
    expect(compareAnswers(step, error(404, NOT_FOUND), mock)).toEqual([]);
  });

  it("the same status and key with another message is a difference in message", () => {
    const mock = error(404, { ...NOT_FOUND, message: "Not found" });
    expect(compareAnswers(step, error(404, NOT_FOUND), mock)).toEqual([
      { path: "body.message", kind: "value", target: "Resource not found", mock: "Not found" },
    ]);
  });

  it("the same status and message with another key is a difference in key", () => {
    const mock = error(404, { ...NOT_FOUND, key: "resource_not_found" });
    expect(compareAnswers(step, error(404, NOT_FOUND), mock)).toEqual([
      { path: "body.key", kind: "value", target: "not_found", mock: "resource_not_found" },
    ]);
  });

  it("key and message both differing are two differences, key first", () => {
    const mock = error(404, { ...NOT_FOUND, key: "missing", message: "Missing" });
    expect(compareAnswers(step, error(404, NOT_FOUND), mock)).toEqual([
      { path: "body.key", kind: "value", target: "not_found", mock: "missing" },
      { path: "body.message", kind: "value", target: "Resource not found", mock: "Missing" },
    ]);
  });

  it("a field one side leaves out is named with the side that has it", () => {
    const { message: _message, ...noMessage } = NOT_FOUND;
    const { key: _key, ...noKey } = NOT_FOUND;
    expect(compareAnswers(step, error(404, NOT_FOUND), error(404, noMessage))).toEqual([
      { path: "body.message", kind: "only-target", target: "Resource not found", mock: undefined },
    ]);
    expect(compareAnswers(step, error(404, noKey), error(404, NOT_FOUND))).toEqual([
      { path: "body.key", kind: "only-mock", target: undefined, mock: "not_found" },
    ]);
  });

  it("two different error statuses: the status, then key and message each", () => {
    const mock = error(400, { code: 400, key: "invalid_payload", message: "Invalid payload", details: "c" });
    expect(compareAnswers(step, error(404, NOT_FOUND), mock)).toEqual([
      { path: "status", kind: "status", target: 404, mock: 400 },
      { path: "body.key", kind: "value", target: "not_found", mock: "invalid_payload" },
      { path: "body.message", kind: "value", target: "Resource not found", mock: "Invalid payload" },
    ]);
    const sameWords = error(400, { ...NOT_FOUND, code: 400 });
    expect(compareAnswers(step, error(404, NOT_FOUND), sameWords)).toEqual([
      { path: "status", kind: "status", target: 404, mock: 400 },
    ]);
  });

  it("an error against a success is the status alone: nothing else is worth comparing", () => {
    const success = { status: 200, headers, body: { id: "loc_x", object: "location" } };
    expect(compareAnswers(step, error(404, NOT_FOUND), success)).toEqual([
      { path: "status", kind: "status", target: 404, mock: 200 },
    ]);
    expect(compareAnswers(step, success, error(404, NOT_FOUND))).toEqual([
      { path: "status", kind: "status", target: 200, mock: 404 },
    ]);
  });

  it("an error's headers are compared after its fields", () => {
    const mock = {
      status: 404,
      headers: { "content-type": "text/html" },
      body: { ...NOT_FOUND, message: "x" },
    };
    expect(compareAnswers(step, error(404, NOT_FOUND), mock)).toEqual([
      { path: "body.message", kind: "value", target: "Resource not found", mock: "x" },
      { path: "headers.content-type", kind: "header", target: "application/json", mock: "text/html" },
    ]);
  });
});
