// The one rule every browser suite follows: without Chromium the suite is skipped with one line (in
// CI, where .ci/run installs it, a missing Chromium fails instead); a Chromium that cannot start fails
// the suite within seconds with the reason; the teardown never throws, so a failed launch cannot
// leave the process waiting.
import { after, before, describe } from 'node:test';
import { chromiumPath, hasChromium, launchHarnessBrowser, launchTimeoutMs, type HarnessBrowser } from './harness';

/** Why the browser suites are skipped here, or false when they run. */
export function browserSkipReason(
  env: NodeJS.ProcessEnv = process.env,
  installed: boolean = hasChromium(),
): string | false {
  if (installed || env['CI'] === 'true') return false;
  return `Chromium is not installed (${chromiumPath}); install it with \`apt-get install -y chromium\` or set E2E_CHROMIUM`;
}

/** A browser shared by one suite's tests, and the `describe` that launches and closes it. */
export interface BrowserSuite {
  /** Opens pages once the suite's `before` hook has launched Chromium. */
  readonly browser: HarnessBrowser;
  /** Declares the suite: skipped by `browserSkipReason`, Chromium launched before and closed after. */
  describe(name: string, body: () => void): void;
}

/** Makes a browser suite; for a suite whose tests need no module-level browser, see `describeInBrowser`. */
export function browserSuite(): BrowserSuite {
  let launched: HarnessBrowser | undefined;
  let launchError: unknown;
  const browser: HarnessBrowser = {
    open: (options) => {
      if (launched === undefined)
        throw launchError instanceof Error ? launchError : new Error('Chromium was not launched');
      return launched.open(options);
    },
    close: async () => {
      const current = launched;
      launched = undefined;
      await current?.close().catch((error: unknown) => {
        console.error(`browser teardown: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
  };
  const launch = async (): Promise<void> => {
    try {
      launched = await launchHarnessBrowser();
    } catch (error) {
      launchError = error;
      throw error;
    }
  };
  return {
    browser,
    describe: (name, body) => {
      describe(name, { skip: browserSkipReason() }, () => {
        before(launch, { timeout: launchTimeoutMs + 10_000 });
        after(() => browser.close());
        body();
      });
    },
  };
}

/** Declares a suite of browser tests sharing one Chromium and one harness server. */
export function describeInBrowser(name: string, body: (browser: HarnessBrowser) => void): void {
  const suite = browserSuite();
  suite.describe(name, () => {
    body(suite.browser);
  });
}
