import { describe, expect, it } from 'vitest';
import { undisputedDateWindow } from '@portal/contracts';
import {
  buildBody,
  detailsErrors,
  emptyForm,
  groupViolations,
  maskAmount,
  maskTxnId,
  matchingErrors,
  ordinal,
  txnErrors,
  withChoice,
  withStatus,
  type RemedyCase,
  type RemedyForm,
} from './remedy-form';

const kase: RemedyCase = {
  id: 7,
  case_no: 'CN-7',
  date_post: '2026-06-30',
  date_trans: '2026-06-01',
  trans_amt: 45.5,
  trans_currency: 'USD',
  arn: '74000000000000000000001',
  cc_last_four: '4242',
  merchant_name: 'Shoes Inc',
  mid: '900001',
};

function filled(): RemedyForm {
  const f = emptyForm();
  f.details = {
    providedDate: '2026-05-30',
    merchOrServ: 'Merchandise',
    deliveryStatus: 'D',
    tracking: ' 1Z9 ',
    description: 'Shoes',
  };
  f.txns = [
    {
      ...f.txns[0],
      arnOrTxnId: '74123456789012345678901',
      amount: '49.9',
      currency: 'USD',
      date: '2026-01-15',
      orderId: '',
      merchOrServ: 'Services',
      deliveryStatus: 'O',
      tracking: '',
      description: 'Plan',
    },
    {
      ...f.txns[1],
      arnOrTxnId: '381234567890123',
      amount: '120',
      currency: 'EUR',
      date: '2025-12-01',
      orderId: 'O-2',
      merchOrServ: 'Merchandise',
      deliveryStatus: 'S',
      tracking: 'T2',
      description: 'Shoes',
    },
  ];
  f.added = 2;
  f.matching = {
    ...f.matching,
    on: { ...f.matching.on, ip: true, deviceId: true },
    ip: '203.0.113.9',
    deviceId: 'D-1',
  };
  f.certified = true;
  return f;
}

describe('remedy form', () => {
  it('masks the identifier and the amount', () => {
    expect(maskTxnId('7412-3456 7890/1234-5678-9012-3')).toBe('741234567890123456789012');
    expect(maskAmount('0049.999')).toBe('49.99');
    expect(maskAmount('1,234.5x')).toBe('1234.5');
    expect(maskAmount('12.3.4')).toBe('12.34');
  });

  it('Services sets delivery status Other and clears tracking; clearing the status clears tracking', () => {
    const f = { merchOrServ: 'Merchandise' as const, deliveryStatus: 'D', tracking: 'T', description: '' };
    expect(withChoice(f, 'Services')).toMatchObject({ deliveryStatus: 'O', tracking: '' });
    expect(withStatus(f, '')).toMatchObject({ deliveryStatus: '', tracking: '' });
  });

  it('step rules', () => {
    const f = filled();
    expect(detailsErrors(f.details, '2026-07-01')).toEqual({});
    expect(detailsErrors({ ...f.details, tracking: '' }, '2026-07-01')).toEqual({ tracking: 'Required' });
    expect(txnErrors(f.txns[0], kase.date_post)).toEqual({});
    const w = undisputedDateWindow(kase.date_post);
    expect(txnErrors({ ...f.txns[0], date: '2026-03-15' }, kase.date_post).date).toBe(
      `Choose a date between ${w.from} and ${w.to}.`,
    );
    expect(txnErrors({ ...f.txns[0], arnOrTxnId: '12345678901234' }, kase.date_post).arnOrTxnId).toBe(
      'Field must be 15-16 or 23-24 characters in length.',
    );
    expect(txnErrors({ ...f.txns[0], amount: '0.5' }, kase.date_post).amount).toBeDefined();
    expect(txnErrors(f.txns[1], kase.date_post, { ...f.txns[1] }).arnOrTxnId).toBe(
      'This transaction was already added.',
    );
    expect(matchingErrors(f.matching)).toEqual({});
    expect(matchingErrors(emptyForm().matching).any).toBeDefined();
    expect(
      matchingErrors({ ...f.matching, on: { ...f.matching.on, fingerprint: true }, fingerprint: 'x' })
        .fingerprint,
    ).toBe('Device ID and Device Fingerprint may not both be supplied.');
  });

  it('builds the body: 23-24 characters as ARN, midnight UTC dates, 2 decimals, the matching details on every transaction', () => {
    const body = buildBody(kase, filled());
    expect(body.dl).toMatchObject({
      acquirer_case_number: 'CN-7',
      merchandise_or_services_provided_date: '2026-05-30T00:00:00.000Z',
      tracking_information: '1Z9',
      disputed_transaction: {
        arn: kase.arn,
        tran_date: '2026-06-01T00:00:00.000Z',
        ip_address_details: '203.0.113.9',
      },
    });
    expect(body.dl.undisputed_transactions).toEqual([
      expect.objectContaining({
        historical_arn: '74123456789012345678901',
        historical_transaction_id: null,
        historical_tran_amount: 49.9,
        tracking_information: null,
        device_id_details: 'D-1',
      }),
      expect.objectContaining({
        historical_arn: null,
        historical_transaction_id: '381234567890123',
        historical_tran_date: '2025-12-01T00:00:00.000Z',
        historical_order_id: 'O-2',
      }),
    ]);
    expect(body.doc[0]).toEqual({ name: 'Disputed Transaction', value: '' });
    expect(body.doc).toContainEqual({ name: 'IP Address', value: '203.0.113.9' });
    expect(body.doc.every((d) => d.name)).toBe(true);
  });

  it('groups violations per undisputed transaction with the spec labels', () => {
    const g = groupViolations([
      { propertyPath: 'undisputed_transactions[1].historical_tran_amount', title: 'Must be at least 1.' },
      { propertyPath: 'description', title: 'Required' },
      { propertyPath: 'undisputed_transactions[0].state_region', title: 'Required' },
      { propertyPath: 'disputed_transaction.ip_address_details', title: 'X' },
    ]);
    expect(g.general).toEqual([
      { label: 'Description', title: 'Required' },
      { label: 'Disputed Transaction IP Address Details', title: 'X' },
    ]);
    expect(g.transactions).toEqual([
      {
        heading: '-- Errors for 1st Undistputed Transaction --',
        items: [{ label: 'State/Region', title: 'Required' }],
      },
      {
        heading: '-- Errors for 2nd Undistputed Transaction --',
        items: [{ label: 'TXN Amount', title: 'Must be at least 1.' }],
      },
    ]);
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
    ]);
  });
});
