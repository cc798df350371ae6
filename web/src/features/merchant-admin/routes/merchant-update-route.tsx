import { Box, Skeleton } from '@chakra-ui/react';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { queryErrorMessage } from '../../../lib/errors';
import { useMerchant } from '../../../lib/get-merchant';
import { MerchantForm } from '../components/merchant-form';
import { MA_TEXT } from '../lib/texts';

/** /merchant/update/{merchantId}: Edit Merchant on its own page (breadcrumb 'Add/Edit Merchant'). */
export default function MerchantUpdateRoute() {
  const id = Number(useParams().merchantId) || null;
  const merchant = useMerchant(id);
  const parent = useMerchant(merchant.data?.parent_id ?? null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Page maxW="900px">
      <PageHeader
        title="Edit Merchant"
        breadcrumb={[
          { label: 'Merchant Hierarchies', to: '/merchant-hierarchy' },
          { label: 'Add/Edit Merchant' },
        ]}
      />
      {notice && <Notice status="success">{notice}</Notice>}
      {merchant.isError && <Notice status="error">{queryErrorMessage(merchant.error)}</Notice>}
      {merchant.data?.isRootMerchant && <Notice status="info">{MA_TEXT.rootReadOnly}</Notice>}
      {!merchant.data && !merchant.isError && <Skeleton height="400px" />}
      {merchant.data && !merchant.data.isRootMerchant && (
        <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 4, md: 6 }}>
          <MerchantForm
            merchant={merchant.data}
            parent={{ id: merchant.data.parent_id ?? 0, name: parent.data?.business_name ?? '' }}
            onSaved={setNotice}
          />
        </Box>
      )}
    </Page>
  );
}
