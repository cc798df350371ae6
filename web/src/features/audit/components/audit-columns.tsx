import { Badge } from '@chakra-ui/react';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import type { AuditItem } from '@portal/contracts';

const who = (p: AuditItem['actor']) => (p ? (p.username ?? `#${p.id}`) : 'system');

/** UTC, as the date filter counts days in UTC. */
const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`;

/** Newest first on the server; the columns do not sort (the log's order is its time). */
const COLUMNS: ColDef<AuditItem>[] = [
  { field: 'time', headerName: 'Time', minWidth: 215, valueFormatter: (p) => utc(String(p.value ?? '')) },
  {
    headerName: 'Actor',
    minWidth: 160,
    // A call made with a merchant API key (issue 35.1) names the key beside its creator.
    cellRenderer: (p: ICellRendererParams<AuditItem>) =>
      p.data ? (
        <>
          {who(p.data.actor)}{' '}
          {p.data.api_key_id && (
            <Badge size="sm" colorPalette="blue" data-testid="audit-api-key">
              API key {p.data.api_key_id}
            </Badge>
          )}
        </>
      ) : null,
  },
  {
    headerName: 'User',
    minWidth: 170,
    cellRenderer: (p: ICellRendererParams<AuditItem>) =>
      p.data ? (
        <>
          {who(p.data.user)}{' '}
          {p.data.impersonated && (
            <Badge size="sm" colorPalette="orange" data-testid="audit-impersonated">
              Login As
            </Badge>
          )}
        </>
      ) : null,
  },
  {
    headerName: 'Action',
    minWidth: 120,
    // Gateway rows ('request') by their method; the user service's own rows by their name (user.update...).
    valueGetter: (p) => (p.data ? (p.data.action === 'request' ? p.data.method : p.data.action) : ''),
  },
  { field: 'route', headerName: 'Route', minWidth: 260 },
  {
    headerName: 'Targets',
    minWidth: 140,
    valueGetter: (p) =>
      p.data
        ? Object.entries(p.data.target_ids)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')
        : '',
  },
  { field: 'status', headerName: 'Status', minWidth: 90 },
  { field: 'request_id', headerName: 'Request ID', minWidth: 290 },
];
/** Client addresses: the server sends them to provider staff only. */
const IP: ColDef<AuditItem> = { field: 'ip', headerName: 'IP', minWidth: 120 };

export const auditColumns = (withAddresses: boolean): ColDef<AuditItem>[] =>
  (withAddresses ? [...COLUMNS, IP] : COLUMNS).map((c) => ({ sortable: false, ...c }));
