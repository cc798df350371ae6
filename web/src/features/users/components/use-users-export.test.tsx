import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { USERS_TEXT } from '../lib/user-messages';
import { EXPORT_NOTICE_MS, useUsersExport } from './use-users-export';

const toast = vi.hoisted(() => vi.fn());
vi.mock('../../../components/toaster', () => ({ toaster: { create: toast } }));

const NOTICE =
  "This may take up to 15 minutes. We will send you an email with a link to download your export when it's ready. Thank you!";

function answer(status: number, body: string, type: string, headers: Record<string, string> = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, headers: { 'content-type': type, ...headers } })),
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
  toast.mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const query = { search: '', start: 0, limit: 25 };

describe('users export (spec 3 §7, §8, §9)', () => {
  it('shows the e-mailed export notice when the server answers 202 JSON, and hides it after 5 s', async () => {
    answer(202, JSON.stringify({ message: NOTICE, job_id: 'a1' }), 'application/json; charset=utf-8');
    const { result } = renderHook(() => useUsersExport(query));
    await act(() => result.current.run('csv', 'all'));
    expect(result.current.notice).toBe(NOTICE);
    expect(USERS_TEXT.exportEmailed).toBe(NOTICE);
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(EXPORT_NOTICE_MS - 1));
    expect(result.current.notice).toBe(NOTICE);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.notice).toBeNull();
    expect(EXPORT_NOTICE_MS).toBe(5_000);
  });

  it('saves a file answer without the notice', async () => {
    answer(200, 'ID,First Name\r\n1,Ann\r\n', 'text/csv; charset=utf-8', {
      'content-disposition': 'attachment; filename="users-2026-01-01.csv"',
    });
    const { result } = renderHook(() => useUsersExport(query));
    await act(() => result.current.run('csv', 'all'));
    expect(result.current.notice).toBeNull();
    expect(URL.createObjectURL).toHaveBeenCalledTimes(1);
  });

  it("shows the server's message on failure, else 'An unknown error has occurred.'", async () => {
    answer(
      403,
      JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'Not allowed.' }),
      'application/json',
    );
    const { result } = renderHook(() => useUsersExport(query));
    await act(() => result.current.run('xlsx', 'all'));
    expect(result.current.notice).toBeNull();
    expect(toast).toHaveBeenLastCalledWith({ type: 'error', title: 'Not allowed.' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new Error('');
      }),
    );
    await act(() => result.current.run('xlsx', 'all'));
    expect(toast).toHaveBeenLastCalledWith({ type: 'error', title: 'An unknown error has occurred.' });
  });
});
