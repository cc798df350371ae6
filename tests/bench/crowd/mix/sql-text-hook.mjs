/**
 * A Node module hook that imports `.sql` files as their text (what the build's esbuild loader and the
 * bench's vitest plugin do), so that mix-check.ts can start the services' migrations under plain tsx.
 * Registered at run time by mix-check.ts (node:module register) before it imports the stack.
 */
import { readFile } from 'node:fs/promises';

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.sql')) return nextLoad(url, context);
  const text = await readFile(new URL(url), 'utf8');
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
