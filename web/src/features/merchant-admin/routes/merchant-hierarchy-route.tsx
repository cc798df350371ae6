import { Box, Button, Flex, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import type { MidDetail } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { useProfile } from '../../../lib/auth/auth-context';
import { useTenant } from '../../../lib/tenant-config';
import { hasResource } from '../../../lib/auth/resources';
import { queryErrorMessage } from '../../../lib/errors';
import { useMerchant } from '../../../lib/get-merchant';
import { MerchantDetailsPanel } from '../components/merchant-details-panel';
import { MerchantForm } from '../components/merchant-form';
import type { Selection } from '../components/merchant-tree';
import { useMerchantTreePanel } from '../components/merchant-tree-panel';
import { MidDetails } from '../components/mid-details';
import { MidForm } from '../components/mid-form';
import { MidHistoryDialog } from '../components/mid-history-dialog';
import { MerchantUsersGrid } from '../components/merchant-users-grid';
import { MidUploadDialog } from '../components/mid-upload-dialog';
import { ResponsivePanel } from '../components/responsive-panel';
import { MA_TEXT } from '../lib/texts';

type Panel =
  | { kind: 'add-merchant'; parent: { id: number; name: string } }
  | { kind: 'edit-merchant'; id: number; parent: { id: number; name: string } }
  | { kind: 'add-mid'; merchantId: number }
  | { kind: 'edit-mid'; mid: MidDetail };

/** /merchant-hierarchy (spec 3 §2 Merchant Hierarchy, tree view). */
export default function MerchantHierarchyRoute() {
  const profile = useProfile();
  const tenant = useTenant();
  const [params, setParams] = useSearchParams();
  const tileMerchant = Number(params.get('mids_tile_clicked')) || undefined;
  const { tree, view: treeView } = useMerchantTreePanel(tileMerchant);
  const [selected, setSelected] = useState<Selection | null>(null);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [historyFor, setHistoryFor] = useState<number | null>(null);
  const [uploadFor, setUploadFor] = useState<{ id: number; name: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const writable = !profile.is_read_only;
  const can = (r: string) => writable && hasResource(profile, r);
  const fullDetails = hasResource(profile, 'MS_VIEW_DETAILS');

  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => setNotice(null), 3000);
    return () => clearTimeout(t);
  }, [notice]);

  const root = tree.data?.root;
  const merchantId =
    selected?.kind === 'merchant' ? selected.id : selected?.kind === 'mid' ? selected.merchantId : root?.id;
  const selectedMerchant = useMerchant(selected?.kind === 'merchant' ? selected.id : null);
  const isRoot = selectedMerchant.data?.isRootMerchant ?? selected?.id === root?.id;
  const parentName = useMerchant(selectedMerchant.data?.parent_id ?? null).data?.business_name ?? '';
  const merchantName =
    selected?.kind === 'merchant' ? selected.name : (root && merchantId === root.id ? root.label : '') || '';

  const saved = (message: string) => {
    setNotice(message);
    setPanel(null);
  };

  return (
    <Page>
      <PageHeader
        title="Merchant Hierarchies"
        actions={
          <>
            {tenant.flags.SHOW_AG_SWITCHER && (
              <Button asChild size="sm" variant="ghost" data-testid="grid-view-switch">
                <RouterLink to="/merchant-settings">Grid View</RouterLink>
              </Button>
            )}
            {can('CREATE_MERCHANT') && merchantId !== undefined && (
              <Button
                size="sm"
                colorPalette="brand"
                onClick={() =>
                  setPanel({ kind: 'add-merchant', parent: { id: merchantId, name: merchantName } })
                }
              >
                Add Merchant
              </Button>
            )}
            {can('CREATE_MID') && merchantId !== undefined && (
              <Button size="sm" variant="outline" onClick={() => setPanel({ kind: 'add-mid', merchantId })}>
                Add MID
              </Button>
            )}
            {can('CREATE_MID') && merchantId !== undefined && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => setUploadFor({ id: merchantId, name: merchantName })}
              >
                Upload MIDs
              </Button>
            )}
          </>
        }
      />
      {notice && (
        <Box mb="3">
          <Notice status="success" testId="merchant-admin-notice">
            {notice}
          </Notice>
        </Box>
      )}
      {tileMerchant && (
        <Button
          size="sm"
          variant="outline"
          mb="3"
          onClick={() => {
            params.delete('mids_tile_clicked');
            setParams(params);
          }}
        >
          {MA_TEXT.reloadAll}
        </Button>
      )}
      {tree.isError && <Notice status="error">{queryErrorMessage(tree.error)}</Notice>}
      <Grid templateColumns={{ base: '1fr', lg: '360px 1fr' }} gap="4">
        {treeView(selected, setSelected)}
        <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 4, md: 6 }}>
          {selected?.kind === 'mid' ? (
            <MidDetails
              midId={selected.id}
              full={fullDetails}
              canEdit={can('EDIT_MID')}
              canEditRdr={can('EDIT_RDR')}
              roles={[profile.role, ...profile.roles]}
              onEdit={(mid) => setPanel({ kind: 'edit-mid', mid })}
              onHistory={() => setHistoryFor(selected.id)}
            />
          ) : selected?.kind === 'merchant' && fullDetails ? (
            <Stack gap="3">
              <Flex align="center">
                <Heading size="md" flex="1">
                  Merchant Details
                </Heading>
                {hasResource(profile, 'EDIT_MERCHANT') && (
                  <Button
                    size="sm"
                    colorPalette="brand"
                    disabled={!writable || isRoot || !selectedMerchant.data}
                    onClick={() =>
                      setPanel({
                        kind: 'edit-merchant',
                        id: selected.id,
                        parent: { id: selectedMerchant.data?.parent_id ?? 0, name: parentName },
                      })
                    }
                  >
                    Edit
                  </Button>
                )}
              </Flex>
              <MerchantDetailsPanel merchantId={selected.id} />
            </Stack>
          ) : (
            <Text color="fg.muted">
              {fullDetails ? 'Select a merchant or a MID.' : MA_TEXT.selectMidNote}
            </Text>
          )}
          {merchantId !== undefined && (
            <Box mt="6">
              <MerchantUsersGrid merchantId={merchantId} />
            </Box>
          )}
        </Box>
      </Grid>
      <ResponsivePanel
        open={panel?.kind === 'add-merchant' || panel?.kind === 'edit-merchant'}
        title={panel?.kind === 'edit-merchant' ? 'Edit Merchant' : 'Add Merchant'}
        onClose={() => setPanel(null)}
        testId="merchant-panel"
      >
        {panel?.kind === 'add-merchant' && (
          <MerchantForm merchant={null} parent={panel.parent} onSaved={saved} />
        )}
        {panel?.kind === 'edit-merchant' && selectedMerchant.data && (
          <MerchantForm merchant={selectedMerchant.data} parent={panel.parent} onSaved={saved} />
        )}
      </ResponsivePanel>
      <ResponsivePanel
        open={panel?.kind === 'add-mid' || panel?.kind === 'edit-mid'}
        title={panel?.kind === 'edit-mid' ? 'Edit MID' : 'Add MID'}
        onClose={() => setPanel(null)}
        testId="mid-panel"
      >
        {panel?.kind === 'add-mid' && (
          <MidForm
            mid={null}
            merchantId={panel.merchantId}
            onSaved={(message, mid) => {
              saved(message);
              setSelected({ kind: 'mid', id: mid.id, merchantId: mid.merchant_id });
            }}
          />
        )}
        {panel?.kind === 'edit-mid' && (
          <MidForm mid={panel.mid} merchantId={panel.mid.merchant_id} onSaved={(message) => saved(message)} />
        )}
      </ResponsivePanel>
      {uploadFor && <MidUploadDialog merchant={uploadFor} onClose={() => setUploadFor(null)} />}
      {historyFor !== null && (
        <MidHistoryDialog midId={historyFor} open onClose={() => setHistoryFor(null)} />
      )}
    </Page>
  );
}
