/**
 * Where a server's CPU time went, from a V8 CPU profile (.cpuprofile) taken under one operation's load
 * (bench/profile.ts): each sample that was busy on the request path is given to the nearest function of ours on
 * its stack (so a library's or Node's work counts to the code of ours that called it) and then to a category of
 * the request path. Samples under startup (fixture loading, the entry point) and under the control API (the resets
 * between rounds) are left out; so are idle samples and V8's `(program)`.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

/** The categories, first match wins, by the file (under dist/) of the nearest function of ours. */
export const CATEGORIES: readonly (readonly [string, RegExp])[] = [
  ["answer (res.json, send, socket write)", /^http\/json-response/],
  ["request log", /^http\/entrance\/request-log|^platform\/log-destination/],
  [
    "credentials and authentication",
    /secure-compare|^domain\/auth|^http\/operations\/(authenticate|credentials)/,
  ],
  ["journal, faults, rate limit", /^http\/traffic|^emulation|^http\/fast\/lazy-journal/],
  ["body and validation", /^http\/input\/|json-reader|^http\/fast\/index/],
  ["webhook notifications", /^domain\/webhooks/],
  ["the operation (domain, ids, clock)", /^domain\/|^http\/operations|^platform\/ids|^platform\/clock/],
  ["garbage collection", /^\(garbage collector\)$/],
  ["HTTP plumbing (Node's parser, router, CORS, fair turns)", /./],
];

const LEFT_OUT =
  /\/dist\/http\/control\/|\/dist\/platform\/fixtures\.js|\/dist\/main\.js|\/dist\/server\.js|\/dist\/cli\/|internal\/modules\//;

export interface ProfileSummary {
  samples: number;
  /** Share of the request path's samples per category, in per cent. */
  categories: Record<string, number>;
  /** The functions of ours with the most samples (their callees outside our code included), in per cent. */
  top: { name: string; percent: number }[];
}

export function summarise(profile: CpuProfile, topCount = 12): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const leftOut = new Map<number, boolean>();
  const isLeftOut = (id: number): boolean => {
    const known = leftOut.get(id);
    if (known !== undefined) return known;
    const parent = parents.get(id);
    const answer =
      LEFT_OUT.test(nodes.get(id)?.callFrame.url ?? "") || (parent !== undefined && isLeftOut(parent));
    leftOut.set(id, answer);
    return answer;
  };
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    const name = nodes.get(id)?.callFrame.functionName;
    if (name === "(idle)" || name === "(program)" || isLeftOut(id)) continue;
    total++;
    let file = name === "(garbage collector)" ? name : "";
    let own = name === "(garbage collector)" ? name : "(Node and libraries only)";
    for (let at: number | undefined = id; at !== undefined && file === ""; at = parents.get(at)) {
      const frame = nodes.get(at)?.callFrame;
      if (!frame?.url.includes("/dist/")) continue;
      file = frame.url.replace(/.*\/dist\//, "");
      own = `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
    }
    const category = (CATEGORIES.find(([, files]) => files.test(file)) ??
      CATEGORIES[CATEGORIES.length - 1])?.[0];
    byCategory.set(String(category), (byCategory.get(String(category)) ?? 0) + 1);
    byFunction.set(own, (byFunction.get(own) ?? 0) + 1);
  }
  const share = (count: number) => Math.round((1000 * count) / Math.max(1, total)) / 10;
  return {
    samples: total,
    categories: Object.fromEntries(CATEGORIES.map(([name]) => [name, share(byCategory.get(name) ?? 0)])),
    top: [...byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topCount)
      .map(([name, count]) => ({ name, percent: share(count) })),
  };
}
