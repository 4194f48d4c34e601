/** Where a client sends its requests, and how it names the server in messages. */
export interface ChatEndpoint {
  /** `<base>/chat/completions`, the base URL's query kept (e.g. Azure's `api-version`). */
  readonly url: string;
  /** The base URL without query or fragment, for messages (a query may carry a key). */
  readonly display: string;
}

/**
 * Reads a base URL such as `http://127.0.0.1:8000/v1` (a trailing slash is fine). Throws a clear
 * error for anything but http(s), and for a user name or password in the URL: the key belongs in
 * the API key option, where it is kept out of messages.
 */
export function chatEndpoint(baseUrl: string): ChatEndpoint {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new Error('the model server URL is not a valid URL (expected e.g. http://127.0.0.1:8000/v1)');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`the model server URL must start with http:// or https://, not ${parsed.protocol}//`);
  }
  if (parsed.username || parsed.password) {
    throw new Error(
      'the model server URL must not contain a user name or password; give the key as the API key instead',
    );
  }
  const base = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  return { url: `${base}/chat/completions${parsed.search}`, display: base };
}

/** The request headers: JSON in, JSON or an event stream out, the key as a bearer token, then `extra`. */
export function chatHeaders(
  apiKey: string | undefined,
  stream: boolean,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...extra,
  };
}
