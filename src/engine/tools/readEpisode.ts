import { err, ok, type Result } from '../../core/result';
import type { ViewMethod } from '../views/viewTypes';
import { methodInput, optionalNumber, optionalString, runInput } from './commonInputs';
import { episodeResult, maxMessageCharsCap } from './episodeResult';
import { pathInFolder } from './pathScope';
import { findRun, type ToolIndex } from './toolIndex';
import type { CreditLensTool, ToolValue } from './toolTypes';

/** Messages per page of read_episode by default, and at most. */
const defaultMessages = 10;
const maxMessages = 50;

/** `read_episode`: one episode with its agents' and messages' credit, messages paged and cut. */
export const readEpisodeTool: CreditLensTool = {
  name: 'read_episode',
  title: 'Read an episode with its credit',
  description:
    'Reads one episode — by episodeId (find_episodes), by externalId (with run when several runs share it), or by ' +
    'a trace file and line (explain_flag) — with each agent’s credit under a method and each message’s text ' +
    '(cut at maxChars) and credit, every number with its source and status. Messages come in pages: ask again ' +
    'with messageOffset = nextOffset for more.',
  inputSchema: {
    type: 'object',
    properties: {
      episodeId: {
        type: 'integer',
        description: 'The episode, as find_episodes gives it.',
        minimum: 0,
        maximum: 2 ** 53 - 1,
      },
      externalId: { type: 'string', description: 'The id the trace gives the episode.', maxLength: 1024 },
      run: runInput,
      file: {
        type: 'string',
        description: 'A trace file inside the run folder (relative path), with line.',
        maxLength: 4096,
      },
      line: { type: 'integer', description: '1-based line of the episode in file.', minimum: 1, maximum: 2 ** 31 - 1 },
      method: methodInput,
      messageOffset: {
        type: 'integer',
        description: 'First message (0-based).',
        minimum: 0,
        maximum: 2 ** 31 - 1,
        default: 0,
      },
      messageLimit: {
        type: 'integer',
        description: `Messages per page (default ${defaultMessages}, at most ${maxMessages}).`,
        minimum: 1,
        maximum: maxMessages,
        default: defaultMessages,
      },
      maxChars: {
        type: 'integer',
        description: `Characters of each message's text (default 400, at most ${maxMessageCharsCap}).`,
        minimum: 20,
        maximum: maxMessageCharsCap,
        default: 400,
      },
    },
    additionalProperties: false,
  },
  mutating: false,
  run: readEpisode,
};

type Input = Readonly<Record<string, unknown>>;

async function readEpisode(index: ToolIndex, input: Input): Promise<Result<ToolValue>> {
  const episodeId = resolveEpisode(index, input);
  if (!episodeId.ok) return episodeId;
  const method = (optionalString(input, 'method') ?? 'loo') as ViewMethod;
  const view = index.episodes.episode(episodeId.value, {
    defaultMethod: method,
    evaluator: { configured: false, description: 'none (the tools read stored credit only)', reason: null },
  });
  if (!view) return err(`episode ${episodeId.value} is not in the index (find_episodes lists episode ids)`);
  // The index names the trace line; it is read back only when it lies inside the folder.
  const inside = pathInFolder(index.root, view.location.uri);
  if (!inside.ok) return err(`episode ${episodeId.value}'s trace ${inside.error}`);
  const offset = Number(input['messageOffset'] ?? 0);
  const limit = Number(input['messageLimit'] ?? defaultMessages);
  let messages: Awaited<ReturnType<ToolIndex['episodes']['messages']>> | undefined;
  let readError: string | null = null;
  try {
    messages = offset < view.messageCount ? await index.episodes.messages(episodeId.value, offset, limit) : undefined;
  } catch (error) {
    readError = (error as Error).message;
  }
  const credit = index.episodes.credit(episodeId.value, method, false);
  return ok(episodeResult({ view, credit, messages, readError, offset, maxChars: Number(input['maxChars'] ?? 400) }));
}

/** The episode's row id from whichever of episodeId, externalId (+ run) or file + line was given. */
function resolveEpisode(index: ToolIndex, input: Input): Result<number> {
  const id = optionalNumber(input, 'episodeId');
  if (id !== undefined) return ok(id);
  const file = optionalString(input, 'file');
  if (file !== undefined) {
    const line = optionalNumber(input, 'line');
    if (line === undefined) return err('"line" is required with "file"');
    const path = pathInFolder(index.root, file);
    if (!path.ok) return path;
    const found = index.lookup.atLine(path.value, line);
    return found ? ok(found.episodeId) : err(`no episode was indexed from ${path.value}:${line}`);
  }
  const externalId = optionalString(input, 'externalId');
  if (externalId === undefined) return err('give "episodeId", "externalId" or "file" with "line"');
  const run = optionalString(input, 'run');
  if (run !== undefined) {
    const named = findRun(index, run);
    if (!named.ok) return named;
  }
  const found = index.lookup.byExternalId(externalId).filter((e) => run === undefined || e.run === run);
  const [first, second] = found;
  if (!first) return err(`no episode "${externalId}"${run === undefined ? '' : ` in run "${run}"`}`);
  if (second)
    return err(`episode "${externalId}" is in several runs (${found.map((e) => `"${e.run}"`).join(', ')}): give "run"`);
  return ok(first.episodeId);
}
