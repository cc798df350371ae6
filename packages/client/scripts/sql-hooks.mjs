// The services import their migrations as text (.sql), as the server bundle and vitest do.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export async function load(url, context, next) {
  if (!url.endsWith('.sql')) return next(url, context);
  const text = await readFile(fileURLToPath(url), 'utf8');
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
