import { describe, expect, it, vi } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { parseProjectDocument } from "../../src/domain/projects/state-import.js";
import { control } from "../helpers/control.js";
import { refusal } from "../helpers/refusal.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { buildWorld } from "../helpers/world.js";

/**
 * A collection is declared once, in a descriptor, and listed once (src/domain/projects/collections.ts); the rest
 * derives from the list. This file lists one more, a throwaway declared here and nowhere else (the module mock
 * below is the "one line in the list"), and finds it in everything that knows collections: the document's
 * reference checks, a state import and export, the control API's views and the state file's replay.
 * docs/internals/adding-a-collection.md walks through the same declaration. In the slow tier, as the module mock
 * needs a module graph of its own (the fast tier's files share theirs).
 */
vi.mock("../../src/domain/projects/collections.js", async (importOriginal) => {
  const listed = await importOriginal<typeof import("../../src/domain/projects/collections.js")>();
  const { z } = await import("zod");
  const { collection } = await import("../../src/domain/collection.js");
  const { RecordStore, seeded } = await import("../../src/domain/record-store.js");
  const widgets = collection({
    name: "widgets",
    schema: z.strictObject({
      id: z.string().min(1),
      name: z.string().min(1),
      customer_id: z.string().nullable().default(null),
    }),
    resourceType: "widget",
    label: "widget",
    key: "id",
    unique: ["name"],
    references: [{ field: "customer_id", to: "customers" }],
    store: (records, { resourceType }) => seeded(new RecordStore(resourceType), records),
    view: { component: "Widget", filters: ["name", "customer_id"] },
  });
  return { ...listed, COLLECTIONS: [...listed.COLLECTIONS, widgets] };
});

type Widget = { id: string; name: string; customer_id: string | null };
const WIDGET: Widget = { id: "wdg_1", name: "first", customer_id: "cust_demo_alice" };

/** The demo project's state with widgets added, as a client would PUT it. */
function demoWith(widgets: Widget[]): Record<string, unknown> {
  const { demo } = buildWorld();
  return { ...exportProject(demo), widgets };
}

describe("a collection declared in one descriptor", () => {
  it("is checked for its key, its unique fields and its references", () => {
    expect(parseProjectDocument(demoWith([WIDGET]))).toMatchObject({ widgets: [WIDGET] });
    expect(
      refusal(() => parseProjectDocument(demoWith([WIDGET, { ...WIDGET, name: "second" }]))),
    ).toMatchObject({
      status: 400,
      details: "$.widgets[1].id: duplicate id wdg_1",
    });
    expect(refusal(() => parseProjectDocument(demoWith([WIDGET, { ...WIDGET, id: "wdg_2" }])))).toMatchObject(
      {
        status: 400,
        details: "$.widgets[1].name: duplicate name first",
      },
    );
    expect(
      refusal(() => parseProjectDocument(demoWith([{ ...WIDGET, customer_id: "cust_nope" }]))),
    ).toMatchObject({
      status: 400,
      details: "$.widgets[0].customer_id: no customer with id cust_nope in this project",
    });
  });

  it("is imported and exported with the project's state, and has its read-only views", async () => {
    const { app, registry } = buildWorld();
    const second: Widget = { id: "wdg_2", name: "second", customer_id: null };
    const document = demoWith([WIDGET, second]);
    const put = await control(app, { method: "PUT", path: "/__mock/projects/demo/state", body: document });
    expect(put.status).toBe(200);
    expect(put.body.widgets).toEqual(document.widgets);
    expect((exportProject(registry.get("demo")) as unknown as { widgets: Widget[] }).widgets).toEqual(
      document.widgets,
    );

    const list = await control(app, {
      method: "GET",
      path: "/__mock/projects/demo/widgets?customer_id=cust_demo_alice",
    });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: "list", data_ref: "widgets", widgets: [WIDGET], total: 1 });
    const one = await control(app, { method: "GET", path: "/__mock/projects/demo/widgets/wdg_2" });
    expect(one.body).toEqual(second);
    const missing = await control(app, { method: "GET", path: "/__mock/projects/demo/widgets/wdg_9" });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ key: "not_found", resource_type: "widget", resource_id: "wdg_9" });
  });

  describe("in a state file", () => {
    const disk = useStateFileServers("collection");

    it("is logged, snapshotted and replayed at a restart", async () => {
      let server = await disk.start({ stateSync: "always" });
      const put = await fetch(`${server.url}/__mock/projects/demo/state`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(demoWith([WIDGET])),
      });
      expect(put.status).toBe(200);
      const widgets = (project: typeof server) =>
        (exportProject(project.registry.get("demo")) as unknown as { widgets: Widget[] }).widgets;
      // From the log, then from the snapshot the restart wrote.
      server = await disk.restart(server, { stateSync: "always" });
      expect(widgets(server)).toEqual([WIDGET]);
      await server.save();
      server = await disk.restart(server, { stateSync: "always" });
      expect(widgets(server)).toEqual([WIDGET]);
      const view = await fetch(`${server.url}/__mock/projects/demo/widgets/wdg_1`);
      expect(await view.json()).toEqual(WIDGET);
    });
  });
});
