import type { Express } from "express";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import type { Project } from "../../src/domain/projects/project.js";
import type { ProjectDocument } from "../../src/domain/projects/project-document.js";
import { ProjectRegistry } from "../../src/domain/projects/registry.js";
import type { ProjectDefaults } from "../../src/domain/projects/settings.js";
import { createApp } from "../../src/http/app.js";
import { ManualClock } from "../../src/platform/clock.js";
import { DEFAULT_FIXTURES_DIR } from "../../src/platform/fixtures.js";

let defaults: ProjectDocument[] | undefined;

/** The embedded default dataset, read once per test file; every world gets its own deep copy through Project. */
export function defaultDocuments(): ProjectDocument[] {
  defaults ??= loadProjectDocuments(DEFAULT_FIXTURES_DIR);
  return defaults;
}

export interface World {
  clock: ManualClock;
  registry: ProjectRegistry;
  app: Express;
  demo: Project;
  other: Project;
}

/** A fresh server world over the default fixtures, with a clock that moves only when the test moves it. */
export function buildWorld(
  options: { defaults?: Partial<ProjectDefaults>; bodyLimit?: number; adminToken?: string } = {},
): World {
  const clock = new ManualClock("2026-11-20T10:00:00.000Z");
  const registry = new ProjectRegistry({
    clock,
    documents: defaultDocuments(),
    defaults: options.defaults ?? {},
  });
  const app = createApp({
    registry,
    ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
    ...(options.adminToken !== undefined && { adminToken: options.adminToken }),
  });
  return { clock, registry, app, demo: registry.get("demo"), other: registry.get("other") };
}

export const DEMO_KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" } as const;
export const OTHER_KEYS = { "X-App-Id": "other-app-id", "X-App-Token": "other-app-token" } as const;
