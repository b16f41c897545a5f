import { apiKeySchema } from "../../src/domain/auth/api-key.js";
import type { ProjectDocument } from "../../src/domain/projects/project-document.js";
import type { VoucherInput } from "../../src/domain/vouchers/voucher.js";
import { defaultDocuments } from "./world.js";

export const BIG_KEYS = { "X-App-Id": "big-app-id", "X-App-Token": "big-app-token" } as const;

/**
 * The demo project again as project `big`, under a key of its own, with `cards` more open cards in its loyalty
 * program: a project whose build takes many slices (tens of milliseconds at tens of thousands of cards), for the
 * tests that send requests while one is built. The cards are copies of a demo card, made as records rather than
 * validated one by one.
 */
export function bigProject(cards: number): ProjectDocument {
  const demo = defaultDocuments().find((document) => document.project.id === "demo") as ProjectDocument;
  const card = demo.vouchers.find((voucher) => voucher.campaign_id === "camp_demo_loyalty") as VoucherInput;
  const more = Array.from({ length: cards }, (_, i): VoucherInput => {
    const n = i.toString(16).padStart(8, "0");
    return { ...card, id: `v_big${n}`, code: `BIG-${n}` };
  });
  return {
    ...demo,
    project: { ...demo.project, id: "big", name: "Big" },
    api_keys: [
      apiKeySchema.parse({
        name: "Big key",
        app_id: BIG_KEYS["X-App-Id"],
        app_token: BIG_KEYS["X-App-Token"],
      }),
    ],
    tokens: [],
    vouchers: [...demo.vouchers, ...more],
  };
}
