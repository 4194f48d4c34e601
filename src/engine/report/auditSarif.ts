import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { AuditFlag, RunAudit } from '../../core/auditReport';
import { flagKinds } from '../../core/auditReport';
import { flagMessage } from './flagEvidence';
import { flagDescriptions } from './formatAudit';

/**
 * The audit as SARIF 2.1.0, one result per flag located at the trace file and line of the first
 * episode it concerns (relative to the run folder, `%SRCROOT%`), so CI systems and the VS Code
 * Problems panel can show it. Evidence travels in each result's `properties`.
 */
export function auditSarif(root: string, reports: readonly RunAudit[], version: string): unknown {
  const rules = flagKinds.map((kind) => ({
    id: kind,
    name: kind,
    shortDescription: { text: `Agent ${flagDescriptions[kind] ?? kind}` },
    defaultConfiguration: { level: kind === 'silent' ? 'note' : 'warning' },
  }));
  return {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: { driver: { name: 'Credit Lens', version, rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(resolve(root)).href}/` } },
        results: reports.flatMap((report) => report.flags.map((flag) => result(report.run, flag))),
      },
    ],
  };
}

function physical(at: { readonly uri: string; readonly line: number }) {
  return {
    physicalLocation: {
      artifactLocation: { uri: at.uri, uriBaseId: '%SRCROOT%' },
      region: { startLine: Math.max(1, at.line) },
    },
  };
}

function result(run: string, flag: AuditFlag) {
  return {
    ruleId: flag.kind,
    level: flag.kind === 'silent' ? 'note' : 'warning',
    message: { text: `${run}: ${flagMessage(flag)}` },
    ...(flag.location ? { locations: [physical(flag.location)] } : {}),
    ...(flag.locations && flag.locations.length > 1
      ? {
          relatedLocations: flag.locations
            .slice(1)
            .map((l, id) => ({ id: id + 1, ...physical(l), message: { text: `episode ${l.episode}` } })),
        }
      : {}),
    properties: {
      run,
      agent: flag.agent ?? null,
      scope: flag.scope,
      steps: flag.steps ?? null,
      evidence: flag.evidence,
    },
  };
}
