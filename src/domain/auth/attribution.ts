import type { Project } from "../projects/project.js";
import type { ProjectRegistry } from "../projects/registry.js";
import type { Credentials, PresentedToken } from "./authenticate.js";
import { keySecretMatches } from "./secrets.js";
import { tokenState } from "./token-store.js";

/**
 * Which project a request is about, decided before any operation runs, so the journal, fault rules and rate
 * limits can apply to every route alike. The X-App-Id names the project even when its secret is wrong (a test
 * wants to see the requests its application got wrong); failing that, an access token the server issued does.
 * `verified` says whether the credential is also valid: only such requests count against the project's API
 * call budget, so an answer never tells a stranger that an app id exists.
 */
export interface Attribution {
  project: Project;
  verified: boolean;
}

function tokenOf(presented: PresentedToken | undefined): string | undefined {
  return presented !== undefined && "value" in presented ? presented.value : undefined;
}

/**
 * A request's attribution, decided once and kept on its credentials (read once per request,
 * http/operations/credentials.ts): the request's id (with a seed), the journal, the fault rules and the rate limit
 * all ask, and get the same answer. Authentication is another question (whether the row's policy lets the call
 * in, judged against the world when the handler runs), asked by requireAuth.
 */
export function attribute(registry: ProjectRegistry, credentials: Credentials): Attribution | undefined {
  if (credentials.attribution === undefined)
    credentials.attribution = attributionOf(registry, credentials) ?? null;
  return credentials.attribution ?? undefined;
}

function attributionOf(registry: ProjectRegistry, credentials: Credentials): Attribution | undefined {
  const { appId } = credentials;
  const byKey = appId === undefined ? undefined : registry.projectForAppId(appId);
  if (byKey && appId !== undefined) {
    const key = byKey.apiKeys.find(appId);
    const verified = key !== undefined && key.status === "ACTIVE" && keySecretMatches(key, credentials);
    return { project: byKey, verified };
  }
  const accessToken = tokenOf(credentials.bearer) ?? tokenOf(credentials.serviceOAuth);
  const byToken = accessToken === undefined ? undefined : registry.projectForToken(accessToken);
  if (!byToken || accessToken === undefined) return undefined;
  const token = byToken.tokens.find(accessToken);
  return {
    project: byToken,
    verified: token !== undefined && tokenState(token, byToken.clock.now()) === "valid",
  };
}
