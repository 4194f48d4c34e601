import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRecord } from '../../../ingest/importers/formats/common/json';
import type { ChatFault, FaultHook } from './localChatFaults';
import { sleep } from './retryPolicy';
import {
  answerFor,
  completionBody,
  completionChunks,
  errorBody,
  parseChatRequest,
  type LocalChatRequest,
} from './localChatProtocol';

/** What the local server is to say and how. */
export interface LocalChatServerOptions {
  /** The port to listen on (default 0: any free port). */
  readonly port?: number;
  /** Default 127.0.0.1: the server is for this machine only. */
  readonly host?: string;
  /** The assistant's text for a request: the deterministic agent being played. */
  readonly reply: (request: LocalChatRequest) => string | Promise<string>;
  /** A misbehaviour per request, for tests (see localChatFaults.ts). */
  readonly fault?: FaultHook;
  /** Characters of content per streamed chunk (default 4). */
  readonly chunkChars?: number;
  /** Model ids listed by `GET /v1/models`; the first is used when a request names none. */
  readonly models?: readonly string[];
  /** Received requests kept in `requests` (default 10 000; the oldest are dropped). */
  readonly maxLogged?: number;
}

/** One chat request as received: its parsed body and headers. */
export interface LoggedChatRequest {
  readonly body: JsonRecord;
  readonly headers: IncomingHttpHeaders;
}

/** A running local server. */
export interface LocalChatServer {
  /** The API root to give a client, `http://127.0.0.1:<port>/v1`. */
  readonly url: string;
  readonly port: number;
  /** The valid chat requests received, in arrival order (those answered 400 are not kept). */
  readonly requests: readonly LoggedChatRequest[];
  /** Chat requests being answered now, and the most at once so far. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Chat requests whose client closed the connection before the answer was complete. */
  readonly abandoned: number;
  /** Stops listening and closes every connection, open streams and hung requests included. */
  close(): Promise<void>;
}

const bodyLimitBytes = 16 << 20;

/**
 * Starts an OpenAI-compatible Chat Completions server on loopback (node:http only) that plays
 * `reply`: `POST /v1/chat/completions` as JSON, or server-sent events with `stream: true` (content
 * in small chunks, a usage chunk with `stream_options.include_usage`, `[DONE]`); `GET /v1/models`;
 * `GET /health`. Errors have OpenAI's body shape: 400 for a bad body, 404 for an unknown path.
 * For tests and the demo's model server.
 */
export async function startLocalChatServer(options: LocalChatServerOptions): Promise<LocalChatServer> {
  const state = new ServerState(options);
  const server = createServer((req, res) => void state.handle(req, res));
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/v1`,
    port,
    get requests() {
      return state.requests;
    },
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    get abandoned() {
      return state.abandoned;
    },
    close: () => state.close(server),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

class ServerState {
  readonly requests: LoggedChatRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  abandoned = 0;
  private received = 0;
  private readonly closing = new AbortController();

  constructor(private readonly options: LocalChatServerOptions) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (error) {
      if (res.destroyed || this.closing.signal.aborted) return;
      if (!res.headersSent) sendJson(res, 500, errorBody(`the local server failed: ${String(error)}`, 'server_error'));
      else res.destroy();
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/v1/chat/completions' && req.method === 'POST') await this.chat(req, res);
    else if (path === '/v1/chat/completions') sendJson(res, 405, errorBody('use POST', 'invalid_request_error'));
    else if (path === '/v1/models' && req.method === 'GET') sendJson(res, 200, this.modelList());
    else if (path === '/health' && req.method === 'GET') sendJson(res, 200, { status: 'ok' });
    else sendJson(res, 404, errorBody(`no route ${req.method ?? ''} ${path}`, 'invalid_request_error', 'not_found'));
  }

  async close(server: Server): Promise<void> {
    this.closing.abort();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  private async chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const request =
      text === undefined ? 'the request body is too large' : parseChatRequest(text, this.modelIds()[0] ?? 'local');
    if (typeof request === 'string') {
      sendJson(res, text === undefined ? 413 : 400, errorBody(request, 'invalid_request_error'));
      return;
    }
    this.log({ body: request.body, headers: req.headers });
    const fault = this.options.fault?.(request, this.received++);
    const untrack = this.track(res);
    try {
      await this.answer(request, res, fault, `chatcmpl-${this.received}`);
    } finally {
      untrack();
    }
  }

  private async answer(
    request: LocalChatRequest,
    res: ServerResponse,
    fault: ChatFault | undefined,
    id: string,
  ): Promise<void> {
    if (fault?.kind === 'hang') return; // the response stays open: the client times out or cancels
    if (fault?.kind === 'delay') await sleep(fault.ms, this.closing.signal, () => new Error('the server was closed'));
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter };
      send(
        res,
        fault.status,
        fault.body ?? JSON.stringify(errorBody(`injected HTTP ${fault.status}`, 'server_error')),
        headers,
      );
      return;
    }
    const answer = answerFor(request, await this.options.reply(request), id, fault?.kind !== 'no-usage');
    if (res.destroyed) return;
    if (request.stream)
      writeEvents(res, completionChunks(answer, request.includeUsage, this.options.chunkChars ?? 4), fault);
    else writeJson(res, JSON.stringify(completionBody(answer)), fault);
  }

  /** Counts the request in flight until its response closes; a close before the end is the client's. */
  private track(res: ServerResponse): () => void {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    let done = false;
    const untrack = (): void => {
      if (done) return;
      done = true;
      this.inFlight--;
    };
    res.once('close', () => {
      if (!res.writableEnded && !cutOnPurpose.has(res) && !this.closing.signal.aborted) this.abandoned++;
      untrack();
    });
    // A hung or stalled response is still in flight when its handler returns; only 'close' ends it.
    return () => (res.writableEnded || res.destroyed ? untrack() : undefined);
  }

  private log(entry: LoggedChatRequest): void {
    this.requests.push(entry);
    const max = this.options.maxLogged ?? 10_000;
    if (this.requests.length > max) this.requests.splice(0, this.requests.length - max);
  }

  private modelIds(): readonly string[] {
    return this.options.models ?? ['credit-lens-demo'];
  }

  private modelList(): JsonRecord {
    return {
      object: 'list',
      data: this.modelIds().map((id) => ({ id, object: 'model', created: 0, owned_by: 'credit-lens' })),
    };
  }
}

/** Responses this server cut itself (a fault), so their close is not counted as the client's. */
const cutOnPurpose = new WeakSet<ServerResponse>();

function writeEvents(res: ServerResponse, chunks: readonly string[], fault: ChatFault | undefined): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const cutAt = fault && 'afterChunks' in fault ? fault.afterChunks : undefined;
  const events = chunks.slice(0, cutAt).map((chunk) => `data: ${chunk}\n\n`);
  if (fault?.kind === 'malformed') events.splice(1, 0, `data: ${fault.body ?? '{"choices": [{"delta": '}\n\n`);
  res.write(events.join(''));
  finish(res, fault, 'data: [DONE]\n\n');
}

function writeJson(res: ServerResponse, body: string, fault: ChatFault | undefined): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  if (fault?.kind === 'malformed') return void res.end(fault.body ?? `${body.slice(0, body.length >> 1)}<html>`);
  const cut = fault?.kind === 'stop' || fault?.kind === 'end' || fault?.kind === 'stall';
  res.write(cut ? body.slice(0, body.length >> 1) : body);
  finish(res, fault, '');
}

/** Ends the response as the fault says: closed mid-way, ended early, left open, or completed with `tail`. */
function finish(res: ServerResponse, fault: ChatFault | undefined, tail: string): void {
  if (fault?.kind === 'stall') return;
  if (fault?.kind === 'stop') {
    cutOnPurpose.add(res);
    res.socket?.end(); // a FIN without the chunked terminator: the client sees the connection close mid-body
    return;
  }
  res.end(fault?.kind === 'end' ? '' : tail);
}

function send(res: ServerResponse, status: number, body: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, {
    'content-type': body.trimStart().startsWith('{') ? 'application/json' : 'text/plain',
    ...headers,
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: JsonRecord): void {
  send(res, status, JSON.stringify(body));
}

/** The body as text, or undefined past the size limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > bodyLimitBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
