/** Canonical forms of the query strings seen (bounded, emptied when full): parsing and sorting once. */
const canonicalQueries = new Map<string, string>();
const CANONICAL_QUERIES_MAX = 10_000;

/** Same query in another order is the same lookup. */
export function canonicalQuery(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return '';
  const raw = url.slice(q + 1);
  let canonical = canonicalQueries.get(raw);
  if (canonical === undefined) {
    const params = new URLSearchParams(raw);
    params.sort();
    canonical = params.toString();
    if (canonicalQueries.size >= CANONICAL_QUERIES_MAX) canonicalQueries.clear();
    canonicalQueries.set(raw, canonical);
  }
  return canonical;
}
