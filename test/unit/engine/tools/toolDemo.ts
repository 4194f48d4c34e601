import { writeDemoRun } from '../../../../src/demo/writeDemoRun';
import { runAudit } from '../../../../src/engine/audit/auditJob';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { openToolIndex, type ToolIndex } from '../../../../src/engine/tools/toolIndex';
import { tempFolder } from '../../../builders/episodeBuilder';

/** The demo's run folder as `npm start` prepares it: written, indexed (with search), audited (LOO credit stored). */
export async function auditedDemo(root = tempFolder()): Promise<string> {
  writeDemoRun(root);
  await runIndexJob({ root, search: true });
  await runAudit({ root });
  return root;
}

let shared: Promise<string> | undefined;

/** One audited demo folder for every test of a file (writing and auditing it takes seconds). */
export function sharedDemo(): Promise<string> {
  shared ??= auditedDemo();
  return shared;
}

/** The tools' read-only view of the shared demo. */
export async function demoToolIndex(): Promise<ToolIndex> {
  const opened = openToolIndex(await sharedDemo());
  if (!opened.ok) throw new Error(opened.error);
  return opened.value;
}
