import { Box, Button, Field, Grid, Heading, NativeSelect, Stack, Switch } from '@chakra-ui/react';
import type { MidCreateBody, MidDetail } from '@portal/contracts';
import { useMemo, useState } from 'react';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { serverMessage } from '../../../lib/errors';
import { useLookup, useSaveMid } from '../api/merchant-admin-api';
import { MA_TEXT } from '../lib/texts';

export interface MidFormValues {
  mid: string;
  alias: string;
  descriptor: string;
  processor_id: number;
  service_level_id: number;
  mcc: string;
  caid: string;
  status: boolean;
  deflectors: number[];
  inherit_merchant_deflectors: boolean;
}

/** spec 3 §5 'MID form': mid, alias, descriptor, service level required; platform a positive number. */
export function validateMidForm(v: MidFormValues) {
  const e: Partial<Record<keyof MidFormValues, string>> = {};
  for (const k of ['mid', 'alias', 'descriptor'] as const) if (!v[k].trim()) e[k] = MA_TEXT.required;
  if (!(v.service_level_id > 0)) e.service_level_id = MA_TEXT.required;
  if (!(v.processor_id > 0)) e.processor_id = MA_TEXT.required;
  return e;
}

const activeIds = (mid: MidDetail | null) =>
  (mid?.deflectors ?? []).filter((d) => d.status.id === 2 || d.status.id === 3).map((d) => d.id);

/** Add/Edit MID; new MIDs default to status on (2). */
export function MidForm({
  mid,
  merchantId,
  onSaved,
}: {
  mid: MidDetail | null;
  merchantId: number;
  onSaved: (message: string, saved: MidDetail) => void;
}) {
  const start = useMemo<MidFormValues>(
    () => ({
      mid: mid?.mid ?? '',
      alias: mid?.alias ?? '',
      descriptor: mid?.descriptor?.descriptor ?? '',
      processor_id: mid?.processor?.id ?? 0,
      service_level_id: mid?.service_level.id ?? 1,
      mcc: mid?.mcc ?? '',
      caid: mid?.caid ?? '',
      status: mid ? mid.status.id === 2 : true,
      deflectors: activeIds(mid),
      inherit_merchant_deflectors: mid?.inherit_merchant_deflectors ?? false,
    }),
    [mid],
  );
  const [v, setV] = useState(start);
  const [touched, setTouched] = useState<Partial<Record<keyof MidFormValues, boolean>>>({});
  const [error, setError] = useState<string | null>(null);
  const processors = useLookup('processors');
  const levels = useLookup('service-levels');
  const deflectors = useLookup('deflectors');
  const save = useSaveMid();
  const errors = validateMidForm(v);
  const valid = Object.keys(errors).length === 0;
  const changed = JSON.stringify(v) !== JSON.stringify(start);
  const set = <K extends keyof MidFormValues>(k: K, val: MidFormValues[K]) => {
    setV((o) => ({ ...o, [k]: val }));
    setTouched((t) => ({ ...t, [k]: true }));
  };
  const err = (k: keyof MidFormValues) => (touched[k] ? errors[k] : undefined);
  const text = (k: 'mid' | 'alias' | 'descriptor' | 'mcc' | 'caid', label: string) => (
    <TextField
      label={label}
      name={k}
      value={v[k]}
      onChange={(x) => set(k, x)}
      onBlur={() => setTouched((t) => ({ ...t, [k]: true }))}
      error={err(k)}
    />
  );
  const select = (
    k: 'processor_id' | 'service_level_id',
    label: string,
    options: { id: number; name: string }[],
  ) => (
    <Field.Root invalid={!!err(k)}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field name={k} value={String(v[k])} onChange={(e) => set(k, Number(e.target.value))}>
          <option value="0">Select…</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Field.ErrorText>{err(k)}</Field.ErrorText>
    </Field.Root>
  );

  const submit = () => {
    setError(null);
    const body: MidCreateBody = {
      mid: v.mid.trim(),
      alias: v.alias.trim(),
      descriptor: v.descriptor.trim(),
      processor_id: v.processor_id,
      service_level_id: v.service_level_id,
      status_id: v.status ? 2 : 3,
      mcc: v.mcc.trim() || null,
      caid: v.caid.trim() || null,
      inherit_merchant_deflectors: v.inherit_merchant_deflectors,
      ...(v.inherit_merchant_deflectors ? {} : { deflectors: v.deflectors.map((id) => ({ id })) }),
      ...(mid ? {} : { merchant_id: merchantId, mid_type_id: 1 as const }),
    };
    save.mutate(
      { id: mid?.id ?? null, body },
      {
        onSuccess: (r) => onSaved(mid ? MA_TEXT.midUpdated : MA_TEXT.midAdded, r.data),
        onError: (e) => setError(serverMessage((e as { body?: unknown }).body, MA_TEXT.generic)),
      },
    );
  };

  return (
    <Stack gap="4" data-testid="mid-form">
      <Switch.Root checked={v.status} onCheckedChange={(e) => set('status', e.checked)} name="status">
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>Status (Active)</Switch.Label>
      </Switch.Root>
      <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap="3">
        {text('mid', 'MID')}
        {text('alias', 'Alias')}
        {text('descriptor', 'MID Descriptor')}
        {select('processor_id', 'Platform', processors.data?.data ?? [])}
        {select(
          'service_level_id',
          'Service Level',
          (levels.data?.data ?? []).filter((l) => [1, 3, 5].includes(l.id)),
        )}
        {text('mcc', 'MCC')}
        {text('caid', 'CAID')}
      </Grid>
      <Box>
        <Heading size="xs" mb="2">
          Deflectors
        </Heading>
        <Stack gap="2">
          <Switch.Root
            checked={v.inherit_merchant_deflectors}
            onCheckedChange={(e) => set('inherit_merchant_deflectors', e.checked)}
          >
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label>Inherit merchant deflectors</Switch.Label>
          </Switch.Root>
          {(deflectors.data?.data ?? []).map((d) => (
            <Switch.Root
              key={d.id}
              disabled={v.inherit_merchant_deflectors}
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
      {error && <Notice status="error">{error}</Notice>}
      <Button colorPalette="brand" onClick={submit} disabled={!valid || !changed} loading={save.isPending}>
        Submit
      </Button>
    </Stack>
  );
}
