import {
  Badge,
  Box,
  Button,
  Flex,
  HStack,
  Icon,
  IconButton,
  Input,
  Menu,
  Portal,
  Spinner,
  Switch,
  Table,
  Text,
} from '@chakra-ui/react';
import type { UserItem } from '@portal/contracts';
import { EllipsisVertical } from 'lucide-react';
import { Suspense, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Notice } from '../../../components/notice';
import { PageHeader } from '../../../components/page-header';
import { Pager } from '../../../components/pager';
import { toaster } from '../../../components/toaster';
import { useAuth, useProfile } from '../../../lib/auth/auth-context';
import { hasResource } from '../../../lib/auth/resources';
import { useTenant } from '../../../lib/tenant-config';
import { useCompany } from '../api/get-companies';
import { useUsers } from '../api/get-users';
import { loginAs } from '../api/login-as';
import { useResetUserPassword, useSetUserLocked } from '../api/user-actions';
import { statusOf, USER_LOCKED, USERS_TEXT } from '../lib/user-messages';
import { addUserVisible, canEditSitePermissions, canLoginAs, gridRules, isSelf } from '../lib/user-rules';
import { MidPermissionsDialog } from './mid-permissions-dialog';
import { SitePermissionsDialog } from './site-permissions-dialog';
import { UsersDataGrid, type UserCells } from './users-data-grid';
import { useUsersExport } from './use-users-export';

const PAGE_SIZES = [10, 25, 50, 100] as const;
const fullName = (u: { fname: string; lname: string }) => `${u.fname} ${u.lname}`.trim();

/**
 * The users grid (spec 3 §2 Users) for /users and /users-new. Paging, search
 * and page size live in the URL. Every action is also checked by the server;
 * read-only users see every action disabled.
 */
export function UsersList({ variant }: { variant: 'classic' | 'grid' }) {
  const tenant = useTenant();
  const me = useProfile();
  const { refreshProfile } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const rules = gridRules(tenant, me);
  const [params, setParams] = useSearchParams();
  const start = Math.max(0, Number(params.get('start') ?? 0) || 0);
  const limit = Number(params.get('limit') ?? 25) || 25;
  const search = params.get('search') ?? '';
  const [searchText, setSearchText] = useState(search);
  const [banner, setBanner] = useState(
    () => (location.state as { success?: boolean } | null)?.success === true,
  );
  const [sitePermsFor, setSitePermsFor] = useState<UserItem | null>(null);
  const [midsFor, setMidsFor] = useState<UserItem | null>(null);
  const { notice: exportNotice, run: runExport } = useUsersExport({ search, start, limit });
  // Bumped after a change: the data grid reloads its page.
  const [version, setVersion] = useState(0);
  const q = useUsers({ start, limit, search });
  const company = useCompany(me.merchant.id);
  const lock = useSetUserLocked();
  const reset = useResetUserPassword();

  // The just-saved banner hides after 3 seconds (spec 3 §9).
  useEffect(() => {
    if (!banner) return;
    window.history.replaceState({}, '');
    const t = setTimeout(() => setBanner(false), 3000);
    return () => clearTimeout(t);
  }, [banner]);

  // Search debounce 200 ms in grid action bars (spec 3 §9).
  useEffect(() => {
    if (searchText === search) return;
    const t = setTimeout(() => update({ search: searchText, start: '0' }), 200);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchText]);

  function update(next: Record<string, string>) {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next))
      if (v) p.set(k, v);
      else p.delete(k);
    setParams(p, { replace: true });
  }

  const rows = q.data?.data ?? [];
  const total = q.data?.pagination.total ?? 0;
  const showAdd = addUserVisible(tenant, me, company.data?.service_level_id);

  function toggleLock(u: UserItem) {
    // One change at a time: a second event before the first answer must not undo it.
    if (lock.isPending) return;
    const locking = u.status.id !== USER_LOCKED;
    lock.mutate(
      { id: u.id, locked: locking },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: locking ? USERS_TEXT.locked : USERS_TEXT.unlocked });
          setVersion((v) => v + 1);
        },
        onError: () =>
          toaster.create({ type: 'error', title: locking ? USERS_TEXT.lockFailed : USERS_TEXT.unlockFailed }),
      },
    );
  }

  function resetPassword(u: UserItem) {
    const name = fullName(u);
    reset.mutate(
      { username: u.username },
      {
        onSuccess: () => toaster.create({ type: 'success', title: USERS_TEXT.resetOk(name) }),
        onError: () => toaster.create({ type: 'error', title: USERS_TEXT.resetFailed(name) }),
      },
    );
  }

  async function startLoginAs(u: UserItem) {
    try {
      const landing = await loginAs({ id: u.id, name: fullName(u) });
      await refreshProfile();
      navigate(landing);
    } catch (e) {
      toaster.create({ type: 'error', title: (e as Error).message || USERS_TEXT.saveFailed });
    }
  }

  const actionsDisabled = rules.readOnly;
  /** The status, lock and action cells, shared by the classic table and the data grid. */
  const cells: UserCells = {
    status: (u) => {
      const status = statusOf(u.status.id);
      return (
        <Badge colorPalette={status.active ? 'green' : 'red'} data-testid="user-status">
          {status.label}
        </Badge>
      );
    },
    lock: (u) => (
      <Switch.Root
        size="sm"
        colorPalette="red"
        checked={u.status.id === USER_LOCKED}
        disabled={actionsDisabled || isSelf(me, u) || lock.isPending}
        onCheckedChange={() => toggleLock(u)}
        data-testid="lock-toggle"
      >
        <Switch.HiddenInput aria-label={`Lock ${u.username}`} />
        <Switch.Control />
      </Switch.Root>
    ),
    actions: (u) => {
      const self = isSelf(me, u);
      // One row menu instead of five buttons: a row stays one line high (issue 29.3).
      return (
        <Menu.Root positioning={{ placement: 'bottom-end' }}>
          <Menu.Trigger asChild>
            <IconButton
              size="xs"
              variant="ghost"
              aria-label={`Actions for ${u.username}`}
              title="Actions"
              data-testid="user-actions"
            >
              <Icon size="sm">
                <EllipsisVertical />
              </Icon>
            </IconButton>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content minW="48" data-testid="user-menu" data-username={u.username}>
                {!rules.federated && (
                  <Menu.Item
                    value="edit"
                    disabled={actionsDisabled}
                    onSelect={() => navigate(`/user/update/${u.id}`)}
                    data-testid="edit-user"
                  >
                    Edit
                  </Menu.Item>
                )}
                {rules.showSitePermissions && (
                  <Menu.Item
                    value="site-permissions"
                    disabled={!canEditSitePermissions(me, u)}
                    onSelect={() => setSitePermsFor(u)}
                    data-testid="site-permissions"
                  >
                    Site Permissions
                  </Menu.Item>
                )}
                {!rules.federated && (
                  <Menu.Item
                    value="temp-password"
                    disabled={actionsDisabled || self || u.is_federated || reset.isPending}
                    onSelect={() => resetPassword(u)}
                    data-testid="temp-password"
                  >
                    Temporary Password
                  </Menu.Item>
                )}
                <Menu.Item
                  value="mid-permissions"
                  disabled={actionsDisabled || self}
                  onSelect={() => setMidsFor(u)}
                  data-testid="mid-permissions"
                >
                  MID Permissions
                </Menu.Item>
                {rules.showLoginAs && (
                  <Menu.Item
                    value="login-as"
                    disabled={!canLoginAs(me, u)}
                    onSelect={() => void startLoginAs(u)}
                    data-testid="login-as"
                  >
                    Login As
                  </Menu.Item>
                )}
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      );
    },
  };
  return (
    <Box p={{ base: 3, md: 6 }} data-testid={variant === 'grid' ? 'users-new' : 'users'}>
      <PageHeader
        title="Users"
        actions={
          showAdd && (
            <Button
              colorPalette="brand"
              size="sm"
              disabled={actionsDisabled}
              onClick={() => navigate('/user/update/', { state: { currentUserId: me.id } })}
              data-testid="add-user"
            >
              Add User
            </Button>
          )
        }
      />
      {banner && (
        <Box mb="3">
          <Notice status="success" testId="user-saved-banner" title={USERS_TEXT.saved} />
        </Box>
      )}
      {exportNotice && (
        <Box mb="3">
          <Notice status="info" testId="export-notice" title={exportNotice} />
        </Box>
      )}
      <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 2, md: 4 }}>
        <HStack mb="3" wrap="wrap" gap="2">
          <Input
            size="sm"
            maxW="xs"
            placeholder="Search users"
            aria-label="Search users"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            data-testid="users-search"
          />
          <Box flex="1" />
          <Button
            size="xs"
            variant="outline"
            onClick={() => void runExport('csv', 'page')}
            data-testid="export-csv"
          >
            CSV
          </Button>
          <Button
            size="xs"
            variant="outline"
            onClick={() => void runExport('csv', 'all')}
            data-testid="export-all"
          >
            Export All
          </Button>
          {hasResource(me, 'USERS_EXPORT_BUTTON') && (
            <Button
              size="xs"
              variant="outline"
              onClick={() => void runExport('xlsx', 'all')}
              data-testid="export-xlsx"
            >
              Export All (Excel)
            </Button>
          )}
        </HStack>
        {variant === 'grid' ? (
          <Suspense fallback={<Spinner />}>
            <UsersDataGrid key={`${search}:${version}`} search={search} rules={rules} cells={cells} />
          </Suspense>
        ) : q.isLoading ? (
          <Flex justify="center" p="6">
            <Spinner />
          </Flex>
        ) : !rows.length ? (
          <Text p="6" textAlign="center" color="gray.600" data-testid="users-empty">
            No Records Found!
          </Text>
        ) : (
          <Box overflowX="auto">
            <Table.Root size="sm" variant="line" data-testid="users-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Name</Table.ColumnHeader>
                  <Table.ColumnHeader>Username</Table.ColumnHeader>
                  <Table.ColumnHeader>Role</Table.ColumnHeader>
                  {rules.showCompany && <Table.ColumnHeader>Company</Table.ColumnHeader>}
                  {!rules.federated && <Table.ColumnHeader>Status</Table.ColumnHeader>}
                  {!rules.federated && <Table.ColumnHeader>Locked</Table.ColumnHeader>}
                  {rules.showReadOnly && <Table.ColumnHeader>Read Only</Table.ColumnHeader>}
                  <Table.ColumnHeader>Actions</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((u) => (
                  <Table.Row key={u.id} data-testid="user-row" data-username={u.username}>
                    <Table.Cell fontWeight="medium">{fullName(u)}</Table.Cell>
                    <Table.Cell>{u.username}</Table.Cell>
                    <Table.Cell>{u.role.name}</Table.Cell>
                    {rules.showCompany && <Table.Cell>{u.merchant.business_name ?? ''}</Table.Cell>}
                    {!rules.federated && <Table.Cell>{cells.status(u)}</Table.Cell>}
                    {!rules.federated && <Table.Cell>{cells.lock(u)}</Table.Cell>}
                    {rules.showReadOnly && (
                      <Table.Cell data-testid="user-read-only">{u.is_read_only ? 'Yes' : 'No'}</Table.Cell>
                    )}
                    <Table.Cell>{cells.actions(u)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
        {variant === 'classic' && (
          <Pager
            start={start}
            pageSize={limit}
            total={total}
            onStart={(n) => update({ start: String(n) })}
            onPageSize={(n) => update({ limit: String(n), start: '0' })}
            sizes={PAGE_SIZES}
            rangeTestId="users-range"
            mt="3"
          />
        )}
      </Box>
      {sitePermsFor && (
        <SitePermissionsDialog
          user={sitePermsFor}
          onClose={() => {
            setSitePermsFor(null);
            setVersion((v) => v + 1);
          }}
        />
      )}
      {midsFor && (
        <MidPermissionsDialog
          user={midsFor}
          onClose={() => {
            setMidsFor(null);
            setVersion((v) => v + 1);
          }}
        />
      )}
    </Box>
  );
}
