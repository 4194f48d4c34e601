import { startAgentServer } from '../../engine/evaluators/replay/localAgentServer';
import { exitCodes, type CliIo } from '../cliIo';

export interface ServeDemoAgentsOptions {
  /** Default 0: any free port. */
  readonly port?: number;
}

/**
 * `credit-lens serve-demo-agents [--port N]`: serves the demo's agents (a deterministic program,
 * src/demo/demoAgents.ts) as an OpenAI-compatible model server on 127.0.0.1, and prints the
 * evaluator setting that replays the demo on it, until Ctrl-C (or SIGTERM). `stop` ends it in tests.
 */
export async function serveDemoAgentsCommand(
  options: ServeDemoAgentsOptions,
  io: CliIo,
  stop: Promise<void> = signalled(),
): Promise<number> {
  const server = await startAgentServer({ ...(options.port !== undefined ? { port: options.port } : {}) });
  io.out(`The demo's agents are served at ${server.url} (an OpenAI-compatible API on this machine only).`);
  io.out(`  CLI:     credit-lens credit demo-run --method loo --no-logged --evaluator replay:url=${server.url}`);
  io.out(`  VS Code: "creditLens.evaluator.replay": { "url": "${server.url}" }`);
  io.out('Ctrl-C stops the server.');
  await stop;
  await server.close();
  io.err(`served ${server.requests.length.toLocaleString('en-US')} requests`);
  return exitCodes.ok;
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.removeListener('SIGINT', done);
      process.removeListener('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
