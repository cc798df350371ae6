import { describe, expect, it } from 'vitest';
import { StripeSdk } from '@portal/connectors';
import { explainStripeSubmissionError, STRIPE_WORDS } from './stripe-errors';
import { evidenceFieldsOf, FIELD_MAX_CHARS, TOTAL_MAX_CHARS, withinLimits } from './stripe-evidence';

const answers = (
  a: Record<string, string>,
  product: { name: string; description: string | null } | null = null,
) => ({
  case_id: 1,
  has_answers: true,
  answers: a,
  product: product && { ...product, type_id: 1 },
  is_subscription: false,
});

describe('builder answers as Stripe evidence fields', () => {
  it('maps only the answers given, and leaves the rest out', () => {
    expect(
      evidenceFieldsOf(
        answers({ fname: 'Jane', tracking_no: '1Z9', date_service_start: '2026-01-02' }),
        null,
      ),
    ).toEqual({ customer_name: 'Jane', shipping_tracking_number: '1Z9', service_date: '2026-01-02' });
    expect(evidenceFieldsOf(null, '  ')).toEqual({});
  });

  it('writes each address on one line, ending with its country by name', () => {
    const a = answers({
      billing_address: '1 Main St',
      billing_zip: '12345',
      billing_country_id: 'United States',
      shipping_city: 'Toronto',
      country_id: 'Canada',
    });
    expect(evidenceFieldsOf(a, null)).toEqual({
      billing_address: '1 Main St, 12345, United States',
      shipping_address: 'Toronto, Canada',
    });
  });

  it('takes the product of step 1 when no description was written', () => {
    expect(evidenceFieldsOf(answers({}, { name: 'Shoes', description: 'Blue, size 42' }), null)).toEqual({
      product_description: 'Shoes: Blue, size 42',
    });
  });

  it('keeps each long field within 20,000 characters and the whole within 150,000', () => {
    const long = 'x'.repeat(30_000);
    const one = withinLimits({ product_description: long, customer_name: 'Jane' });
    expect(one.product_description!.length).toBe(FIELD_MAX_CHARS);
    expect(one.product_description).toMatch(/full text is in the attached PDF\)$/);
    const many = withinLimits(
      Object.fromEntries(
        [
          'access_activity_log',
          'cancellation_policy_disclosure',
          'cancellation_rebuttal',
          'duplicate_charge_explanation',
          'product_description',
          'refund_policy_disclosure',
          'refund_refusal_explanation',
          'uncategorized_text',
        ].map((f) => [f, long]),
      ),
    );
    const total = Object.values(many).reduce((n, v) => n + v.length, 0);
    expect(total).toBeLessThanOrEqual(TOTAL_MAX_CHARS);
    expect(many.uncategorized_text!.length).toBeLessThan(FIELD_MAX_CHARS);
    expect(many.product_description!.length).toBe(FIELD_MAX_CHARS);
  });
});

describe('Stripe errors in a merchant’s words', () => {
  const raw = (statusCode: number, message: string, code?: string) =>
    StripeSdk.errors.StripeError.generate({ type: 'invalid_request_error', message, code, statusCode });

  it('tells a passed deadline, a closed dispute and a file too large apart, with the code', () => {
    expect(explainStripeSubmissionError(raw(400, 'x', 'evidence_submission_window_closed'))).toMatchObject({
      message: STRIPE_WORDS.pastDue,
      code: 'evidence_submission_window_closed',
      retryable: false,
    });
    expect(explainStripeSubmissionError(raw(400, 'This dispute is already closed.')).message).toBe(
      STRIPE_WORDS.closed,
    );
    expect(
      explainStripeSubmissionError(raw(400, 'Too many pages', 'dispute_evidence_page_limit_exceeded'))
        .message,
    ).toBe(STRIPE_WORDS.tooLarge);
  });
});
