import type { IRouter, RequestHandler } from "express";
import type { AuthContext } from "../../domain/auth/authenticate.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import type { NotificationCause } from "../../domain/webhooks/envelope.js";
import type { Notify } from "../../domain/webhooks/notification.js";
import { getInput, nameOperation, recheckedAuth, requestIdOf } from "../context.js";
import { notAcceptable } from "../errors/http-errors.js";
import { formBody, jsonBody } from "../input/body.js";
import { validate } from "../input/validate.js";
import { route } from "../route.js";
import { notEmulated, realOperationsFor } from "./real-operations.js";
import { requireAuth } from "./require-auth.js";
import { OPERATIONS, type Operation } from "./table.js";

/**
 * 406 for an Accept that rules JSON out (errors.mdx: "In most cases the only available response format is
 * application/json"), right after the route and before credentials, like a 405: it is about the request's form.
 * The common headers skip the negotiation.
 */
const acceptsJson: RequestHandler = (req, _res, next) => {
  const accept = req.headers.accept;
  if (accept === undefined || accept === "*/*" || accept === "application/json" || req.accepts("json"))
    return next();
  throw notAcceptable(accept);
};

/**
 * The row's first step: the request is named after the row (for its journal entry, before anything can refuse it),
 * then its Accept is judged. One function per row, made at mount, so naming costs no allocation per request.
 */
function entering(name: string): RequestHandler {
  return (req, res, next) => {
    nameOperation(res, name);
    acceptsJson(req, res, next);
  };
}

/**
 * Anything no route answers that is an operation of the real service: 501 not_emulated
 * (docs/reference/operations.md, "Errors"), with or without credentials, as a 404 would be. Used for other methods on the operations' paths
 * (`GET /v1/loyalties/{campaignId}/members`) and after every route (the error handler's unknownRoute).
 */
const realButNotEmulated: RequestHandler = (req, _res, next) => {
  const real = realOperationsFor(req);
  if (real.length > 0) throw notEmulated(real);
  next();
};

/**
 * What the envelope's `event` says caused a notification: the request (`group_id`) and the key behind it, by its
 * name in the project (`api_key.name`; its app id when it has none), for key pairs and the key's tokens alike.
 */
function causeOf(auth: AuthContext, requestId: string): NotificationCause {
  const appId = auth.key?.app_id ?? auth.token?.appId ?? "";
  const key = auth.key ?? auth.project.apiKeys.find(appId);
  return { requestId, apiKey: { name: key?.name ?? appId, app_id: appId } };
}

export interface OperationDeps {
  registry: ProjectRegistry;
  bodyLimit: number;
}

/**
 * The handlers of one row: authenticate (first, the service's order), read the body, parse the input, then run the
 * use case and send what it returns. Refusals are thrown as ApiErrors for the one error handler.
 */
function handlers(row: Operation, { registry, bodyLimit }: OperationDeps): RequestHandler[] {
  const body =
    row.body === "json"
      ? jsonBody(bodyLimit, row.exactIntegers ? {} : undefined)
      : row.body === "form"
        ? formBody(bodyLimit)
        : [];
  const schema = row.input;
  return [
    entering(row.name),
    requireAuth(registry, row.auth),
    ...body,
    ...(schema ? [validate(schema)] : []),
    (req, res) => {
      const input = schema ? getInput(res) : { params: req.params, body: req.body };
      const auth = recheckedAuth(res);
      const notify: Notify = (notifications) =>
        registry.dispatcher.notify(auth.project, notifications, causeOf(auth, requestIdOf(req)));
      res.json(row.run({ registry, auth, input, notify }));
    },
  ];
}

/**
 * Declares every row of the operation table, v1 and v2 alike, on the given router (the app's own). The versions
 * share one table rather than living in sub-routers mounted at /v1 and /v2: a mounted router is a second dispatch
 * per request (its own matching, URL rewriting and restoring), measured at several per cent of a request's time
 * (docs/performance.md).
 */
export function mountOperations(
  router: IRouter,
  deps: OperationDeps,
  rows: readonly Operation[] = OPERATIONS,
): void {
  const byPath = new Map<string, Operation[]>();
  for (const row of rows) byPath.set(row.path, [...(byPath.get(row.path) ?? []), row]);
  for (const [path, sharing] of byPath) {
    const methods = Object.fromEntries(sharing.map((row) => [row.method, handlers(row, deps)]));
    route(router, path, methods, realButNotEmulated);
  }
}
