import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import {
  CONNECTOR_MESSAGES,
  ConnectorEventParams,
  ConnectorEventResult,
  ErrorResponse,
} from '@portal/contracts';
import { badRequest, notFound, type Env, type Queryable } from '@portal/core';
import { ConnectorError, type ProcessorDispute } from '@portal/connectors';
import { connectorFor, sealedFor, secretBox } from './connector-registry';
import { connectionById, type ConnectionRow } from './connection-repository';
import { ingestDispute } from './dispute-ingest';

/**
 * POST /connectors/stripe/{connection}/events: Stripe's webhooks (public at
 * the gateway, which names the tenant by Host; the connection must be that
 * tenant's). The body is kept as the bytes that came, since the signature
 * covers them; an unsigned, wrongly signed or stale event is a 400 and
 * changes nothing; a replayed event id answers 'duplicate' and changes
 * nothing; everything else is recorded once, with the case it touched.
 */
const NOT_FOUND = CONNECTOR_MESSAGES.notFound;

/**
 * A dispute new to the portal, read again from the processor with its charge (the event names the
 * charge only; the case wants the card's last four and the statement descriptor). Outside any
 * transaction; when the processor cannot be reached the event's own copy is used.
 */
async function withCharge(
  env: Env,
  db: Queryable,
  c: ConnectionRow,
  d: ProcessorDispute,
  log: FastifyBaseLogger,
): Promise<ProcessorDispute> {
  const { rows } = await db.query(
    `select 1 from cases.connector_disputes where tenant_id = $1 and processor = $2 and dispute_id = $3`,
    [c.tenant_id, c.processor, d.disputeId],
  );
  if (rows.length) return d;
  try {
    const apiKey = secretBox(env).open(c.api_key_sealed, sealedFor(c.tenant_id, c.id, 'api_key'));
    const full = await connectorFor(env, c.processor).client({ apiKey }).retrieveDispute(d.disputeId);
    // The event's state is the state of its time; the charge's details come from the read.
    return {
      ...d,
      last4: full.last4,
      descriptor: full.descriptor,
      transactionAt: full.transactionAt,
      orderRef: full.orderRef ?? d.orderRef,
    };
  } catch (error) {
    log.warn(
      { connection: c.id, reason: (error as Error).message },
      'dispute read failed; the event is used as it is',
    );
    return d;
  }
}

export const eventRoutes: FastifyPluginAsync = async (app) => {
  const { db, env } = app.deps;
  // The raw body, as text: constructEvent verifies the signature over exactly these bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.post<{ Params: { connection: string }; Body: string }>(
    '/connectors/stripe/:connection/events',
    {
      schema: {
        tags: ['connectors'],
        summary: 'Stripe webhook events of a connection (signed; charge.dispute.*)',
        params: ConnectorEventParams,
        response: { 200: ConnectorEventResult, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const tenant = request.ctx.tenant;
      const c = await connectionById(db, tenant, request.params.connection);
      if (!c || c.processor !== 'stripe') throw notFound(NOT_FOUND);
      if (!c.webhook_secret_sealed) throw badRequest(CONNECTOR_MESSAGES.noSecret);
      const secret = secretBox(env).open(c.webhook_secret_sealed, sealedFor(tenant, c.id, 'webhook_secret'));
      const header = request.headers['stripe-signature'];
      let event;
      try {
        event = connectorFor(env, 'stripe').verifyEvent(
          typeof request.body === 'string' ? request.body : '',
          typeof header === 'string' ? header : undefined,
          secret,
        );
      } catch (error) {
        if (error instanceof ConnectorError) {
          request.log.warn({ connection: c.id, reason: error.message }, 'connector event refused');
          throw badRequest(error.message);
        }
        throw error;
      }
      const e = event;
      if (e.dispute) e.dispute = await withCharge(env, db, c, e.dispute, request.log);
      return db.transaction(async (tx) => {
        const fresh = await tx.query(
          `insert into cases.connector_events (connection_id, event_id, type, dispute_id, outcome)
           values ($1, $2, $3, $4, 'received') on conflict do nothing returning event_id`,
          [c.id, e.eventId, e.type.slice(0, 100), e.dispute?.disputeId ?? null],
        );
        if (!fresh.rows.length) return { received: true, outcome: 'duplicate' as const };
        const r = e.dispute
          ? await ingestDispute(tx, c, e.dispute, e.createdAt, request.id)
          : { outcome: 'ignored' as const, caseId: undefined };
        await tx.query(
          `update cases.connector_events set outcome = $3, case_id = $4 where connection_id = $1 and event_id = $2`,
          [c.id, e.eventId, r.outcome, r.caseId ?? null],
        );
        await tx.query(`update cases.connections set last_event_at = now() where id = $1`, [c.id]);
        return {
          received: true,
          outcome: r.outcome,
          ...(r.caseId !== undefined ? { case_id: r.caseId } : {}),
        };
      });
    },
  );
};
