import {
  Box,
  Button,
  Checkbox,
  Field,
  Grid,
  Heading,
  NativeSelect,
  RadioGroup,
  Stack,
  Switch,
} from '@chakra-ui/react';
import { FORM_SERVICE_LEVELS, type MerchantCreateBody } from '@portal/contracts';
import { useMemo, useState } from 'react';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { serverMessage } from '../../../lib/errors';
import type { MerchantDetails } from '../../../lib/get-merchant';
import { useLookup, useSaveMerchant } from '../api/merchant-admin-api';
import { MA_TEXT } from '../lib/texts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LEVEL_NAMES: Record<number, string> = { 1: 'Basic', 5: 'Pro', 3: 'Full' };

export interface MerchantFormValues {
  status: boolean;
  merchantBusinessName: string;
  merchantAlias: string;
  parentId: number | null;
  merchantParentName: string;
  partnerCompanyId: string;
  businessAddress: string;
  businessCity: string;
  businessCountry: string;
  businessRegionOrState: string;
  businessZipCode: string;
  businessPhone: string;
  directAPI: boolean;
  merchantServiceLevel: number;
  deflectors: number[];
  addContactInfo: boolean;
  fname: string;
  lname: string;
  email: string;
  phone_number: string;
}

/** The spec's checks (spec 3 §5 'Merchant form'); the server checks them again. */
export function validateMerchantForm(
  v: MerchantFormValues,
): Partial<Record<keyof MerchantFormValues, string>> {
  const e: Partial<Record<keyof MerchantFormValues, string>> = {};
  const req = [
    'merchantBusinessName',
    'merchantParentName',
    'businessAddress',
    'businessRegionOrState',
    'businessZipCode',
    'businessCity',
    'businessCountry',
    'businessPhone',
  ] as const;
  for (const k of req) if (!v[k].trim()) e[k] = MA_TEXT.required;
  if (!v.merchantServiceLevel) e.merchantServiceLevel = MA_TEXT.required;
  if (v.addContactInfo && v.email.trim() && !EMAIL.test(v.email.trim())) e.email = MA_TEXT.email;
  return e;
}

function initial(m: MerchantDetails | null, parent: { id: number; name: string }): MerchantFormValues {
  const country = m?.country;
  const sl = m?.service_level;
  return {
    status: m ? (m.status?.id ?? 1) === 1 : true,
    merchantBusinessName: m?.business_name ?? '',
    merchantAlias: m?.alias ?? '',
    parentId: m ? (m.parent_id ?? null) : parent.id,
    merchantParentName: parent.name,
    partnerCompanyId: m?.partner_company_id != null ? String(m.partner_company_id) : '',
    businessAddress: m?.business_address ?? '',
    businessCity: m?.city ?? '',
    businessCountry: typeof country === 'string' ? country : (country?.name ?? ''),
    businessRegionOrState: m?.state ?? '',
    businessZipCode: m?.zip ?? '',
    businessPhone: m?.business_phone ?? '',
    directAPI: m?.direct_api ?? false,
    merchantServiceLevel: (typeof sl === 'number' ? sl : sl?.id) ?? 1,
    deflectors: (m?.deflectors ?? [])
      .filter((d) => {
        const s = typeof d.status === 'number' ? d.status : d.status?.id;
        return s === 2 || s === 3;
      })
      .map((d) => d.id),
    addContactInfo: !!(
      m?.contact &&
      (m.contact.fname || m.contact.lname || m.contact.email || m.contact.phone_number)
    ),
    fname: m?.contact?.fname ?? '',
    lname: m?.contact?.lname ?? '',
    email: m?.contact?.email ?? '',
    phone_number: m?.contact?.phone_number ?? '',
  };
}

/** Body of POST/PATCH /cm/merchants: contact only when filled, alias only when non-empty. */
export function merchantBody(
  v: MerchantFormValues,
  countries: { name: string; code?: string }[],
): MerchantCreateBody {
  const country = countries.find((c) => c.name === v.businessCountry || c.code === v.businessCountry);
  const contactFilled = v.addContactInfo && [v.fname, v.lname, v.email, v.phone_number].some((x) => x.trim());
  return {
    business_name: v.merchantBusinessName.trim(),
    ...(v.merchantAlias.trim() ? { alias: v.merchantAlias.trim() } : {}),
    ...(v.parentId !== null ? { parent_id: v.parentId } : {}),
    partner_company_id: v.partnerCompanyId.trim() || null,
    business_address: v.businessAddress.trim(),
    city: v.businessCity.trim(),
    state: v.businessRegionOrState.trim(),
    zip: v.businessZipCode.trim(),
    country: country?.code ?? v.businessCountry,
    business_phone: v.businessPhone.trim(),
    direct_api: v.directAPI,
    service_level_id: v.merchantServiceLevel,
    status_id: v.status ? 1 : 2,
    deflectors: v.deflectors.map((id) => ({ id })),
    ...(contactFilled
      ? {
          contact: {
            fname: v.fname.trim() || null,
            lname: v.lname.trim() || null,
            email: v.email.trim() || null,
            phone_number: v.phone_number.trim() || null,
          },
        }
      : {}),
  };
}

/** An edit sends deflectors only when a switch moved (a MID's deflector also lights the merchant's). */
function withoutUnchangedDeflectors(
  body: MerchantCreateBody,
  v: MerchantFormValues,
  start: MerchantFormValues,
  editing: boolean,
): MerchantCreateBody {
  if (!editing || JSON.stringify([...v.deflectors].sort()) !== JSON.stringify([...start.deflectors].sort()))
    return body;
  const { deflectors: _unchanged, ...rest } = body;
  return rest;
}

/** Add Merchant / Edit Merchant (spec 3 §2 'Add/Edit Merchant form'). */
export function MerchantForm({
  merchant,
  parent,
  onSaved,
}: {
  merchant: MerchantDetails | null;
  parent: { id: number; name: string };
  onSaved: (message: string) => void;
}) {
  const start = useMemo(() => initial(merchant, parent), [merchant, parent.id, parent.name]); // eslint-disable-line react-hooks/exhaustive-deps
  const [state, setV] = useState(start);
  // The parent's name may load after the form opens: always show the current one.
  const v = { ...state, merchantParentName: parent.name };
  const [touched, setTouched] = useState<Partial<Record<keyof MerchantFormValues, boolean>>>({});
  const [error, setError] = useState<string | null>(null);
  const countries = useLookup('countries');
  const deflectors = useLookup('deflectors');
  const save = useSaveMerchant();
  const errors = validateMerchantForm(v);
  const valid = Object.keys(errors).length === 0;
  const changed = JSON.stringify(v) !== JSON.stringify(start);
  const hadContact = merchant !== null && start.addContactInfo;
  const set = <K extends keyof MerchantFormValues>(k: K, val: MerchantFormValues[K]) => {
    setV((o) => ({ ...o, [k]: val }));
    setTouched((t) => ({ ...t, [k]: true }));
  };
  const err = (k: keyof MerchantFormValues) => (touched[k] ? errors[k] : undefined);
  const text = (k: keyof MerchantFormValues, label: string) => (
    <TextField
      label={label}
      name={k}
      value={String(v[k] ?? '')}
      onChange={(x) => set(k, x as never)}
      onBlur={() => setTouched((t) => ({ ...t, [k]: true }))}
      error={err(k)}
    />
  );

  const submit = () => {
    setError(null);
    save.mutate(
      {
        id: merchant?.id ?? null,
        body: withoutUnchangedDeflectors(
          merchantBody(v, countries.data?.data ?? []),
          v,
          start,
          merchant !== null,
        ),
      },
      {
        onSuccess: () => onSaved(merchant ? MA_TEXT.merchantUpdated : MA_TEXT.merchantAdded),
        onError: (e) => setError(serverMessage((e as { body?: unknown }).body, MA_TEXT.generic)),
      },
    );
  };

  return (
    <Stack gap="4" data-testid="merchant-form">
      <Heading size="sm">Merchant Details</Heading>
      <Switch.Root checked={v.status} onCheckedChange={(e) => set('status', e.checked)} name="status">
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>Status (Active)</Switch.Label>
      </Switch.Root>
      <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap="3">
        {text('merchantBusinessName', 'Business Name')}
        {text('merchantAlias', 'Alias (optional)')}
        <TextField
          label="Parent Name"
          name="merchantParentName"
          value={v.merchantParentName}
          onChange={() => {}}
          disabled
        />
        {text('partnerCompanyId', 'Partner Company ID (optional)')}
        {text('businessAddress', 'Business Address')}
        {text('businessCity', 'City')}
        <Field.Root invalid={!!err('businessCountry')}>
          <Field.Label>Country</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="businessCountry"
              value={v.businessCountry}
              onChange={(e) => set('businessCountry', e.target.value)}
            >
              <option value="">Select a country</option>
              {(countries.data?.data ?? []).map((c) => (
                <option key={c.id} value={c.name}>
                  {c.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.ErrorText>{err('businessCountry')}</Field.ErrorText>
        </Field.Root>
        {text('businessRegionOrState', 'Region/State')}
        {text('businessZipCode', 'Postal/Zip Code')}
        {text('businessPhone', 'Business Phone')}
      </Grid>
      <Switch.Root
        checked={v.directAPI}
        onCheckedChange={(e) => set('directAPI', e.checked)}
        name="directAPI"
      >
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>Direct API</Switch.Label>
      </Switch.Root>
      <Field.Root>
        <Field.Label>Merchant Service Level</Field.Label>
        <RadioGroup.Root
          value={String(v.merchantServiceLevel)}
          onValueChange={(e) => set('merchantServiceLevel', Number(e.value))}
        >
          <Stack direction="row" gap="4">
            {FORM_SERVICE_LEVELS.map((id) => (
              <RadioGroup.Item key={id} value={String(id)}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{LEVEL_NAMES[id]}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </Stack>
        </RadioGroup.Root>
      </Field.Root>
      <Box>
        <Heading size="xs" mb="2">
          Deflectors
        </Heading>
        <Stack gap="2">
          {(deflectors.data?.data ?? []).map((d) => (
            <Switch.Root
              key={d.id}
              checked={v.deflectors.includes(d.id)}
              onCheckedChange={(e) =>
                set(
                  'deflectors',
                  e.checked ? [...v.deflectors, d.id] : v.deflectors.filter((x) => x !== d.id),
                )
              }
            >
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>{d.name}</Switch.Label>
            </Switch.Root>
          ))}
        </Stack>
      </Box>
      <Checkbox.Root
        checked={v.addContactInfo}
        disabled={v.addContactInfo || hadContact}
        onCheckedChange={(e) => set('addContactInfo', !!e.checked)}
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>Add Contact Information</Checkbox.Label>
      </Checkbox.Root>
      {v.addContactInfo && (
        <Box>
          <Heading size="xs" mb="2">
            Main Admin User
          </Heading>
          <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap="3">
            {text('fname', 'First Name')}
            {text('lname', 'Last Name')}
            {text('email', 'Email')}
            {text('phone_number', 'Phone Number')}
          </Grid>
        </Box>
      )}
      {error && <Notice status="error">{error}</Notice>}
      <Button colorPalette="brand" onClick={submit} disabled={!valid || !changed} loading={save.isPending}>
        Submit
      </Button>
    </Stack>
  );
}
