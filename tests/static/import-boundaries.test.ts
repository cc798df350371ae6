import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import direction of STYLE.md is enforced by lint (eslint.config.mjs,
 * import-x/no-restricted-paths): these lint made-up files at real places and
 * expect the rule to refuse, or allow, each import.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(
  file: string,
  code: string,
  rule = 'import-x/no-restricted-paths',
): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(process.cwd(), file) });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('import boundaries', { timeout: 60_000 }, () => {
  it('refuses an import from another feature, static or lazy', async () => {
    const errors = await boundaryErrors(
      'web/src/features/review/components/probe.tsx',
      `import { CaseList } from '../../cases/components/case-list';
export const a = CaseList;
export const b = () => import('../../builder/components/case-builder-dialog');
`,
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('Features never import each other');
  });

  it('refuses features or the app in shared code, and the app in a feature', async () => {
    expect(
      await boundaryErrors(
        'web/src/lib/probe.ts',
        `export { CaseList } from '../features/cases/components/case-list';\nexport { FeatureSlots } from '../app/feature-slots';\n`,
      ),
    ).toHaveLength(2);
    expect(
      await boundaryErrors(
        'web/src/features/cases/lib/probe.ts',
        `export { FeatureSlots } from '../../../app/feature-slots';\n`,
      ),
    ).toEqual([expect.stringContaining('Features never import the app')]);
  });

  it('refuses the gateway in a service', async () => {
    expect(
      await boundaryErrors(
        'services/case/src/probe.ts',
        `export { buildGateway } from '../../../gateway/src/app';\n`,
      ),
    ).toEqual([expect.stringContaining('Services never import the gateway')]);
  });

  it('refuses another service in a service, and any service in the gateway', async () => {
    expect(
      await boundaryErrors(
        'services/docs/src/probe.ts',
        `export { caseRoutes } from '../../case/src/routes';\n`,
      ),
    ).toEqual([expect.stringContaining('Services never import each other')]);
    expect(
      await boundaryErrors(
        'gateway/src/probe.ts',
        `export { caseRoutes } from '../../services/case/src/routes';\n`,
      ),
    ).toEqual([expect.stringContaining('The gateway never imports a service')]);
  });

  it('refuses an import cycle', async () => {
    // A cycle needs files on disk: two that import each other, written next to real code. (Type-only
    // imports are erased at build time and the rule ignores them.)
    const dir = mkdtempSync(join(process.cwd(), 'packages/jobs/src/probe-'));
    try {
      const code = `import { b } from './b';\nexport const a = () => b;\n`;
      writeFileSync(join(dir, 'a.ts'), code);
      writeFileSync(join(dir, 'b.ts'), `import { a } from './a';\nexport const b = () => a;\n`);
      const file = join(dir, 'a.ts').slice(process.cwd().length + 1);
      expect(await boundaryErrors(file, code, 'import-x/no-cycle')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('allows a feature its own modules and shared code, and the app every feature', async () => {
    expect(
      await boundaryErrors(
        'web/src/features/review/components/probe.tsx',
        `export { useReviewSlots } from '../lib/review-slots';\nexport { formatMoney } from '../../../lib/format';\n`,
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'web/src/app/probe.tsx',
        `export { CaseList } from '../features/cases/components/case-list';\n`,
      ),
    ).toEqual([]);
  });
});
