/** Host names that get the development prefix of the embed host (spec 1 §9, spec 2 §2.11). */
const DEV_MARKERS = ['-sbx', '-stg', '-dev', '-qa', '-uat', '-demo', 'localhost', 'devtools'];
/** The one merchant whose frame uses the preview deflector address. */
const PREVIEW_MERCHANT_ID = 409;

/** The prefix is a subdomain so the gateway's CSP (frame-src host and *.host) admits it. */
export function embedHost(host: string, currentHostname: string): string {
  return DEV_MARKERS.some((m) => currentHostname.includes(m)) ? `dev.${host}` : host;
}

export interface EmbedParams {
  host: string;
  currentHostname: string;
  merchantId: number;
  showAlertsBanner: boolean;
  clientId: string;
  verifyToken: string;
  theme: string | null;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  identity: string;
  sessionToken: string;
  redirectHost: string;
}

/**
 * The frame address: a deflector preview when the merchant has
 * show_alerts_banner (merchant 409: the preview deflector address), else the
 * dispute-inquiries view, with every parameter of spec 2 §2.11.
 */
export function embedUrl(p: EmbedParams): string {
  const host = embedHost(p.host, p.currentHostname);
  const path =
    p.merchantId === PREVIEW_MERCHANT_ID
      ? '/preview/deflector'
      : p.showAlertsBanner
        ? '/deflector'
        : '/dispute-inquiries';
  const qs = new URLSearchParams({
    client_id: p.clientId,
    verify_token: p.verifyToken,
    theme: p.theme || 'default',
    username: p.username,
    email: p.email,
    first_name: p.firstName,
    last_name: p.lastName,
    identity: p.identity,
    session_token: p.sessionToken,
    redirect_host: p.redirectHost,
  });
  return `https://${host}${path}?${qs.toString()}`;
}
