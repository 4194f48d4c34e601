import { err, ok, type Result } from './result';
import { supportedFormatMajor } from './runManifest';

/**
 * Checks a `major.minor` format version string. Any minor of a supported major is accepted
 * (minor versions only add optional fields); an unknown major is rejected with a message that
 * says which majors this build reads.
 */
export function checkFormatVersion(version: unknown): Result<{ major: number; minor: number }> {
  const text = typeof version === 'number' ? String(version) : version;
  if (version === undefined) return err('is required (a string like "1.0")');
  if (typeof text !== 'string')
    return err(
      `format version must be a string like "1.0", got ${version === null ? 'null' : Array.isArray(version) ? 'array' : typeof version}`,
    );
  const match = /^(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?$/.exec(text);
  if (!match) return err(`format version "${text}" is not of the form major.minor`);
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  if (major !== supportedFormatMajor) {
    return err(
      `unsupported format version ${text}: this Credit Lens reads major version ${supportedFormatMajor}; ` +
        `upgrade Credit Lens or convert the trace`,
    );
  }
  return ok({ major, minor });
}
