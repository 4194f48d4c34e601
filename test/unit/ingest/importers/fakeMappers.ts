import type { Episode, Message } from '../../../../src/core/episode';
import { err, ok } from '../../../../src/core/result';
import type { DetectionSample, FormatMapper } from '../../../../src/ingest/importers/types';

// Fake importers for the pipeline tests: each stands for a real format's shape (verl lines, a
// tau-bench array, an Inspect archive, TRL Parquet rows, spans grouped by trace), small enough to
// read at a glance. They are not the real mappers (src/ingest/importers/formats/).

type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The share of sampled records for which `test` holds (0 without records). */
function share(sample: DetectionSample, test: (r: Json) => boolean): number {
  if (sample.records.length === 0) return 0;
  return sample.records.filter((r) => isJson(r) && test(r)).length / sample.records.length;
}

/** verl-like lines: `{input, output, score}`; an `output2` makes a second episode of the same record. */
export const fakeVerl: FormatMapper = {
  format: 'fake-verl',
  label: 'fake verl rollout dump',
  containers: ['jsonl'],
  detect: (s) => 0.9 * share(s, (r) => typeof r['input'] === 'string' && typeof r['output'] === 'string'),
  toEpisodes: (record, context) => {
    if (!isJson(record) || typeof record['output'] !== 'string') return err('missing "output"');
    const episode = (suffix: string, output: string): Episode => ({
      id: `${context.fileName}:${context.line}${suffix}`,
      step: typeof record['step'] === 'number' ? record['step'] : 0,
      agents: context.roster.length > 0 ? context.roster : [{ name: 'policy', kind: 'llm' }],
      messages: [
        { agent: 'user', role: 'user', content: String(record['input']) },
        { agent: context.roster[0]?.name ?? 'policy', role: 'assistant', content: output },
      ],
      ...(typeof record['score'] === 'number' ? { reward: record['score'] } : {}),
    });
    const second = record['output2'];
    return ok(
      typeof second === 'string'
        ? [episode('', record['output']), episode('#2', second)]
        : [episode('', record['output'])],
    );
  },
};

/** tau-bench-like arrays: `[{task_id, trial, reward, traj: [{role, content}]}]`. */
export const fakeTau: FormatMapper = {
  format: 'fake-tau',
  label: 'fake tau-bench trajectories',
  containers: ['json'],
  jsonRecords: 'array',
  detect: (s) => 0.9 * share(s, (r) => Array.isArray(r['traj'])),
  toEpisodes: (record) => {
    if (!isJson(record) || !Array.isArray(record['traj'])) return err('missing "traj"');
    const messages: Message[] = record['traj'].map((m: Json) => ({
      agent: String(m['role']),
      role: String(m['role']),
      content: String(m['content']),
    }));
    return ok([
      {
        id: `task-${String(record['task_id'])}-${String(record['trial'])}`,
        agents: [],
        messages,
        reward: Number(record['reward']),
      },
    ]);
  },
};

/** Inspect-like archives: `header.json` with `eval.run_id`, samples under `samples/`. */
export const fakeInspect: FormatMapper = {
  format: 'fake-inspect',
  label: 'fake Inspect log',
  containers: ['zip'],
  zipRecords: /^samples\/.*\.json$/,
  detect: (s) => (isJson(s.root) && isJson(s.root['eval']) ? 0.95 : 0),
  toEpisodes: (record, context) => {
    const runId = isJson(context.header?.['eval']) ? String(context.header['eval']['run_id']) : '?';
    if (!isJson(record) || !Array.isArray(record['messages'])) return err('missing "messages"');
    const messages: Message[] = record['messages'].map((m: Json) => ({
      agent: typeof m['source'] === 'string' ? m['source'] : 'assistant',
      content: String(m['content']),
    }));
    return ok([{ id: `${runId}:${String(record['id'])}:${String(record['epoch'])}`, agents: [], messages }]);
  },
};

/** TRL-like completion rows `{step, prompt, completion, reward}`; rows repeat across files. */
export const fakeTrl: FormatMapper = {
  format: 'fake-trl',
  label: 'fake TRL completions',
  containers: ['parquet'],
  dedupeRepeats: true,
  detect: (s) => 0.8 * share(s, (r) => typeof r['prompt'] === 'string' && typeof r['completion'] === 'string'),
  toEpisodes: (record) => {
    if (!isJson(record)) return err('not a row');
    const prompt = String(record['prompt']);
    const completion = String(record['completion']);
    return ok([
      {
        id: `${prompt}|${completion}`,
        step: Number(record['step']),
        agents: [{ name: 'policy', kind: 'llm' }],
        messages: [
          { agent: 'user', role: 'user', content: prompt },
          { agent: 'policy', role: 'assistant', content: completion },
        ],
        reward: Number(record['reward']),
      },
    ]);
  },
};

/** Span lines `{trace, agent, text}` grouped into one episode per trace (needs the whole file). */
export const fakeSpans: FormatMapper = {
  format: 'fake-spans',
  label: 'fake spans',
  containers: ['jsonl'],
  wholeFile: true,
  detect: (s) => 0.95 * share(s, (r) => typeof r['trace'] === 'string' && typeof r['span'] === 'string'),
  toEpisodes: (records) => {
    if (!Array.isArray(records)) return err('expected every record of the file');
    const traces = new Map<string, Message[]>();
    for (const r of records as Json[]) {
      const list = traces.get(String(r['trace'])) ?? [];
      list.push({ agent: String(r['agent']), content: String(r['text']) });
      traces.set(String(r['trace']), list);
    }
    return ok([...traces].map(([id, messages]) => ({ id, agents: [], messages })));
  },
};

export const fakeMappers: readonly FormatMapper[] = [fakeVerl, fakeTau, fakeInspect, fakeTrl, fakeSpans];
