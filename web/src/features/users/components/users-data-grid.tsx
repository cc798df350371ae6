import type { UserItem } from '@portal/contracts';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo, type ReactNode } from 'react';
import { LazyDataGrid } from '../../../components/lazy-data-grid';
import { getUsers } from '../api/get-users';
import type { GridRules } from '../lib/user-rules';

export interface UserCells {
  status: (u: UserItem) => ReactNode;
  lock: (u: UserItem) => ReactNode;
  actions: (u: UserItem) => ReactNode;
}

/** Grid column -> sort_by of GET /users/users. */
const SORT_BY: Record<string, string> = {
  name: 'name',
  username: 'username',
  role: 'role',
  company: 'merchant',
  status: 'status',
};

const cell =
  (render: (u: UserItem) => ReactNode) =>
  (p: ICellRendererParams<UserItem>): ReactNode =>
    p.data ? render(p.data) : null;

/** /users-new: the users grid on AG Grid (server paging and sorting, default 25 rows). */
export function UsersDataGrid({
  search,
  rules,
  cells,
}: {
  search: string;
  rules: GridRules;
  cells: UserCells;
}) {
  const columns = useMemo<ColDef<UserItem>[]>(
    () => [
      {
        colId: 'name',
        headerName: 'Name',
        valueGetter: (p) => (p.data ? `${p.data.fname} ${p.data.lname}`.trim() : ''),
        minWidth: 140,
      },
      { colId: 'username', headerName: 'Username', field: 'username', minWidth: 140 },
      { colId: 'role', headerName: 'Role', valueGetter: (p) => p.data?.role.name ?? '' },
      ...(rules.showCompany
        ? [
            {
              colId: 'company',
              headerName: 'Company',
              valueGetter: (p) => p.data?.merchant.business_name ?? '',
              minWidth: 160,
            } satisfies ColDef<UserItem>,
          ]
        : []),
      ...(rules.federated
        ? []
        : [
            { colId: 'status', headerName: 'Status', cellRenderer: cell(cells.status), maxWidth: 110 },
            {
              colId: 'lock',
              headerName: 'Locked',
              sortable: false,
              cellRenderer: cell(cells.lock),
              maxWidth: 100,
            },
          ]),
      ...(rules.showReadOnly
        ? [
            {
              colId: 'read_only',
              headerName: 'Read Only',
              sortable: false,
              valueGetter: (p) => (p.data?.is_read_only ? 'Yes' : 'No'),
              maxWidth: 110,
            } satisfies ColDef<UserItem>,
          ]
        : []),
      {
        colId: 'actions',
        headerName: 'Actions',
        sortable: false,
        cellRenderer: cell(cells.actions),
        // The row menu's trigger: as wide as the header text (the grid widens it to that).
        flex: 0,
        width: 80,
        minWidth: 80,
      },
    ],
    [rules, cells],
  );
  return (
    <LazyDataGrid<UserItem>
      columns={columns}
      queryKey={search}
      fetchPage={async ({ start, limit, sort }) => {
        const r = await getUsers({
          start,
          limit,
          search,
          sortBy: sort ? SORT_BY[sort.colId] : undefined,
          sortOrder: sort?.sort,
        });
        return { rows: r.data, total: r.pagination.total };
      }}
      pageSize={25}
      height={620}
      testId="users-grid"
    />
  );
}
