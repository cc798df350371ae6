import { Box, Grid, Skeleton, Stat, Text } from '@chakra-ui/react';
import type { DashboardTile } from '@portal/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useProfile } from '../../../lib/auth/auth-context';
import { addDays, monthToDate, rangeParam, toIsoDate } from '../../../lib/dates';
import { queryErrorMessage } from '../../../lib/errors';
import { formatCount, formatPercent } from '../../../lib/format';
import { label, useTenant } from '../../../lib/tenant-config';
import { useChargebacksMtd } from '../api/get-chargebacks-mtd';
import { EXPIRING_STATUS_GROUPS, useExpiringCount } from '../api/get-expiring-cases';
import { useFraudPct } from '../api/get-fraud-pct';
import { useMidsCount } from '../api/get-mids-count';
import { useUsersCount } from '../api/get-users-count';
import { useClientId } from '../api/dashboard-params';
import { RecoveredTile } from './recovered-tile';

/** The expiring window: 72 hours (3 days) from today. */
export function expiringRange(today = new Date()): string {
  return `${toIsoDate(today)}|${toIsoDate(addDays(today, 3))}`;
}

function Tile({
  id,
  title,
  query,
  format,
  to,
}: {
  id: string;
  title: string;
  query: UseQueryResult<number>;
  format: (n: number) => string;
  to?: string;
}) {
  const body = (
    <Stat.Root
      bg="white"
      borderRadius="lg"
      borderWidth="1px"
      borderLeftWidth="5px"
      borderLeftColor="brand.solid"
      p="4"
      h="full"
      _hover={to ? { boxShadow: 'md', borderColor: 'brand.muted' } : undefined}
      data-testid={`tile-${id}`}
    >
      <Stat.Label fontSize="sm">{title}</Stat.Label>
      {/* The tile is a dl: its value, loading or failed, is always the dd. */}
      {query.isPending ? (
        <Box as="dd">
          <Skeleton h="8" w="24" />
        </Box>
      ) : query.isError ? (
        <Text as="dd" color="red.600" fontSize="sm">
          {queryErrorMessage(query.error)}
        </Text>
      ) : (
        <Stat.ValueText fontSize="3xl" color="brand.fg" data-testid={`tile-${id}-value`}>
          {format(query.data)}
        </Stat.ValueText>
      )}
    </Stat.Root>
  );
  return to ? (
    <RouterLink to={to} data-testid={`tile-${id}-link`}>
      {body}
    </RouterLink>
  ) : (
    <Box>{body}</Box>
  );
}

/** Metric tiles of spec 1 §2.5; the set comes from the tenant config. */
export function DashboardTiles() {
  const tenant = useTenant();
  const profile = useProfile();
  const clientId = useClientId();
  const tiles = new Set<DashboardTile>(tenant.dashboard.tiles);
  const mtd = rangeParam(monthToDate());
  const expiring = expiringRange();
  const hasHierarchy = profile.features.some((f) => f.alias === 'hierarchy');
  const merchantId = clientId ?? profile.merchant.id;

  const chargebacks = useChargebacksMtd(clientId, tiles.has('chargebacks_mtd'));
  const fraud = useFraudPct(clientId, mtd, tiles.has('fraud_pct'));
  const expiringCount = useExpiringCount(clientId, expiring, tiles.has('expiring_72h'));
  const mids = useMidsCount(clientId, tiles.has('mids'));
  const users = useUsersCount(merchantId, tiles.has('users'));

  const chargebacksQ = { ...chargebacks, data: chargebacks.data?.count } as UseQueryResult<number>;
  const fraudQ = { ...fraud, data: fraud.data?.percent } as UseQueryResult<number>;
  const midsQ = { ...mids, data: mids.data?.count } as UseQueryResult<number>;
  const clientQs = clientId ? `&client_id=${clientId}` : '';

  return (
    <Grid
      templateColumns={{ base: '1fr', sm: 'repeat(2, 1fr)', xl: `repeat(${Math.max(tiles.size, 1)}, 1fr)` }}
      gap="4"
      data-testid="dashboard-tiles"
    >
      {tiles.has('chargebacks_mtd') && (
        <Tile
          id="chargebacks_mtd"
          title="Chargebacks This Month"
          query={chargebacksQ}
          format={formatCount}
          to={`/chargebacks?date_range=${encodeURIComponent(mtd)}${clientQs}`}
        />
      )}
      {tiles.has('fraud_pct') && (
        <Tile
          id="fraud_pct"
          title="Fraudulent Chargebacks This Month"
          query={fraudQ}
          format={(n) => formatPercent(n)}
          to={`/chargebacks?is_fraud=1&date_range=${encodeURIComponent(mtd)}${clientQs}`}
        />
      )}
      {tiles.has('expiring_72h') && (
        <Tile
          id="expiring_72h"
          title="Chargebacks Expiring Within 72 Hours"
          query={expiringCount}
          format={formatCount}
          to={`/chargebacks?status_group_id=${EXPIRING_STATUS_GROUPS}&due_date_range=${encodeURIComponent(expiring)}${clientQs}`}
        />
      )}
      {tiles.has('mids') && (
        <Tile
          id="mids"
          title={`${label(tenant, 'mid_plural', 'MIDs')}`}
          query={midsQ}
          format={formatCount}
          to={hasHierarchy ? `/merchant-hierarchy?merchant_id=${merchantId}` : undefined}
        />
      )}
      {tiles.has('recovered') && <RecoveredTile clientId={clientId} />}
      {tiles.has('users') && (
        <Tile
          id="users"
          title="Users"
          query={users}
          format={formatCount}
          to={`/users?merchant_id=${merchantId}`}
        />
      )}
    </Grid>
  );
}
