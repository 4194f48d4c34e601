// The Chromium both browser suites start: the webview harness (test/browser) and the code-server
// e2e suite (test/e2e).

/** Debian's Chromium, unless E2E_CHROMIUM names another. */
export const chromiumPath = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

// The flags the machine's closed network needs: without the background-networking ones Chromium keeps
// retrying refused connections at every start.
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
