/**
 * One message between the extension host and a webview. Plain JSON: no classes, no `undefined`
 * inside `params` that matters, no functions.
 */
export interface IpcMessage<P = unknown> {
  /** `<surface>/<noun>/<verb>`, e.g. `runSummary/summary/didChange`. */
  readonly method: string;
  readonly params: P;
  /** Set on requests and their responses to pair them. */
  readonly id?: number;
}

/** Checks that params received from the other side have the expected shape. */
export type ParamsGuard<P> = (value: unknown) => value is P;

/** The reply to an {@link IpcRequest}: a value, or an error message for the user. */
export type IpcResponse<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: string };

/**
 * Whether `value` has the envelope of an {@link IpcMessage} (a string `method`, an optional integer
 * `id`). Says nothing about `params`; the descriptors' `is` checks those. Extra fields are ignored.
 */
export function isIpcMessage(value: unknown): value is IpcMessage {
  if (!isRecord(value)) return false;
  return typeof value['method'] === 'string' && (value['id'] === undefined || Number.isSafeInteger(value['id']));
}

/** A message kind that knows its method name and the type of its params. */
abstract class IpcCall<P> {
  /** Runtime check of received params; `undefined` where the receiver trusts the sender. */
  protected abstract readonly isParams?: ParamsGuard<P>;

  constructor(readonly method: string) {}

  /**
   * Whether `message` is this kind. When the descriptor has a params guard (every message the host
   * receives from a webview), the params must pass it too, so a `true` answer can be trusted.
   */
  is(message: IpcMessage): message is IpcMessage<P> {
    return message.method === this.method && (this.isParams === undefined || this.isParams(message.params));
  }

  /** The message that carries `params`. */
  with(params: P, id?: number): IpcMessage<P> {
    return id === undefined ? { method: this.method, params } : { method: this.method, params, id };
  }
}

/** Host → webview, no reply. Data from the host is trusted, so no guard is required. */
export class IpcNotification<P> extends IpcCall<P> {
  constructor(
    method: string,
    protected readonly isParams?: ParamsGuard<P>,
  ) {
    super(method);
  }
}

/** Webview → host, no reply. The host does not trust webview input: a params guard is required. */
export class IpcCommand<P> extends IpcCall<P> {
  constructor(
    method: string,
    protected readonly isParams: ParamsGuard<P>,
  ) {
    super(method);
  }
}

/** Webview → host with a reply, paired by `id`, on the `<method>/response` notification. */
export class IpcRequest<P, R> extends IpcCall<P> {
  readonly response: IpcNotification<IpcResponse<R>>;

  constructor(
    method: string,
    protected readonly isParams: ParamsGuard<P>,
  ) {
    super(method);
    this.response = new IpcNotification<IpcResponse<R>>(`${method}/response`);
  }

  /** Also requires the id the response is paired by: a request without one could never be answered. */
  override is(message: IpcMessage): message is IpcMessage<P> & { readonly id: number } {
    return message.id !== undefined && super.is(message);
  }
}

/** True for a plain object (not null, not an array). For the hand-written params guards. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Field `key` of `value` (a webview's saved state, a remembered place) when `value` is a plain
 * object and the field passes `guard`; undefined for anything else, never a throw.
 */
export function checkedField<T>(value: unknown, key: string, guard: ParamsGuard<T>): T | undefined {
  const field = isRecord(value) ? value[key] : undefined;
  return guard(field) ? field : undefined;
}

/**
 * A copy of `value` with only `keys`: a guard accepts objects with extra fields, and a place kept
 * from the other side (saved again, compared by its fields) must not carry them on.
 */
export function pickFields<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = value[key];
  return picked;
}
