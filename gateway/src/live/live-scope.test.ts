import { describe, expect, it } from 'vitest';
import type { PublishedLiveMessage } from '@portal/contracts';
import { mayReceive, parseMessage, toBrowser, type LiveViewer } from './live-scope';

const viewer = (over: Partial<LiveViewer> = {}): LiveViewer => ({
  userId: 7,
  staff: false,
  merchantId: 20,
  midsAllowed: [],
  midsExcluded: [],
  ...over,
});
const job = (createdBy: number | null): PublishedLiveMessage => ({
  kind: 'job',
  id: '00000000-0000-4000-8000-000000000001',
  job_kind: 'case.updater',
  state: 'running',
  progress: 10,
  message: null,
  created_by: createdBy,
});
const event = (
  over: Partial<Extract<PublishedLiveMessage, { kind: 'event' }>> = {},
): PublishedLiveMessage => ({
  kind: 'event',
  type: 'CASE_STATUS_CHANGED',
  merchant_id: 30,
  merchant_path: [1, 20, 30],
  case_id: 5,
  mid_id: 900,
  mid: '4450001',
  ...over,
});

describe('live scope', () => {
  it('gives a job to its creator and to provider staff only', () => {
    expect(mayReceive(viewer(), job(7))).toBe(true);
    expect(mayReceive(viewer(), job(8))).toBe(false);
    expect(mayReceive(viewer(), job(null))).toBe(false);
    expect(mayReceive(viewer({ staff: true }), job(8))).toBe(true);
  });

  it('gives an event to users whose merchant is on its path, staff everywhere', () => {
    expect(mayReceive(viewer(), event())).toBe(true);
    expect(mayReceive(viewer({ merchantId: 30 }), event())).toBe(true);
    expect(mayReceive(viewer({ merchantId: 31 }), event())).toBe(false);
    expect(mayReceive(viewer({ merchantId: 31, staff: true }), event())).toBe(true);
  });

  it('keeps MID-limited users to their MIDs (by number or id)', () => {
    expect(mayReceive(viewer({ midsAllowed: ['4450001'] }), event())).toBe(true);
    expect(mayReceive(viewer({ midsAllowed: ['900'] }), event())).toBe(true);
    expect(mayReceive(viewer({ midsAllowed: ['1'] }), event())).toBe(false);
    expect(mayReceive(viewer({ midsAllowed: ['1'] }), event({ mid: undefined, mid_id: undefined }))).toBe(
      false,
    );
    expect(mayReceive(viewer({ midsExcluded: ['4450001'] }), event())).toBe(false);
    expect(mayReceive(viewer({ staff: true, midsExcluded: ['900'] }), event())).toBe(false);
  });

  it('strips what only the gateway needs, and ignores what is not a message', () => {
    expect(toBrowser(event())).toEqual({
      kind: 'event',
      type: 'CASE_STATUS_CHANGED',
      merchant_id: 30,
      case_id: 5,
    });
    expect(parseMessage('nope')).toBeUndefined();
    expect(parseMessage(JSON.stringify({ kind: 'event', merchant_id: 1 }))).toBeUndefined();
    expect(parseMessage(JSON.stringify(event()))).toEqual(event());
  });
});
