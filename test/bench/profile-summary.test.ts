import { describe, expect, it } from "vitest";
import { type CpuProfile, summarise } from "../../bench/profile-summary.js";

/** bench:profile's summary: samples go to the nearest function of ours, startup and the control API left out. */

const frame = (functionName: string, url = "") => ({ functionName, url, lineNumber: 0 });
const DIST = "file:///repo/dist";

const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)"), children: [2, 3, 4, 6, 8, 9] },
    { id: 2, callFrame: frame("json", `${DIST}/http/json-response.js`), children: [5] },
    { id: 3, callFrame: frame("(garbage collector)") },
    { id: 4, callFrame: frame("assignCard", `${DIST}/domain/members/assign-card.js`) },
    { id: 5, callFrame: frame("writev") },
    { id: 6, callFrame: frame("reset", `${DIST}/http/control/projects.js`), children: [7] },
    { id: 7, callFrame: frame("assignCard", `${DIST}/domain/members/assign-card.js`) },
    { id: 8, callFrame: frame("(idle)") },
    { id: 9, callFrame: frame("parserOnIncoming", "node:_http_server") },
  ],
  samples: [5, 5, 3, 4, 7, 7, 8, 9],
};

describe("bench:profile's summary", () => {
  it("gives each busy sample of the request path to the nearest function of ours, by category", () => {
    const summary = summarise(profile);
    expect(summary.samples).toBe(5);
    expect(summary.categories["answer (res.json, send, socket write)"]).toBe(40);
    expect(summary.categories["garbage collection"]).toBe(20);
    expect(summary.categories["the operation (domain, ids, clock)"]).toBe(20);
    expect(summary.categories["HTTP plumbing (Node's parser, router, CORS, fair turns)"]).toBe(20);
    expect(summary.top[0]).toEqual({ name: "json http/json-response.js:1", percent: 40 });
  });
});
