import { useEffect, useState } from 'react';
import { toaster } from '../../../components/toaster';
import { ApiError } from '../../../lib/errors';
import { exportUsers } from '../api/export-users';
import { USERS_TEXT } from '../lib/user-messages';

/** The export success notice hides after 5 seconds (spec 3 §9). */
export const EXPORT_NOTICE_MS = 5_000;

/**
 * The users grid's exports (spec 3 §2, §7): a file is saved; any other answer
 * (202 from a list above the server's threshold) means the export is e-mailed
 * and shows the spec's 'Export started' notice; a failure shows the server's
 * message or 'An unknown error has occurred.'
 */
export function useUsersExport(query: { merchantId?: number; search: string; start: number; limit: number }) {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => setNotice(null), EXPORT_NOTICE_MS);
    return () => clearTimeout(t);
  }, [notice]);

  async function run(format: 'csv' | 'xlsx', exportType: 'page' | 'all') {
    setNotice(null);
    try {
      const saved = await exportUsers(format, { ...query, exportType });
      if (!saved) setNotice(USERS_TEXT.exportEmailed);
    } catch (e) {
      // The server's message when it answered; a lost connection has none (spec 3 §8).
      const server = e instanceof ApiError && e.status > 0 && e.message;
      toaster.create({ type: 'error', title: server || USERS_TEXT.exportFailed });
    }
  }
  return { notice, run };
}
