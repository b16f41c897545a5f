import type { Request, Response } from "express";
import { ApiError } from "../../domain/errors.js";
import { type Fault, statusKey } from "../../emulation/faults/fault-rules.js";
import type { HeldRequests } from "../../emulation/faults/held-requests.js";
import { requestIdOf } from "../context.js";
import { sendError } from "../errors/http-errors.js";

/** The error a fault of action `error` answers with (the control API completed its key and message). */
function faultError(fault: Fault): ApiError {
  const status = fault.status ?? 500;
  const error = fault.error ?? { key: statusKey(status), message: "Error" };
  return new ApiError(status, error.key, error.message, {
    ...(error.details !== undefined && { details: error.details }),
    headers: fault.headers,
  });
}

/**
 * Cuts the operation's answer off half-way: the status line, the headers (with the full Content-Length) and half
 * the body go out, then the connection closes, as when a proxy or the network fails mid-response.
 */
function truncateResponse(res: Response): void {
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    const bytes =
      typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.alloc(0);
    if (bytes.length > 1) res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
    // end() lets the written bytes go out before the close; destroy() could drop them.
    res.socket?.end();
    return res;
  }) as Response["end"];
}

/**
 * Plays a fault rule on one request; `proceed` lets the request go on to the operation. A latency is held in
 * `held`, which a stopping server releases at once.
 */
export function playFault(
  fault: Fault,
  req: Request,
  res: Response,
  proceed: () => void,
  held: HeldRequests,
): void {
  const act = () => {
    switch (fault.action) {
      case "error":
        sendError(res, faultError(fault), requestIdOf(req));
        return;
      case "drop":
        req.socket.destroy();
        return;
      case "truncate":
        truncateResponse(res);
        proceed();
        return;
      case "delay":
        proceed();
        return;
    }
  };
  if (fault.latency_ms > 0) held.hold(fault.latency_ms, act);
  else act();
}
