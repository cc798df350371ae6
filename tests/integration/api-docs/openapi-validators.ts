import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';

/**
 * The two independent OpenAPI checkers the served documents must pass. Redocly's Node API
 * (@redocly/openapi-core) is bundled inside @redocly/cli 2 and not importable, so its CLI runs
 * in a child process on a temporary copy of the document.
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const REDOCLY_CLI = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

export interface Problem {
  rule: string;
  severity: string;
  message: string;
  pointer: string;
}

/** `redocly lint --extends recommended`: every error and warning, located by JSON pointer. */
export async function redoclyProblems(name: string, doc: unknown): Promise<Problem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  const file = join(dir, `${name}.json`);
  try {
    await writeFile(file, JSON.stringify(doc));
    const out = await run(
      process.execPath,
      [REDOCLY_CLI, 'lint', '--extends', 'recommended', '--format', 'json', file],
      {
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(out.stdout) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    return report.problems.map((p) => ({
      rule: p.ruleId,
      severity: p.severity,
      message: p.message,
      pointer: p.location[0]?.pointer ?? '',
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** swagger-parser's validate (structure against the OpenAPI 3.0 schema, then its own checks): the first error, or null. */
export async function swaggerParserError(doc: unknown): Promise<string | null> {
  try {
    await SwaggerParser.validate(structuredClone(doc) as never);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
