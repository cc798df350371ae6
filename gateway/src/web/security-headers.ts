import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Security headers. Every response gets the cheap ones; the CSP with its
 * per-response nonce is built only for HTML pages (helmet would generate a
 * nonce on every API call too, which the hot path does not need).
 */
export function baseSecurityHeaders(reply: FastifyReply) {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
}

export function pageSecurityHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  nonce: string,
  alertsHost: string | null,
) {
  const tls = request.protocol === 'https';
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // No 'unsafe-inline': the style elements that emotion (Chakra), AG Grid and
    // ApexCharts inject carry the nonce, which the page hands them from
    // <meta property="csp-nonce">. style-src-elem and style-src-attr fall back to this.
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${alertsHost ? `https://${alertsHost} https://*.${alertsHost}` : "'none'"}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ];
  // On plain HTTP this would send the browser to https for every asset (blank page).
  if (tls) directives.push('upgrade-insecure-requests');
  reply.header('content-security-policy', directives.join('; '));
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (tls) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
}
