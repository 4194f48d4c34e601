import {
  advantageConventionNames,
  findAdvantageConvention,
  type AdvantageConvention,
  type AdvantageConventionName,
} from '../../credit/signals/advantageConventions';
import type { RunProducer } from '../../store/runProducerRepository';

/** Where the advantage convention of a run came from. */
export type AdvantageSource = 'flag' | 'run.json' | 'producer' | 'default';

/** The advantage convention chosen for a run, and why. */
export interface AdvantageChoice {
  readonly convention: AdvantageConvention;
  readonly source: AdvantageSource;
  /** e.g. `from the producer verl`, `from the framework trl`, `from run.json`, `default`. */
  readonly description: string;
}

/**
 * Without any hint, verl's convention: verl is the trainer most multi-agent GRPO code builds on
 * (Dr. MAS, CCPO and PettingLLMs are verl forks or recipes), and its sample std (`torch.std`) is
 * also TRL's and OpenRLHF's, which differ from it only in `eps`.
 */
export const defaultAdvantageConvention: AdvantageConventionName = 'verl';

/**
 * Producer (importer format, or the manifest's free-text `framework`, lower-cased) → convention.
 * CCPO traces come from a verl recipe whose launch scripts set `norm_adv_by_std_in_grpo=False`.
 * Formats that do not say who trained (credit_lens_jsonl, otel, inspect, who-and-when, tau-bench)
 * are absent, so the framework or the default decides.
 */
const byProducer: Readonly<Record<string, AdvantageConventionName>> = {
  verl: 'verl',
  trl: 'trl',
  openrlhf: 'openrlhf',
  drmas: 'drmas',
  'dr-mas': 'drmas',
  'dr.mas': 'drmas',
  c3: 'c3',
  'c3-buckets': 'c3',
  ccpo: 'dr-grpo',
};

/**
 * Chooses the advantage convention of a run: `override` (the `--advantage` flag) first, then
 * `advantage` in its run.json (read from `run.config_json`), then the producer — the formats of its
 * trace files, then its `framework` — and else {@link defaultAdvantageConvention}. Trace files of
 * several formats that name different trainers do not decide. Unknown names in the flag or run.json
 * are errors that list the known conventions.
 */
export function chooseAdvantageConvention(runName: string, producer: RunProducer, override?: string): AdvantageChoice {
  if (override !== undefined)
    return { convention: known(override, '--advantage'), source: 'flag', description: 'from --advantage' };
  const fromManifest = manifestAdvantage(producer.configJson);
  if (fromManifest !== undefined)
    return {
      convention: known(fromManifest, `"advantage" in run.json of run "${runName}"`),
      source: 'run.json',
      description: 'from run.json',
    };
  const fromProducer = producerConvention(producer);
  if (fromProducer) return fromProducer;
  return { convention: known(defaultAdvantageConvention, 'default'), source: 'default', description: 'default' };
}

/** `verl (sample std, eps 1e-6; from the producer verl)`. */
export function describeAdvantageChoice(choice: AdvantageChoice): string {
  return `${choice.convention.name} (${choice.convention.summary}; ${choice.description})`;
}

/** `unknown advantage convention "x" in --advantage (known: verl, trl, …)`. */
export function unknownConventionMessage(name: string, where: string): string {
  return `unknown advantage convention "${name}" in ${where} (known: ${advantageConventionNames.join(', ')}; magrpo is c3)`;
}

function known(name: string, where: string): AdvantageConvention {
  const convention = findAdvantageConvention(name);
  if (!convention) throw new Error(unknownConventionMessage(name, where));
  return convention;
}

function manifestAdvantage(configJson: string | null): string | undefined {
  if (!configJson) return undefined;
  const manifest = JSON.parse(configJson) as { advantage?: unknown };
  return typeof manifest.advantage === 'string' ? manifest.advantage : undefined;
}

function producerConvention(producer: RunProducer): AdvantageChoice | undefined {
  const named = new Map<AdvantageConventionName, string>();
  for (const format of producer.formats) {
    const name = byProducer[format.toLowerCase()];
    if (name && !named.has(name)) named.set(name, format);
  }
  const [only, ...others] = named;
  if (only && others.length === 0) return producerChoice(only[0], `from the producer ${only[1]}`);
  const framework = producer.framework ? byProducer[producer.framework.trim().toLowerCase()] : undefined;
  return framework ? producerChoice(framework, `from the framework ${producer.framework ?? ''}`) : undefined;
}

function producerChoice(name: AdvantageConventionName, description: string): AdvantageChoice {
  return { convention: known(name, 'producer'), source: 'producer', description };
}
