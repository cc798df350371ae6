import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorError, stripeConnector } from '../../../packages/connectors/src/index';
import { StripeStandIn } from '../../support/stripe-stand-in';

/**
 * The Stripe adapter's client against the stand-in, without the portal around it (issue 32): a
 * request that times out is sent again by the SDK, a 429 is waited out by the client, and Stripe's
 * refusals read as a merchant would say them.
 */
const stripe = new StripeStandIn();
const KEY = 'rk_test_51ClientRestricted0001';
const RESTRICTED = 'rk_test_51ClientNoAccount0001';
let connector: ReturnType<typeof stripeConnector>;

beforeAll(async () => {
  const base = await stripe.start();
  stripe.addKey(KEY, { id: 'acct_client' });
  stripe.addKey(RESTRICTED, { restricted: true });
  connector = stripeConnector({ apiBase: base, timeoutMs: 400, maxNetworkRetries: 2, rateLimitDelayMs: 50 });
});
afterAll(async () => {
  await stripe.close();
});

describe('the Stripe client', () => {
  it('asks again after a timeout, with the same request', async () => {
    const d = stripe.addDispute({ brand: 'amex', last4: '0005' });
    stripe.failNext('GET', new RegExp(`^/v1/disputes/${d.id}`), 'timeout');
    const got = await connector.client({ apiKey: KEY }).retrieveDispute(d.id);
    expect(got).toMatchObject({ disputeId: d.id, brand: 'amex', last4: '0005' });
    const calls = stripe.requestsTo('GET', new RegExp(`^/v1/disputes/${d.id}$`));
    expect(calls.map((c) => c.status)).toEqual([-1, 200]);
    expect(calls[1]!.query).toEqual({ 'expand[0]': 'charge' });
  });

  it('waits out a rate limit, and gives up with a retryable error when it lasts', async () => {
    const d = stripe.addDispute();
    stripe.failNext('GET', new RegExp(`^/v1/disputes/${d.id}`), 429, 429);
    expect((await connector.client({ apiKey: KEY }).retrieveDispute(d.id)).disputeId).toBe(d.id);
    stripe.failNext('GET', new RegExp(`^/v1/disputes/${d.id}`), 429, 429, 429, 429, 429);
    const error = await connector
      .client({ apiKey: KEY })
      .retrieveDispute(d.id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({
      retryable: true,
      message: 'Stripe asked us to slow down; we will try again shortly.',
    });
  });

  it('says what went wrong in a merchant’s words', async () => {
    const unknownKey = await connector
      .client({ apiKey: 'rk_test_NobodyKnowsThis01' })
      .validate()
      .catch((e: unknown) => e);
    expect(unknownKey).toMatchObject({
      retryable: false,
      message: 'Stripe did not accept the API key: it may have been revoked or mistyped.',
    });
    const missing = await connector
      .client({ apiKey: KEY })
      .retrieveDispute('dp_nosuchdispute')
      .catch((e: unknown) => e);
    expect((missing as Error).message).toMatch(
      /^Stripe does not know this dispute on the connected account\./,
    );
    stripe.failNext('GET', /^\/v1\/disputes\/dp_x/, 500, 500, 500);
    const down = await connector
      .client({ apiKey: KEY })
      .retrieveDispute('dp_x')
      .catch((e: unknown) => e);
    expect(down).toMatchObject({
      retryable: true,
      message: 'Stripe had a problem answering; we will try again shortly.',
    });
  });

  it('proves a restricted key that may not read its account by listing disputes', async () => {
    expect(await connector.client({ apiKey: RESTRICTED }).validate()).toEqual({
      accountId: 'restricted',
      accountName: null,
    });
    expect(await connector.client({ apiKey: KEY }).validate()).toEqual({
      accountId: 'acct_client',
      accountName: 'Stand-in Store',
    });
  });
});
