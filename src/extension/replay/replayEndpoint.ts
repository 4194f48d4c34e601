import { chatEndpoint } from '../../engine/evaluators/replay/chatEndpoint';

/** How views name a replay's model server. */
export interface ReplayEndpoint {
  /** The base URL without query or fragment (a query may carry a key), e.g. `http://127.0.0.1:8000/v1`. */
  readonly display: string;
  /** `host:port`, e.g. `127.0.0.1:8000`. */
  readonly host: string;
}

/** The endpoint of a replay's `url`; throws the client's clear error for a URL it would refuse. */
export function replayEndpoint(url: string): ReplayEndpoint {
  const { display } = chatEndpoint(url);
  return { display, host: new URL(display).host };
}
