import { Button, Flex, Input, NativeSelect } from '@chakra-ui/react';
import { Suspense, useMemo, useState } from 'react';
import { isProviderStaff, type AuditItem } from '@portal/contracts';
import { DateRangePicker } from '../../../components/date-range-picker';
import type { PageRequest } from '../../../components/data-grid';
import { LazyDataGrid } from '../../../components/lazy-data-grid';
import { Page, PageHeader } from '../../../components/page-header';
import { toaster } from '../../../components/toaster';
import { lastDays, rangeParam } from '../../../lib/dates';
import { GENERIC_ERROR } from '../../../lib/errors';
import { exportAudit, listAudit, useAuditUsers, type AuditFilters } from '../api/audit-api';
import { useProfile } from '../../../lib/auth/auth-context';
import { auditColumns } from './audit-columns';

const ACTIONS = [
  { value: '', label: 'All actions' },
  { value: 'POST', label: 'Create (POST)' },
  { value: 'PUT', label: 'Replace (PUT)' },
  { value: 'PATCH', label: 'Update (PATCH)' },
  { value: 'DELETE', label: 'Delete (DELETE)' },
  { value: 'GET', label: 'View while Login As (GET)' },
];

/**
 * /audit: who changed what through the portal, newest first (issue 19). The
 * server scopes the rows (tenant; a partner or merchant admin sees its
 * subtree's users), filters, pages and writes the CSV.
 */
export function AuditLog() {
  const users = useAuditUsers();
  const roles = useProfile().roles;
  const columns = useMemo(() => auditColumns(isProviderStaff(roles)), [roles]);
  const [userId, setUserId] = useState('');
  const [method, setMethod] = useState('');
  const [target, setTarget] = useState('');
  const [appliedTarget, setAppliedTarget] = useState('');
  const [range, setRange] = useState(() => lastDays(30));

  const filters: AuditFilters = {
    userId: userId ? Number(userId) : undefined,
    method: method || undefined,
    target: appliedTarget || undefined,
    dateRange: rangeParam(range),
  };

  const fetchPage = async (req: PageRequest) => {
    const r = await listAudit(filters, { start: req.start, limit: req.limit });
    return { rows: r.data, total: r.pagination.total };
  };

  return (
    <Page data-testid="audit-log">
      <PageHeader
        title="Audit Log"
        description="Every change made through the portal, and every call made while logged in as another user."
        actions={
          <Button
            size="sm"
            variant="outline"
            data-testid="audit-csv"
            onClick={() =>
              exportAudit(filters).catch((e: Error) =>
                toaster.create({ type: 'error', description: e.message || GENERIC_ERROR }),
              )
            }
          >
            Export CSV
          </Button>
        }
      />
      <Flex gap="2" mb="3" wrap="wrap" align="center">
        <NativeSelect.Root size="sm" width="56">
          <NativeSelect.Field
            aria-label="User"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            bg="white"
          >
            <option value="">All users</option>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={String(u.id)}>
                {u.username}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="sm" width="56">
          <NativeSelect.Field
            aria-label="Action"
            value={method}
            onChange={(e) => setMethod(e.target.value)}
            bg="white"
          >
            {ACTIONS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Input
          size="sm"
          w="220px"
          bg="white"
          placeholder="Target (route or id)"
          aria-label="Target"
          value={target}
          maxLength={200}
          onChange={(e) => setTarget(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && setAppliedTarget(target.trim())}
          onBlur={() => setAppliedTarget(target.trim())}
        />
        <DateRangePicker value={range} onChange={setRange} testId="audit-dates" />
      </Flex>
      <Suspense fallback={null}>
        <LazyDataGrid<AuditItem>
          columns={columns}
          fetchPage={fetchPage}
          queryKey={`audit:${userId}:${method}:${appliedTarget}:${rangeParam(range)}`}
          testId="audit-grid"
          height={520}
        />
      </Suspense>
    </Page>
  );
}
