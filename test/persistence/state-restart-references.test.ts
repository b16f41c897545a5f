import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { logFilesOf } from "../../src/persistence/replay.js";
import { StateFileError } from "../../src/persistence/state-file.js";
import { type RunningServer, startServer } from "../../src/server.js";

/**
 * A restart trusts the snapshot's records (its checksum matched) but not how the logs fit them: a log line can
 * leave a card pointing at nothing or claiming an id or code another record has. Each such state stops the start
 * with the JSON path and the problem, as a fixture would.
 */

let dir: string;
let file: string;
const running: RunningServer[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-refs-"));
  file = join(dir, "state.json");
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

const start = () => startServer({ port: 0, stateFile: file, stateSync: "always" });

type Card = { id: string; code: string; holder_id?: string | null };

/** The demo project's cards as saved, after a first start that wrote the snapshot. */
async function savedCards(): Promise<Card[]> {
  const server = await start();
  const cards = exportProject(server.registry.get("demo")).vouchers as Card[];
  await server.close();
  return cards;
}

/** Appends one committed batch to the newest log. */
function logBatch(...lines: object[]): void {
  const log = logFilesOf(file).at(-1)?.path as string;
  appendFileSync(
    log,
    `${lines.map((line) => JSON.stringify({ p: "demo", ...line })).join("\n")}\n{"o":"commit"}\n`,
  );
}

const refused = (problem: string) => new StateFileError(file, `project demo, state: ${problem}`);

describe("a restart checks how the logs fit the snapshot", () => {
  it("refuses a card the log points at a campaign that does not exist", async () => {
    const [card] = await savedCards();
    if (!card) throw new Error("the demo project has cards");
    logBatch({ o: "put", c: "vouchers", k: card.id, r: { ...card, campaign_id: "camp_nope" } });
    await expect(start()).rejects.toThrow(
      refused("$.vouchers[0].campaign_id: no campaign with id camp_nope in this project"),
    );
  });

  it("refuses a card the log gives the code of another card", async () => {
    const cards = await savedCards();
    const [card] = cards;
    if (!card) throw new Error("the demo project has cards");
    const copy = { ...card, id: "v_dupl1cate0000000001" };
    logBatch({ o: "put", c: "vouchers", k: copy.id, r: copy });
    await expect(start()).rejects.toThrow(
      refused(`$.vouchers[${cards.length}].code: duplicate code ${card.code}`),
    );
  });

  it("refuses two cards with one id, written under different keys", async () => {
    const cards = await savedCards();
    const [card] = cards;
    if (!card) throw new Error("the demo project has cards");
    logBatch({ o: "put", c: "vouchers", k: "v_elsewhere", r: { ...card, code: "DEMO-ELSEWHERE" } });
    await expect(start()).rejects.toThrow(refused(`$.vouchers[${cards.length}].id: duplicate id ${card.id}`));
  });

  it("refuses a customer deleted by the log while a card of the snapshot still names it", async () => {
    const cards = await savedCards();
    const at = cards.findIndex((card) => card.holder_id);
    const holder = cards[at]?.holder_id as string;
    logBatch({ o: "del", c: "customers", k: holder });
    await expect(start()).rejects.toThrow(
      refused(`$.vouchers[${at}].holder_id: no customer with id ${holder} in this project`),
    );
  });

  it("starts from a log whose changes fit, with every change in place", async () => {
    const [card] = await savedCards();
    if (!card) throw new Error("the demo project has cards");
    logBatch({ o: "put", c: "vouchers", k: card.id, r: { ...card, code: "DEMO-RENAMED" } });
    const server = await start();
    running.push(server);
    expect(server.registry.get("demo").vouchers.findByCode("DEMO-RENAMED")?.id).toBe(card.id);
    expect(server.registry.get("demo").vouchers.findByCode(card.code)).toBeUndefined();
  });
});
