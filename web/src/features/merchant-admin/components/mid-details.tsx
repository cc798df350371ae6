import { Badge, Box, Button, Flex, Grid, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { MID_HISTORY_ROLES, type MidDetail } from '@portal/contracts';
import { Notice } from '../../../components/notice';
import { queryErrorMessage } from '../../../lib/errors';
import { useMid } from '../api/merchant-admin-api';
import { MA_TEXT } from '../lib/texts';
import { RdrRuleModal } from './rdr-rule-modal';

const DEFLECTOR_STATUS: Record<number, string> = { 1: 'Inactive', 2: 'Pending Activation', 3: 'Active' };
const show = (v: unknown) => (v === null || v === undefined || v === '' ? MA_TEXT.unavailable : String(v));
const date = (s: string) =>
  new Date(s).toLocaleDateString('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' });

function Row({ name, value }: { name: string; value: string }) {
  return (
    <Box>
      <Text fontSize="xs" color="fg.muted" textTransform="uppercase">
        {name}
      </Text>
      <Text fontWeight="medium" data-field={name}>
        {value}
      </Text>
    </Box>
  );
}

/**
 * MID Details (spec 3 §2): Status is Active only for status id 2; without
 * MS_VIEW_DETAILS a reduced view (id, alias, Date Onboard, Status, Service Level).
 */
export function MidDetails({
  midId,
  full,
  canEdit,
  canEditRdr,
  roles,
  onEdit,
  onHistory,
}: {
  midId: number;
  full: boolean;
  canEdit: boolean;
  canEditRdr: boolean;
  roles: string[];
  onEdit: (mid: MidDetail) => void;
  onHistory: () => void;
}) {
  const q = useMid(midId);
  const [rdrOpen, setRdrOpen] = useState(false);
  if (q.isError) return <Notice status="error">{queryErrorMessage(q.error)}</Notice>;
  if (!q.data) return <Skeleton height="200px" />;
  const m = q.data;
  const historyAllowed = roles.some((r) =>
    (MID_HISTORY_ROLES as readonly string[]).includes(r.toLowerCase()),
  );
  const status = m.status.id === 2 ? 'Active' : 'Inactive';
  return (
    <Stack gap="4" data-testid="mid-details">
      <Flex align="center" gap="2">
        <Heading size="md" flex="1">
          MID Details
        </Heading>
        {canEdit && (
          <Button size="sm" colorPalette="brand" onClick={() => onEdit(m)}>
            Edit MID
          </Button>
        )}
        {historyAllowed ? (
          <Button size="sm" variant="outline" onClick={onHistory}>
            MID History
          </Button>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            {MA_TEXT.notAvailable}
          </Text>
        )}
      </Flex>
      <Grid templateColumns={{ base: '1fr', md: 'repeat(3, 1fr)' }} gap="4">
        <Row name="Status" value={status} />
        {full ? <Row name="MID" value={m.mid} /> : <Row name="ID" value={String(m.id)} />}
        <Row name="Alias" value={show(m.alias)} />
        {full && <Row name="MID Descriptor" value={show(m.descriptor?.descriptor)} />}
        {full && <Row name="Platform" value={show(m.processor?.name)} />}
        {full && <Row name="MCC" value={show(m.mcc)} />}
        {full && <Row name="CAID" value={show(m.caid)} />}
        <Row name="MID Service Level" value={show(m.service_level.name)} />
        <Row name="Date Onboarded" value={date(m.date_created)} />
      </Grid>
      {full && (
        <Flex gap="2" wrap="wrap">
          {m.deflectors.map((d) => (
            <Flex key={d.id} gap="1" align="center">
              <Badge colorPalette={d.status.id === 3 ? 'green' : d.status.id === 2 ? 'orange' : 'gray'}>
                {d.name}: {DEFLECTOR_STATUS[d.status.id] ?? MA_TEXT.unavailable}
              </Badge>
              {/* Edit RDR: a verifi_rdr deflector that is pending or active, with EDIT_RDR. */}
              {canEditRdr && d.alias === 'verifi_rdr' && (d.status.id === 2 || d.status.id === 3) && (
                <Button size="xs" variant="outline" onClick={() => setRdrOpen(true)}>
                  Edit RDR
                </Button>
              )}
            </Flex>
          ))}
        </Flex>
      )}
      {rdrOpen && <RdrRuleModal owner={{ kind: 'mids', id: m.id }} onClose={() => setRdrOpen(false)} />}
    </Stack>
  );
}
