import { conflict } from "../errors.js";
import type { Project } from "./project.js";
import type { ProjectDocument } from "./project-document.js";

/**
 * The two indexes that find a project from a credential: app id to project and access token to project, the
 * only state shared between projects. No two projects may share an app id or a token, or a credential would
 * find the wrong one.
 */
export class CredentialIndex {
  readonly #byAppId = new Map<string, Project>();
  readonly #byToken = new Map<string, Project>();

  projectForAppId(appId: string): Project | undefined {
    return this.#byAppId.get(appId);
  }

  projectForToken(accessToken: string): Project | undefined {
    return this.#byToken.get(accessToken);
  }

  indexAppId(appId: string, project: Project): void {
    const owner = this.#byAppId.get(appId);
    if (owner && owner !== project) throw conflict(`App id ${appId} is used by another project`);
    this.#byAppId.set(appId, project);
  }

  unindexAppId(appId: string): void {
    this.#byAppId.delete(appId);
  }

  indexToken(accessToken: string, project: Project): void {
    this.#byToken.set(accessToken, project);
  }

  unindexTokens(accessTokens: Iterable<string>): void {
    for (const token of accessTokens) this.#byToken.delete(token);
  }

  /** A 409 when the document names an app id or a token another project than `replacing` holds. */
  checkFree(document: ProjectDocument, replacing: Project | undefined): void {
    for (const key of document.api_keys) {
      const owner = this.#byAppId.get(key.app_id);
      if (owner && owner !== replacing) throw conflict(`App id ${key.app_id} is used by another project`);
    }
    for (const token of document.tokens) {
      const owner = this.#byToken.get(token.access_token);
      if (owner && owner !== replacing)
        throw conflict("An access token of the document belongs to another project");
    }
  }

  /** Indexes every credential of a project being installed. */
  add(project: Project): void {
    for (const key of project.apiKeys.values()) this.#byAppId.set(key.app_id, project);
    for (const token of project.tokens.list()) this.#byToken.set(token.accessToken, project);
  }

  /** Drops the entries that point at a project being taken out (and only those). */
  remove(project: Project): void {
    for (const key of project.apiKeys.values())
      if (this.#byAppId.get(key.app_id) === project) this.#byAppId.delete(key.app_id);
    for (const token of project.tokens.list())
      if (this.#byToken.get(token.accessToken) === project) this.#byToken.delete(token.accessToken);
  }
}

/**
 * Every project's fixtures together must not claim one app id or token twice (they can, once keys have moved
 * between projects): a 409 naming both projects, before any is reset.
 */
export function checkFixturesClaimEachOnce(fixtures: ReadonlyMap<string, ProjectDocument>): void {
  const appIds = new Map<string, string>();
  const tokens = new Map<string, string>();
  for (const [id, document] of fixtures) {
    for (const key of document.api_keys) claim(appIds, key.app_id, id, `App id ${key.app_id}`);
    for (const token of document.tokens) claim(tokens, token.access_token, id, "An access token");
  }
}

function claim(owners: Map<string, string>, credential: string, projectId: string, what: string): void {
  const owner = owners.get(credential);
  if (owner !== undefined && owner !== projectId)
    throw conflict(`${what} is claimed by the fixtures of projects ${owner} and ${projectId}`);
  owners.set(credential, projectId);
}
