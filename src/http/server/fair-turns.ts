import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * Most requests a connection may have read and waiting for their turn before the server stops reading from it.
 * The cap is not exact: the chunk being parsed when it is reached is parsed to its end (some hundreds of small
 * requests at most), but no further chunk is read until the queue is half empty again.
 */
export const PIPELINE_QUEUE = 16;

interface Connection {
  socket: Socket;
  queue: [IncomingMessage, ServerResponse][];
  /** Reading stopped by us (Node may also stop it for its own reasons: see `_paused` below). */
  paused: boolean;
}

/**
 * Fair service between connections: each connection gets one request handled per turn of the event loop, so one
 * connection pipelining thousands of requests cannot starve the others. Node parses every request of a chunk it
 * reads, and reads up to 32 chunks of a socket in one go, and hands each request to the app as it parses it:
 * without this, one pipelining connection got a second of the server at a time (a normal client's p99 was 1.36 s
 * while another pipelined 100k GETs). A connection's first request of a turn runs at once, so a client that sends
 * one request at a time pays nothing; the rest wait in order for later turns, and past PIPELINE_QUEUE waiting the
 * connection is not read until its queue is half empty, so a pipelining client cannot fill the memory either.
 */
export function fairTurns(handle: RequestListener, maxQueued = PIPELINE_QUEUE): RequestListener {
  const connections = new WeakMap<Socket, Connection>();
  /** Connections that had a request handled this turn; each gets its next queued one in the next turn. */
  let served = new Set<Connection>();
  /** The other set, reused turn after turn rather than made anew. */
  let spare = new Set<Connection>();
  let scheduled = false;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(nextTurn);
  };

  function nextTurn(): void {
    scheduled = false;
    const previous = served;
    served = spare;
    spare = previous;
    for (const connection of previous) {
      const next = connection.queue.shift();
      if (!next) continue;
      served.add(connection);
      if (connection.paused && connection.queue.length <= maxQueued / 2) resume(connection);
      handle(...next);
    }
    previous.clear();
    if (served.size > 0) schedule();
  }

  return (req, res) => {
    const socket = req.socket;
    let connection = connections.get(socket);
    if (!connection) {
      connection = { socket, queue: [], paused: false };
      connections.set(socket, connection);
    }
    if (!served.has(connection)) {
      served.add(connection);
      schedule();
      handle(req, res);
      return;
    }
    connection.queue.push([req, res]);
    // Every time, not once: Node may have started reading again meanwhile (see stopReading).
    if (connection.queue.length >= maxQueued) stopReading(connection);
  };
}

/**
 * Node's own pause (a socket's `_paused`, for an answer the client is slow to take) is undone by Node itself at
 * every write of an answer, and every request handled resumes its socket; so reading is stopped and started
 * under the socket, on its handle, and `handle.reading` is left to Node: false means Node stopped reading itself
 * and will start it again, so only a handle Node wants read is started again here.
 */
type Handle = { reading?: boolean; readStop?: () => number; readStart?: () => number };

function handleOf(socket: Socket): Handle | undefined {
  return (socket as Socket & { _handle?: Handle | null })._handle ?? undefined;
}

function stopReading(connection: Connection): void {
  connection.paused = true;
  handleOf(connection.socket)?.readStop?.();
}

function resume(connection: Connection): void {
  connection.paused = false;
  const handle = handleOf(connection.socket);
  if (handle?.reading && !connection.socket.destroyed) handle.readStart?.();
}
