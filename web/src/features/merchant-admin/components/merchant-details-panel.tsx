import { Badge, Box, Grid, Heading, RadioGroup, Skeleton, Stack, Switch, Text } from '@chakra-ui/react';
import { Notice } from '../../../components/notice';
import { queryErrorMessage } from '../../../lib/errors';
import { label, useTenant } from '../../../lib/tenant-config';
import { useMerchant, type MerchantDetails } from '../../../lib/get-merchant';

export const UNAVAILABLE = 'Unavailable';
export const EDIT_HINT = 'Click the edit button to modify';
export const SERVICE_LEVELS: { id: number; name: string }[] = [
  { id: 1, name: 'Basic Service' },
  { id: 5, name: 'Pro Service' },
  { id: 3, name: 'Full Service' },
];
const DEFLECTOR_STATUS: Record<number, string> = { 1: 'Inactive', 2: 'Pending Activation', 3: 'Active' };

const orUnavailable = (v: unknown) => (v === null || v === undefined || v === '' ? UNAVAILABLE : String(v));
const idOf = (v: { id: number } | number | null | undefined) => (typeof v === 'number' ? v : (v?.id ?? null));

function formatDate(s?: string | null): string {
  if (!s) return UNAVAILABLE;
  const d = new Date(s);
  return Number.isNaN(d.getTime())
    ? s
    : d.toLocaleDateString('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' });
}

function Row({ name, value }: { name: string; value: string }) {
  return (
    <Box>
      <Text fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
        {name}
      </Text>
      <Text fontWeight="medium" color={value === UNAVAILABLE ? 'fg.subtle' : undefined} data-field={name}>
        {value}
      </Text>
    </Box>
  );
}

function Toggle({ name, checked }: { name: string; checked: boolean }) {
  return (
    <Switch.Root checked={checked} disabled colorPalette="brand" title={EDIT_HINT}>
      <Switch.HiddenInput />
      <Switch.Control />
      <Switch.Label>
        {name}: {checked ? 'On' : 'Off'}
      </Switch.Label>
    </Switch.Root>
  );
}

/** Read-only merchant details (spec 1 §2.6); parentName comes from a second merchant call. */
export function MerchantDetailsView({
  merchant,
  parentName,
}: {
  merchant: MerchantDetails;
  parentName: string | null;
}) {
  const tenant = useTenant();
  const country = typeof merchant.country === 'string' ? merchant.country : merchant.country?.name;
  const c = merchant.contact ?? {};
  const level = idOf(merchant.service_level);
  const levels = SERVICE_LEVELS.filter((l) => tenant.service_levels.includes(l.id) || l.id === level);
  const issuerDocs = merchant.features?.some((f) => f.id === 1);
  return (
    <Stack gap="6" data-testid="merchant-details">
      <Stack direction="row" align="center" gap="3">
        <Heading size="lg">{merchant.business_name}</Heading>
        <Badge colorPalette={idOf(merchant.status) === 1 ? 'green' : 'gray'} data-testid="merchant-status">
          {idOf(merchant.status) === 1 ? 'Active' : 'Inactive'}
        </Badge>
      </Stack>
      <Grid templateColumns={{ base: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' }} gap="4">
        <Row name="Overall Status" value={idOf(merchant.status) === 1 ? 'Active' : 'Inactive'} />
        <Row name="Merchant Name" value={orUnavailable(merchant.business_name)} />
        <Row name="Merchant Parent Name" value={orUnavailable(parentName)} />
        <Row
          name={label(tenant, 'partner_company_id', 'Partner Company ID')}
          value={orUnavailable(merchant.partner_company_id)}
        />
        <Row name="Date Onboarded" value={formatDate(merchant.date_created)} />
        <Row name="Business Address" value={orUnavailable(merchant.business_address)} />
        <Row name="City" value={orUnavailable(merchant.city)} />
        <Row name="Region/State" value={orUnavailable(merchant.state)} />
        <Row name="Postal/Zip Code" value={orUnavailable(merchant.zip)} />
        <Row name="Country" value={orUnavailable(country)} />
        <Row name="Business Phone" value={orUnavailable(merchant.business_phone)} />
      </Grid>
      <Box>
        <Heading size="sm" mb="3">
          Contact
        </Heading>
        <Grid templateColumns={{ base: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' }} gap="4">
          <Row name="Username" value={orUnavailable(c.username)} />
          <Row name="First Name" value={orUnavailable(c.fname)} />
          <Row name="Last Name" value={orUnavailable(c.lname)} />
          <Row name="Phone" value={orUnavailable(c.phone_number)} />
          <Row name="Email" value={orUnavailable(c.email)} />
        </Grid>
      </Box>
      <Stack gap="3">
        <Text fontSize="sm" color="fg.muted" data-testid="edit-hint">
          {EDIT_HINT}
        </Text>
        <Toggle name="Direct API" checked={!!merchant.direct_api} />
        {merchant.features !== undefined && <Toggle name="Issuer Docs" checked={!!issuerDocs} />}
        <Box>
          <Text fontWeight="medium" mb="2">
            Merchant Service Level
          </Text>
          <RadioGroup.Root
            value={level != null ? String(level) : null}
            disabled
            colorPalette="brand"
            title={EDIT_HINT}
          >
            <Stack direction={{ base: 'column', md: 'row' }} gap="5">
              {levels.map((l) => (
                <RadioGroup.Item key={l.id} value={String(l.id)}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>{l.name}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </Stack>
          </RadioGroup.Root>
        </Box>
        {merchant.deflectors && merchant.deflectors.length > 0 && (
          <Box>
            <Text fontWeight="medium" mb="2">
              Deflectors
            </Text>
            <Stack gap="2">
              {merchant.deflectors.map((d) => (
                <Toggle
                  key={d.id}
                  name={`${d.name} (${DEFLECTOR_STATUS[idOf(d.status) ?? 1] ?? 'Inactive'})`}
                  checked={idOf(d.status) === 3}
                />
              ))}
            </Stack>
          </Box>
        )}
      </Stack>
    </Stack>
  );
}

/** Loads a merchant and its parent's name, then shows the details. Reusable by the hierarchy screens. */
export function MerchantDetailsPanel({ merchantId }: { merchantId: number }) {
  const merchant = useMerchant(merchantId);
  const parent = useMerchant(merchant.data?.parent_id ?? null);
  if (merchant.isPending) return <Skeleton h="64" borderRadius="lg" />;
  if (merchant.isError) return <Notice status="error">{queryErrorMessage(merchant.error)}</Notice>;
  return <MerchantDetailsView merchant={merchant.data} parentName={parent.data?.business_name ?? null} />;
}
