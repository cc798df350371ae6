import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exportAlerts } from './export-alerts';

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

const reply = (status: number, body: string, type: string) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, headers: { 'content-type': type } })),
  );

describe('exportAlerts', () => {
  it('answers false (e-mailed: the grid shows Export started) on a 202 JSON answer', async () => {
    reply(
      202,
      JSON.stringify({ message: 'This may take up to 15 minutes.', job_id: 'x' }),
      'application/json',
    );
    await expect(exportAlerts('xlsx', { merchant_id: 1 } as never)).resolves.toBe(false);
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it('answers true and saves a workbook', async () => {
    reply(200, 'PK', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    await expect(exportAlerts('xlsx', { merchant_id: 1 } as never)).resolves.toBe(true);
    expect(URL.createObjectURL).toHaveBeenCalledTimes(1);
  });
});
