import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { resolveConnectorKey, SecretBox } from './secret-box';
import { stageOf, toProcessorDispute } from './stripe/dispute-mapping';

const KEY = 'a'.repeat(21) + 'b'.repeat(22) + 'c'.repeat(21);

describe('SecretBox (AES-256-GCM)', () => {
  const box = SecretBox.fromKey(KEY);
  it('opens what it sealed, for the same purpose only', () => {
    const sealed = box.seal('rk_test_secret', 'acme:c1:api_key');
    expect(sealed).not.toContain('rk_test_secret');
    expect(box.seal('rk_test_secret', 'acme:c1:api_key')).not.toBe(sealed);
    expect(box.open(sealed, 'acme:c1:api_key')).toBe('rk_test_secret');
    expect(() => box.open(sealed, 'acme:c2:api_key')).toThrow();
    expect(() => box.open(sealed, 'acme:c1:webhook_secret')).toThrow();
  });
  it('refuses an altered value and another key', () => {
    const sealed = box.seal('whsec_x', 'a');
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'), 'a')).toThrow();
    expect(() => SecretBox.fromKey('f'.repeat(64)).open(sealed, 'a')).toThrow();
  });
  it('refuses keys of the wrong length and placeholders', () => {
    expect(() => SecretBox.fromKey('abc')).toThrow(/32 bytes/);
    expect(() => SecretBox.fromKey('0'.repeat(64))).toThrow(/placeholder/);
  });
  it('generates a development key once into DATA_DIR, never in production', () => {
    const dir = mkdtempSync(join(tmpdir(), 'connector-key-'));
    const env = { DATA_DIR: dir, NODE_ENV: 'development' as const, CONNECTOR_KEY: undefined };
    const first = resolveConnectorKey(env);
    expect(resolveConnectorKey(env)).toBe(first);
    expect(readFileSync(join(dir, 'keys', 'connector.key'), 'utf8')).toBe(first);
    expect(() => SecretBox.fromKey(first)).not.toThrow();
    expect(() => resolveConnectorKey({ ...env, NODE_ENV: 'production' })).toThrow(/CONNECTOR_KEY/);
    expect(resolveConnectorKey({ ...env, NODE_ENV: 'production', CONNECTOR_KEY: KEY })).toBe(KEY);
  });
});

describe('Stripe dispute mapping', () => {
  const dispute = (over: Partial<Stripe.Dispute>, brand = 'visa', code: string | null = null) =>
    ({
      id: 'dp_1',
      object: 'dispute',
      amount: 1234,
      currency: 'gbp',
      charge: 'ch_1',
      created: 1_790_000_000,
      evidence_details: { due_by: 1_790_600_000 },
      is_charge_refundable: true,
      network_reason_code: null,
      payment_intent: 'pi_1',
      payment_method_details: {
        type: 'card',
        card: { brand, case_type: 'chargeback', network: brand, network_reason_code: code },
      },
      reason: 'fraudulent',
      status: 'needs_response',
      ...over,
    }) as unknown as Stripe.Dispute;

  it('maps reason, brand, amount, due date and stage', () => {
    const d = toProcessorDispute(dispute({}));
    expect(d).toMatchObject({
      disputeId: 'dp_1',
      chargeId: 'ch_1',
      amountMinor: 1234,
      currency: 'GBP',
      brand: 'visa',
      fallbackReasonCode: '10.4',
      networkReasonCode: null,
      inquiry: false,
      stage: 'open',
      isChargeRefundable: true,
      orderRef: 'pi_1',
    });
    expect(d.dueBy?.toISOString()).toBe(new Date(1_790_600_000_000).toISOString());
    expect(
      toProcessorDispute(dispute({ reason: 'subscription_canceled' }, 'mastercard', '4841')),
    ).toMatchObject({
      brand: 'mastercard',
      networkReasonCode: '4841',
      fallbackReasonCode: '4841',
    });
    expect(toProcessorDispute(dispute({ reason: 'something_new' }, 'amex')).fallbackReasonCode).toBe('C31');
    expect(toProcessorDispute(dispute({}, 'jcb')).brand).toBeNull();
    expect(toProcessorDispute(dispute({ status: 'warning_needs_response' })).inquiry).toBe(true);
  });

  it('names the stages', () => {
    expect(
      ['needs_response', 'under_review', 'won', 'lost', 'warning_closed', 'warning_under_review'].map(
        stageOf,
      ),
    ).toEqual(['open', 'review', 'won', 'lost', 'closed', 'review']);
  });
});
