import { Box, Button, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import type { MidDetail } from '@portal/contracts';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Page, PageHeader } from '../../../components/page-header';
import { useProfile } from '../../../lib/auth/auth-context';
import { hasResource } from '../../../lib/auth/resources';
import { useTenant } from '../../../lib/tenant-config';
import type { Selection } from '../components/merchant-tree';
import { useMerchantTreePanel } from '../components/merchant-tree-panel';
import { MerchantUsersGrid } from '../components/merchant-users-grid';
import { MidDetails } from '../components/mid-details';
import { MidForm } from '../components/mid-form';
import { MidHistoryDialog } from '../components/mid-history-dialog';
import { MidsGrid } from '../components/mids-grid';
import { ResponsivePanel } from '../components/responsive-panel';
import { useMerchantSettingsSlots } from '../lib/merchant-settings-slots';
import { MA_TEXT } from '../lib/texts';

/**
 * /merchant-settings, the grid view of the merchant hierarchy (spec 3 §2):
 * the tree picks a merchant; its MIDs grid (50 a page, Alert Actions and
 * exports), the MID Details panel of the row clicked and the merchant's users.
 */
export default function MerchantSettingsRoute() {
  const profile = useProfile();
  const tenant = useTenant();
  const { tree, view: treeView } = useMerchantTreePanel();
  const { ConnectionsPanel } = useMerchantSettingsSlots();
  const [selected, setSelected] = useState<Selection | null>(null);
  const [activeMid, setActiveMid] = useState<number | null>(null);
  const [editing, setEditing] = useState<MidDetail | null>(null);
  const [historyFor, setHistoryFor] = useState<number | null>(null);
  const writable = !profile.is_read_only;
  const can = (r: string) => writable && hasResource(profile, r);

  const merchantId =
    selected?.kind === 'merchant'
      ? selected.id
      : selected?.kind === 'mid'
        ? selected.merchantId
        : tree.data?.root.id;
  const select = (s: Selection) => {
    setSelected(s);
    setActiveMid(s.kind === 'mid' ? s.id : null);
  };

  return (
    <Page>
      <PageHeader
        title="Merchant Settings"
        actions={
          tenant.flags.SHOW_AG_SWITCHER && (
            <Button asChild size="sm" variant="ghost">
              <RouterLink to="/merchant-hierarchy">Tree View</RouterLink>
            </Button>
          )
        }
      />
      <Grid templateColumns={{ base: '1fr', xl: '320px 1fr' }} gap="4">
        {treeView(selected, select)}
        <Stack gap="4" minW="0">
          <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 3, md: 4 }}>
            {merchantId === undefined ? (
              <Text color="fg.muted">Loading…</Text>
            ) : (
              <MidsGrid
                merchantId={merchantId}
                activeMid={activeMid}
                onOpenMid={setActiveMid}
                writable={writable}
              />
            )}
          </Box>
          <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="4">
            <Box
              bg="white"
              borderRadius="lg"
              borderWidth="1px"
              p={{ base: 3, md: 4 }}
              data-testid="mid-details-panel"
            >
              <Heading size="md" mb="3">
                MID Details
              </Heading>
              {activeMid === null ? (
                <Text color="fg.muted">{MA_TEXT.selectMid}</Text>
              ) : (
                <MidDetails
                  midId={activeMid}
                  full={hasResource(profile, 'MS_VIEW_DETAILS')}
                  canEdit={can('EDIT_MID')}
                  canEditRdr={can('EDIT_RDR')}
                  roles={[profile.role, ...profile.roles]}
                  onEdit={setEditing}
                  onHistory={() => setHistoryFor(activeMid)}
                />
              )}
            </Box>
            <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 3, md: 4 }}>
              {merchantId !== undefined && <MerchantUsersGrid merchantId={merchantId} />}
            </Box>
          </Grid>
          {ConnectionsPanel && merchantId !== undefined && <ConnectionsPanel merchantId={merchantId} />}
        </Stack>
      </Grid>
      <ResponsivePanel
        open={editing !== null}
        title="Edit MID"
        onClose={() => setEditing(null)}
        testId="mid-panel"
      >
        {editing && (
          <MidForm mid={editing} merchantId={editing.merchant_id} onSaved={() => setEditing(null)} />
        )}
      </ResponsivePanel>
      {historyFor !== null && (
        <MidHistoryDialog midId={historyFor} open onClose={() => setHistoryFor(null)} />
      )}
    </Page>
  );
}
