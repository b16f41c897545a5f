/** Building blocks of the control API's OpenAPI document. */
export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input (invalid_payload, details name the property or parameter)",
  401: `The admin token is missing or wrong (only when the server has one)`,
  404: "Unknown project, or unknown record in it (not_found)",
  409: "Conflicts with the state of the project or server (conflict, limit_exceeded)",
  413: "Body over the size limit (query_too_large)",
  415: "A body in another type than JSON (unsupported_media_type)",
};

export interface Operation {
  summary: string;
  description?: string;
  params?: string[];
  query?: Schema[];
  body?: Schema;
  /** 204: no body, and `ok` is not used. */
  status?: 200 | 201 | 202 | 204;
  ok: Schema;
  errors?: number[];
}

/**
 * One operation of the document: its path parameters, query, body and success answer, and the errors every control
 * call can give (401 with an admin token, 404 for an unknown project, 400/413/415 for a body).
 */
export function operation(tag: string, op: Operation): Schema {
  const errors = [401, ...(op.params?.length ? [404] : []), ...(op.errors ?? [])];
  if (op.body) errors.push(400, 413, 415);
  const responses: Schema = {
    [op.status ?? 200]:
      op.status === 204
        ? { description: "Success, no content" }
        : { description: "Success", content: { "application/json": { schema: op.ok } } },
  };
  for (const status of [...new Set(errors)].sort())
    responses[status] = {
      description: ERROR_TEXT[status],
      content: { "application/json": { schema: ref("Error") } },
    };
  return {
    tags: [tag],
    summary: op.summary,
    ...(op.description && { description: op.description }),
    parameters: [
      ...(op.params ?? []).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
      ...(op.query ?? []),
    ],
    ...(op.body && { requestBody: { required: true, content: { "application/json": { schema: op.body } } } }),
    responses,
  };
}

export const query = (name: string, description: string, schema: Schema = { type: "string" }): Schema => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

export const P = ["projectId"];
export const KEY = ["projectId", "appId"];
