import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_COOKIE, REFRESH_COOKIE_HOST } from '@portal/contracts';
import type { Env } from '@portal/core';

/** Over plain HTTP (development) the browser sends the refresh cookie only to the auth calls. */
const REFRESH_COOKIE_PATH = '/api/users/auth';

type CookieEnv = Pick<Env, 'COOKIE_SECURE'>;

/**
 * Name and scope of the refresh cookie. Over HTTPS (COOKIE_SECURE) it is
 * `__Host-portal_rt`: Secure, Path=/ and no Domain, as the prefix demands
 * (the browser then sends it with every request to the host; the gateway
 * forwards it only to the auth calls and strips it elsewhere). Over HTTP it
 * keeps the old name, scoped to the auth calls' path.
 */
function refreshCookieSpec(env: CookieEnv) {
  return env.COOKIE_SECURE
    ? { name: REFRESH_COOKIE_HOST, path: '/', secure: true }
    : { name: REFRESH_COOKIE, path: REFRESH_COOKIE_PATH, secure: false };
}

const attributes = (env: CookieEnv) => {
  const { path, secure } = refreshCookieSpec(env);
  return { httpOnly: true, sameSite: 'strict' as const, secure, path };
};

/** The old-name cookie (Path=/api/users/auth) a browser may still hold after the switch to `__Host-`. */
function clearLegacy(reply: FastifyReply) {
  if (reply.request?.cookies?.[REFRESH_COOKIE] === undefined) return;
  reply.clearCookie(REFRESH_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    secure: true,
    path: REFRESH_COOKIE_PATH,
  });
}

export function setRefreshCookie(
  reply: FastifyReply,
  env: Pick<Env, 'COOKIE_SECURE' | 'REFRESH_TOKEN_TTL_SECONDS'>,
  token: string,
) {
  reply.setCookie(refreshCookieSpec(env).name, token, {
    ...attributes(env),
    maxAge: env.REFRESH_TOKEN_TTL_SECONDS,
  });
  if (env.COOKIE_SECURE) clearLegacy(reply);
}

export function clearRefreshCookie(reply: FastifyReply, env: CookieEnv) {
  reply.clearCookie(refreshCookieSpec(env).name, attributes(env));
  if (env.COOKIE_SECURE) clearLegacy(reply);
}

/** The refresh token: the `__Host-` cookie first, the old name during the transition. */
export function readRefreshCookie(request: FastifyRequest): string | undefined {
  for (const name of [REFRESH_COOKIE_HOST, REFRESH_COOKIE]) {
    const value = request.cookies[name];
    if (value && value.length <= 256) return value;
  }
  return undefined;
}
