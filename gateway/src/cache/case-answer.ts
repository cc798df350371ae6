import type { FastifyReply } from 'fastify';
import type { InternalContext } from '@portal/contracts';
import type { CacheResult } from './cached-source';
import type { GatewayCore } from '../core';
import { errors } from '../errors';
import { callUpstream, upstreamFailure, type UpstreamAnswer } from '../upstreams/pools';

/** A GET the gateway makes to the case service for a cached answer; a transport failure is the client's 502/503/504. */
export async function loadFromCase(
  gw: GatewayCore,
  context: Omit<InternalContext, 'exp'>,
  path: string,
  timeoutMs: number,
): Promise<UpstreamAnswer> {
  try {
    return await callUpstream(gw.pools.case, gw.deps.contextSecret, {
      method: 'GET',
      path,
      context,
      timeoutMs,
    });
  } catch (error) {
    const status = upstreamFailure(error);
    gw.metrics.upstreamErrors.inc({ upstream: 'case', status: String(status) });
    throw status === 503
      ? errors.upstreamDown()
      : status === 504
        ? errors.upstreamTimeout()
        : errors.upstreamBad();
  }
}

/**
 * The UTF-8 bytes of each cached answer, encoded once: a cached answer is sent as the same Buffer
 * (the profile of issue 11.6: encoding a list of 250 countries per response was a tenth of a hit's CPU).
 */
const encodedBodies = new WeakMap<UpstreamAnswer, Buffer>();

export function sendAnswer(reply: FastifyReply, value: UpstreamAnswer, result: CacheResult) {
  let body = encodedBodies.get(value);
  if (body === undefined) {
    body = Buffer.from(value.body, 'utf8');
    encodedBodies.set(value, body);
  }
  reply.header('x-cache', result);
  return reply
    .status(value.status)
    .type(value.contentType || 'application/json')
    .send(body);
}
