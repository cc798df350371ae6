import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_COOKIE } from '@portal/contracts';
import type { Env } from '@portal/core';

/** The browser sends the refresh cookie only to the auth calls, as the gateway exposes them. */
export const REFRESH_COOKIE_PATH = '/api/users/auth';

export function setRefreshCookie(
  reply: FastifyReply,
  env: Pick<Env, 'COOKIE_SECURE' | 'REFRESH_TOKEN_TTL_SECONDS'>,
  token: string,
) {
  reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: env.COOKIE_SECURE,
    path: REFRESH_COOKIE_PATH,
    maxAge: env.REFRESH_TOKEN_TTL_SECONDS,
  });
}

export function clearRefreshCookie(reply: FastifyReply, env: Pick<Env, 'COOKIE_SECURE'>) {
  reply.clearCookie(REFRESH_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    secure: env.COOKIE_SECURE,
    path: REFRESH_COOKIE_PATH,
  });
}

export function readRefreshCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[REFRESH_COOKIE];
  return value && value.length <= 256 ? value : undefined;
}
