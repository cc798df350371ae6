import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { CompiledRule } from '../policy/policy';

/** One audited call as the user service stores it (POST /users/audit/batch). Never a body or a header. */
export interface AuditEntry {
  entry_id: string;
  actor_id: number;
  user_id: number;
  method: string;
  route: string;
  target_ids: Record<string, string>;
  status: number;
  request_id: string;
  ip: string | null;
  at: string;
  /** 'api_key' for calls made with a merchant API key (issue 35.1), named by api_key_id. */
  actor_kind?: 'user' | 'api_key';
  api_key_id?: string | null;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** POSTs that change nothing (the profile read, click tracking): audited only while impersonating. */
const NOT_CHANGING = new Set(['POST /api/users/whoami', 'POST /api/users/events/tracking']);
/** Segments of a catch-all match that are ids, not words: numbers, UUIDs, long hex or base64url keys. */
const ID_LIKE = /^(?:\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_-]{20,})$/i;
const MAX_TARGET = 200;

function segmentsOf(url: string): string[] {
  const q = url.indexOf('?');
  return (q === -1 ? url : url.slice(0, q)).split('/').map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

/**
 * The route pattern and the ids it names: `:x` segments of the policy rule by
 * their names; under a `*` (catch-all rules) id-like segments become `:id`,
 * `:id2`... so that the route never carries an id and the grid can group by it.
 */
function routeAndTargets(rule: CompiledRule, url: string) {
  const pattern = rule.path.split('/');
  const actual = segmentsOf(url);
  const route: string[] = [];
  const targets: Record<string, string> = {};
  // Segments from here on are matched by the rule's `*` (every segment when the rule has none left).
  const star = pattern.indexOf('*') === -1 ? pattern.length : pattern.indexOf('*');
  let n = 0;
  for (let i = 0; i < actual.length; i++) {
    const p = pattern[i];
    const seg = actual[i]!;
    if (p !== undefined && i < star) {
      if (p.startsWith(':')) targets[p.slice(1)] = seg.slice(0, MAX_TARGET);
      route.push(p);
    } else if (ID_LIKE.test(seg)) {
      n++;
      const name = n === 1 ? 'id' : `id${n}`;
      targets[name] = seg.slice(0, MAX_TARGET);
      route.push(`:${name}`);
    } else {
      route.push(seg.slice(0, 100));
    }
  }
  return { route: route.join('/').slice(0, 300), targets };
}

/** Every write of a signed-in user, every call made while impersonating (design §4 step 4, §11), every call of an API key. */
export function auditEntryOf(request: FastifyRequest, status: number, ip?: string): AuditEntry | null {
  const call = request.call;
  if (!call?.actor || !call.effective) return null;
  const method = request.method;
  const write = WRITES.has(method) && !NOT_CHANGING.has(`${method} ${call.rule.path}`);
  // Every call of an API key is audited, reads included (issue 35.1).
  if (!write && !call.impersonating && !call.apiKey) return null;
  const { route, targets } = routeAndTargets(call.rule, request.url);
  return {
    entry_id: randomUUID(),
    actor_id: call.actor.id,
    user_id: call.effective.id,
    method,
    route,
    target_ids: targets,
    status,
    request_id: request.id,
    ip: (ip || request.ip || '').slice(0, 64) || null,
    at: new Date().toISOString(),
    ...(call.apiKey ? { actor_kind: 'api_key' as const, api_key_id: call.apiKey.id } : {}),
  };
}
