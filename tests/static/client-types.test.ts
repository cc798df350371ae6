/**
 * Issue 35.3: the committed types of @portal/client (packages/client/src/generated) are what
 * openapi-typescript makes of the served documents today. A route changed without
 * `cd packages/client && npm run generate` fails here, naming the document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, generateTypes } from '../../packages/client/scripts/generate';

describe('generated client types', () => {
  it('equal a fresh generation from the served documents', async () => {
    const fresh = await generateTypes();
    expect(fresh.size).toBe(5);
    for (const [name, text] of fresh) {
      const committed = readFileSync(join(GENERATED_DIR, `${name}.ts`), 'utf8');
      expect(
        committed === text,
        `src/generated/${name}.ts is stale: run cd packages/client && npm run generate`,
      ).toBe(true);
    }
  }, 120_000);
});
