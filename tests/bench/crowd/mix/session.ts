import { REFRESH_COOKIE_NAMES } from '@portal/contracts';
import type { CallType, HttpRequest, Send, SimUser } from '../types';
import { expectStatus, MixError, objectOf, rawCall, type Answer, type Params, type RawCall } from './http';
import { stateOf, type MixState, type Profile, type TenantLayout } from './state';

/** What an operation works with: the user, the engine's send, the user's mix state and its call type. */
export interface OpContext {
  user: SimUser;
  send: Send;
  state: MixState;
  type: CallType;
}

export const contextOf = (user: SimUser, send: Send, type: CallType): OpContext => ({
  user,
  send,
  state: stateOf(user),
  type,
});

interface TokenAnswer {
  access_token?: string;
}

/** The refresh cookie of an answer's Set-Cookie (name=value), or undefined when none was set. */
export function refreshCookieOf(answer: Answer): string | undefined {
  const raw = answer.headers['set-cookie'];
  const cookies = Array.isArray(raw) ? raw : raw ? [raw] : [];
  for (const cookie of cookies) {
    const pair = cookie.split(';')[0]!.trim();
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    if ((REFRESH_COOKIE_NAMES as readonly string[]).includes(name) && pair.length > eq + 1) return pair;
  }
  return undefined;
}

function keepTokens(user: SimUser, answer: Answer): void {
  const token = objectOf<TokenAnswer>(answer).access_token;
  if (!token) throw new MixError(`${answer.path} answered ${answer.status} without access_token`);
  user.token = token;
  const cookie = refreshCookieOf(answer);
  if (cookie) user.refreshCookie = cookie;
}

function profileOf(answer: Answer): Profile {
  const p = objectOf<{
    id?: number;
    roles?: string[];
    is_read_only?: boolean;
    merchant?: { id?: number };
    resources?: Array<{ alias?: string }>;
  }>(answer);
  if (typeof p.id !== 'number' || !Array.isArray(p.roles) || typeof p.merchant?.id !== 'number')
    throw new MixError('whoami answered without id, roles or merchant');
  return {
    id: p.id,
    roles: p.roles,
    isReadOnly: p.is_read_only === true,
    merchantId: p.merchant.id,
    resources: new Set((p.resources ?? []).map((r) => r.alias ?? '')),
  };
}

function layoutOf(answer: Answer): TenantLayout {
  const t = objectOf<{ dashboard?: { tiles?: string[]; pie_chart?: string }; report_charts?: string[] }>(
    answer,
  );
  return {
    tiles: t.dashboard?.tiles ?? [],
    pieChart: t.dashboard?.pie_chart ?? 'card_type',
    reportCharts: t.report_charts ?? [],
  };
}

/**
 * The sign-in as a browser makes it: the page's tenant bootstrap, the
 * password sign-in (tokens and the refresh cookie), whoami and the user's
 * stack configuration. Always a new session.
 */
async function signInNow(user: SimUser, send: Send, type: CallType): Promise<void> {
  const state = stateOf(user);
  const tenant = await rawCall(send, type, 'GET', '/api/tenant');
  expectStatus(tenant, 200);
  state.tenant = layoutOf(tenant);
  const signin = await rawCall(send, type, 'POST', '/api/users/auth/signin', {
    body: { username: user.username, password: user.password },
  });
  expectStatus(signin, 200);
  keepTokens(user, signin);
  const whoami = await rawCall(send, type, 'POST', '/api/users/whoami', { token: user.token });
  expectStatus(whoami, 200);
  state.profile = profileOf(whoami);
  const stack = await rawCall(send, type, 'GET', '/api/config/cfg/stack_config_be', { token: user.token });
  expectStatus(stack, 200);
  const groups = objectOf<{ attr?: { edit_disabled_status_groups?: number[] } }>(stack).attr
    ?.edit_disabled_status_groups;
  state.editDisabledGroups = groups ?? [];
}

/** Runs `fn` after any sign-in or refresh of this user in progress: one at a time per user. */
function serialized(user: SimUser, fn: () => Promise<void>): Promise<void> {
  const state = stateOf(user);
  const run = (state.session ?? Promise.resolve()).catch(() => undefined).then(fn);
  const tracked = run.finally(() => {
    if (state.session === tracked) state.session = undefined;
  });
  state.session = tracked;
  return tracked;
}

/** The sign-in operation: a new session whatever the user holds. */
export function signIn(user: SimUser, send: Send, type: CallType = 'signin'): Promise<void> {
  return serialized(user, () => signInNow(user, send, type));
}

/** Signs in first when the user has no session yet (counted as a sign-in). */
export async function ensureSession(user: SimUser, send: Send): Promise<void> {
  const state = stateOf(user);
  // Operations of one user may run at once: they wait for the sign-in (or refresh) under way.
  while (state.session) await state.session.catch(() => undefined);
  if (user.token && state.profile) return;
  await signIn(user, send, 'signin');
}

/** POST /api/users/auth/refresh with the refresh cookie, as the web app's session refresh does. */
export function refresh(user: SimUser, send: Send): Promise<void> {
  return serialized(user, async () => {
    if (!user.refreshCookie) return signInNow(user, send, 'signin');
    const answer = await rawCall(send, 'refresh', 'POST', '/api/users/auth/refresh', {
      headers: { cookie: user.refreshCookie },
    });
    if (answer.status === 401) {
      // The session ended (signed out elsewhere, or a stale cookie): the browser shows the sign-in form.
      user.token = undefined;
      user.refreshCookie = undefined;
      await signInNow(user, send, 'signin');
    }
    expectStatus(answer, 200);
    keepTokens(user, answer);
  });
}

/**
 * An authenticated call of the operation: signs in first when needed, and
 * when the token is refused (401: it expired) signs in again and retries once.
 */
export async function call(
  ctx: OpContext,
  method: HttpRequest['method'],
  path: string,
  options: Omit<RawCall, 'token'> = {},
): Promise<Answer> {
  await ensureSession(ctx.user, ctx.send);
  const token = ctx.user.token;
  const answer = await rawCall(ctx.send, ctx.type, method, path, { ...options, token });
  if (answer.status !== 401) return answer;
  if (ctx.user.token === token) {
    ctx.user.token = undefined;
    await signIn(ctx.user, ctx.send, 'signin');
  } else {
    await ensureSession(ctx.user, ctx.send);
  }
  return rawCall(ctx.send, ctx.type, method, path, { ...options, token: ctx.user.token });
}

export const get = (ctx: OpContext, path: string, params?: Params) =>
  call(ctx, 'GET', path, params ? { params } : {});

/** The signed-in profile (whoami), after a sign-in if needed. */
export async function profileOfUser(ctx: OpContext): Promise<Profile> {
  await ensureSession(ctx.user, ctx.send);
  if (!ctx.state.profile) throw new MixError('no profile after sign-in');
  return ctx.state.profile;
}

/** A lookup list (GET /cm/gen/<name>, limit 999), loaded once per user as the web app's query cache keeps it. */
export async function lookupOnce(ctx: OpContext, name: string): Promise<void> {
  if (ctx.state.loaded.has(name)) return;
  const answer = await get(ctx, `/api/cm/gen/${name}`, { limit: 999 });
  expectStatus(answer, 200);
  ctx.state.loaded.add(name);
}
