/**
 * The page to land on after SAML sign-in: a path of this site only. Anything
 * a browser could read as another origin is refused: scheme-relative `//x`,
 * backslashes (`/\x` is `//x` to browsers), control characters, absolute URLs,
 * or a path that leaves the origin once resolved.
 */
const DEFAULT_RETURN_PATH = '/dashboard';

export function safeReturnPath(value: string | undefined | null): string | null {
  if (value === undefined || value === null || value === '') return DEFAULT_RETURN_PATH;
  if (value.length > 1024) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  try {
    const base = 'https://portal.invalid';
    const url = new URL(value, base);
    if (url.origin !== base) return null;
    // The API and the SAML callback itself are no landing pages.
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/saml/')) return DEFAULT_RETURN_PATH;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}
