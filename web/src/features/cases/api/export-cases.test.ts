import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exportCases } from './export-cases';

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
const input = {
  format: 'csv' as const,
  exportType: 'all' as const,
  query: {},
  total: 50_000,
  columns: [{ accessor: 'id', label: 'CB ID' }],
};

describe('exportCases', () => {
  it('answers false (the list shows the e-mailed notice) on a 202 JSON answer', async () => {
    reply(
      202,
      JSON.stringify({ message: 'This may take up to 15 minutes.', job_id: 'x' }),
      'application/json',
    );
    await expect(exportCases(input)).resolves.toBe(false);
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it('answers true and saves a CSV', async () => {
    reply(200, 'CB ID\r\n1\r\n', 'text/csv; charset=utf-8');
    await expect(exportCases(input)).resolves.toBe(true);
    expect(URL.createObjectURL).toHaveBeenCalledTimes(1);
  });

  it('throws the server message on failure', async () => {
    reply(
      400,
      JSON.stringify({ statusCode: 400, error: 'Bad Request', message: "headers: unknown column 'x'." }),
      'application/json',
    );
    await expect(exportCases(input)).rejects.toThrow("headers: unknown column 'x'.");
  });
});
