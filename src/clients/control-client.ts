import { type ControlClientOptions, type Send, sender } from "./control-call.js";
import type { CreatedProject, Health, NewProject, Operation, ProjectView } from "./control-types.js";
import { ProjectControl } from "./project-control.js";

export { type ControlClientOptions, ControlError } from "./control-call.js";
export type * from "./control-types.js";
export { ProjectControl };

/**
 * A typed client of a loyalty-mock server's control API (docs/reference/control-api.md), for a server started any
 * way: `startServer`, the bin, the image, Testcontainers, the GitHub Action. The server's own calls are here; each
 * project's are on `project(id)`. Each method is one call; a refusal is thrown as a ControlError.
 *
 *     const control = new ControlClient(url, { adminToken });
 *     const created = await control.createProject({ template: "demo" });
 *     await control.project(created.project_id).moveClock({ advance_seconds: 901 });
 */
export class ControlClient {
  /** The server's base URL, as given. */
  readonly url: string;
  readonly #send: Send;

  constructor(url: string, options: ControlClientOptions = {}) {
    this.url = url;
    this.#send = sender(url, options);
  }

  health() {
    return this.#send<Health>("GET", "/health");
  }

  /** The operations the server emulates, by the names the journal and fault rules use. */
  async operations() {
    return (await this.#send<{ operations: Operation[] }>("GET", "/operations")).operations;
  }

  async projects() {
    return (await this.#send<{ projects: ProjectView[] }>("GET", "/projects")).projects;
  }

  /** A project of its own for a test or a job: `{ template: "demo" }` copies the demo project's fixtures. */
  createProject(request: NewProject) {
    return this.#send<CreatedProject>("POST", "/projects", { body: request });
  }

  /** One project's calls (no call is made until one of them is). */
  project(id: string): ProjectControl {
    return new ProjectControl(this.#send, id);
  }

  /** Every project back to its fixtures, all or nothing. */
  async resetAll() {
    return (await this.#send<{ projects: ProjectView[] }>("POST", "/reset")).projects;
  }
}
