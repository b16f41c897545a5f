import { CallFailed, type CallTarget, callJson } from "./calls.js";

const isText = (value: unknown): value is string => typeof value === "string";

export interface KeyPair {
  appId: string;
  appToken: string;
}

/**
 * The project's first active key, as the control API lists it (`GET /__mock/projects/{id}/keys`): the key pair of
 * a play given none. Called as carefully as the steps are (calls.ts): the admin token goes to the server's own
 * address only, and a redirect, an answer that is not JSON or one past the cap fails, saying which.
 */
export async function projectKeyOf(
  target: CallTarget,
  projectId: string,
  adminToken: string | undefined,
): Promise<KeyPair> {
  const answer = await callJson(target, {
    method: "GET",
    path: `/__mock/projects/${encodeURIComponent(projectId)}/keys`,
    headers: adminToken === undefined ? {} : { "X-Mock-Admin-Token": adminToken },
  });
  const keys: unknown = Object.hasOwn(answer.body, "api_keys") ? answer.body.api_keys : undefined;
  if (!Array.isArray(keys))
    throw new CallFailed(`${answer.what} answered ${answer.status} without api_keys (a list)`);
  for (const key of keys as { status?: unknown; app_id?: unknown; app_token?: unknown }[]) {
    const { status, app_id: appId, app_token: appToken } = key ?? {};
    if (status === "ACTIVE" && isText(appId) && isText(appToken)) return { appId, appToken };
  }
  throw new CallFailed(`project ${projectId} has no active API key`);
}
