import type { Project } from "../../../domain/projects/project.js";
import { playScenario } from "../../journeys/player.js";
import type { Scenario } from "../../journeys/scenario.js";

/** One play of a scenario the dashboard started: what it printed so far, and how it ended. */
export interface PlayRecord {
  object: "play";
  id: number;
  project_id: string;
  scenario: string;
  title: string;
  speed: number;
  status: "running" | "done" | "failed";
  steps: number;
  played: number;
  lines: string[];
  failure: string | null;
  started_at: string;
}

/** Plays kept per project: the newest few, enough for the page to show how the last ones went. */
const KEPT = 10;

/** Why a play still running ends when the server closes; its failure says so. */
const CLOSING = "the server is closing";

/**
 * The plays the control API started (the dashboard's Play button): each runs in the background, calling this very
 * server at the address the request that started it reached, through the public operations as `loyalty-mock play`
 * does, with the project's first active key. `changed` tells the live feed of each step. `stop()` (the server's
 * close) ends them where they are, a pause or a call, so that none outlives the server or holds its process.
 */
export class PlayBoard {
  readonly #plays = new Map<string, PlayRecord[]>();
  /** The project each play was started on: a reset or a restore builds the project anew. */
  readonly #startedOn = new WeakMap<PlayRecord, Project>();
  readonly #stopping = new AbortController();
  readonly #running = new Set<Promise<void>>();
  #next = 1;

  /**
   * The project's plays, newest first: those started on the project as it is now, and any still running. A reset
   * or a restore builds the project anew, so the plays that ended before it (a failure among them) are not told
   * after it: the demo starts over with its status clear, a reload included.
   */
  list(project: Project): PlayRecord[] {
    return (this.#plays.get(project.id) ?? [])
      .filter((record) => record.status === "running" || this.#startedOn.get(record) === project)
      .reverse();
  }

  start(
    project: Project,
    play: { name: string; scenario: Scenario; speed: number; url: string; adminToken: string | undefined },
    changed: () => void,
  ): PlayRecord {
    const key = project.apiKeys.list().find((one) => one.status === "ACTIVE");
    const record: PlayRecord = {
      object: "play",
      id: this.#next++,
      project_id: project.id,
      scenario: play.name,
      title: play.scenario.title,
      speed: play.speed,
      status: "running",
      steps: play.scenario.steps.length,
      played: 0,
      lines: [],
      failure: null,
      started_at: new Date().toISOString(),
    };
    this.#startedOn.set(record, project);
    const kept = [...(this.#plays.get(project.id) ?? []), record].slice(-KEPT);
    this.#plays.set(project.id, kept);
    if (!key) {
      record.status = "failed";
      record.failure = `project ${project.id} has no active API key to play with`;
      return record;
    }
    const running = playScenario(play.scenario, {
      url: play.url,
      projectId: project.id,
      keys: { appId: key.app_id, appToken: key.app_token },
      adminToken: play.adminToken,
      speed: play.speed,
      signal: this.#stopping.signal,
      print: (line, step) => {
        record.lines.push(line);
        record.played = step;
        changed();
      },
    }).then(
      (result) => {
        record.status = result.ok ? "done" : "failed";
        if (!result.ok) record.failure = result.message;
        changed();
      },
      (error: unknown) => {
        record.status = "failed";
        record.failure = (error as Error).message;
        changed();
      },
    );
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
    return record;
  }

  /** Stops every running play, and any started after; resolves once each has ended and said so. */
  async stop(): Promise<void> {
    this.#stopping.abort(CLOSING);
    await Promise.all(this.#running);
  }
}

const boards = new WeakMap<object, PlayBoard>();

/** Each registry's plays: the board lives as long as the server's registry, and no longer. */
export function playsOf(registry: object): PlayBoard {
  let board = boards.get(registry);
  if (!board) {
    board = new PlayBoard();
    boards.set(registry, board);
  }
  return board;
}

/** The server's close: stops the registry's running plays, if it has any; resolves once they have ended. */
export function stopPlays(registry: object): Promise<void> {
  return boards.get(registry)?.stop() ?? Promise.resolve();
}
