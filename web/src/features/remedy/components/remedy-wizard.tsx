import {
  REMEDY_MESSAGES as M,
  REMEDY_RULES as R,
  undisputedDateWindow,
  type RemedyViolation,
} from '@portal/contracts';
import {
  Badge,
  Box,
  Checkbox,
  HStack,
  Icon,
  IconButton,
  SimpleGrid,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { toIsoDate } from '../../../lib/dates';
import { ApiError, GENERIC_ERROR } from '../../../lib/errors';
import { formatMoney } from '../../../lib/format';
import { useTenant } from '../../../lib/tenant-config';
import { useRemedyCase } from '../api/get-remedy-case';
import { useCountries, useCurrencies } from '../api/get-remedy-lookups';
import { useSubmitRemedy } from '../api/submit-remedy';
import { trackRemedyEvent } from '../api/track-remedy-event';
import {
  buildBody,
  deliveryName,
  detailsErrors,
  emptyForm,
  emptyTxn,
  isValid,
  maskAmount,
  maskTxnId,
  matchingErrors,
  txnErrors,
  type Errors,
  type MatchingForm,
  type MatchKey,
  type RemedyCase,
  type RemedyForm,
  type TxnForm,
} from '../lib/remedy-form';
import { RemedyErrorsDialog } from './remedy-errors-dialog';
import { SelectInput, ShippingFields, TextInput } from './remedy-fields';

const STEPS = [
  'Additional Details',
  'Undisputed Transaction 1',
  'Undisputed Transaction 2',
  'Matching Evidence',
  'Confirmation',
] as const;
const PRIMARY = [
  'Add Details',
  'Add Transaction',
  'Add Transaction',
  'Save and Continue',
  'Complete',
] as const;

const usDate = (iso: string | null | undefined) =>
  iso ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : '–';

/** The errors shown: those of touched fields, 500 ms after the last change (spec 2 §5 'validation debounce'). */
function useShownErrors(errors: Errors, touched: ReadonlySet<string>): Errors {
  const [shown, setShown] = useState<Errors>({});
  const key = JSON.stringify([errors, [...touched]]);
  useEffect(() => {
    const timer = setTimeout(
      () => setShown(Object.fromEntries(Object.entries(errors).filter(([k]) => touched.has(k)))),
      R.validationDebounceMs,
    );
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for errors and touched
  }, [key]);
  return shown;
}

/** Keys whose value differs between two versions of a step's form. */
function changedKeys<T extends object>(before: T, after: T): string[] {
  return (Object.keys(after) as Array<keyof T>)
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map(String);
}

/**
 * The 'CE 3.0 Remedy Assistant' (spec 2 §2.8, §4, §5, §8): five steps (details
 * of the disputed transaction, two undisputed transactions, matching
 * evidence, confirmation), a summary of the disputed transaction on top,
 * the primary button of each step enabled only when its part is valid,
 * 'Back' down a step (closing from step 1), and on Complete the submission
 * with its waiting, success and failure states. Closing resets the form.
 */
export function RemedyWizard({
  caseId,
  onClose,
  onCompleted,
}: {
  caseId: number;
  onClose: () => void;
  onCompleted: () => void;
}) {
  const tenant = useTenant();
  const tracking = tenant.flags?.EVENTS_TRACKING === true;
  const kase = useRemedyCase(caseId);
  const currencies = useCurrencies();
  const countries = useCountries();
  const submit = useSubmitRemedy(caseId);
  const [step, setStep] = useState(1);
  const [form, setForm] = useState<RemedyForm>(emptyForm);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [phase, setPhase] = useState<'form' | 'submitting' | 'success'>('form');
  const [failure, setFailure] = useState<{ message: string; violations: RemedyViolation[] } | null>(null);
  const closed = useRef(false);
  const today = toIsoDate(new Date());

  const c = kase.data;
  const window = c ? undisputedDateWindow(c.date_post) : null;
  const txnIndex = step === 2 ? 0 : 1;
  const errors: Errors = useMemo(() => {
    if (!c) return {};
    if (step === 1) return detailsErrors(form.details, today);
    if (step === 2 || step === 3)
      return txnErrors(form.txns[txnIndex]!, c.date_post, step === 3 ? form.txns[0] : undefined);
    if (step === 4) return matchingErrors(form.matching);
    return form.certified ? {} : { certified: M.required };
  }, [c, step, form, today, txnIndex]);
  const shown = useShownErrors(errors, touched);

  // The wizard opens from 'Start a CE 3.0 Remedy': the button-click event, posted whatever the flag.
  useEffect(() => {
    trackRemedyEvent(tracking, { caseId, event: 'button_click', action: M.launcherButton });
  }, [tracking, caseId]);

  const touch = (keys: string[]) => setTouched((t) => new Set([...t, ...keys]));
  const reset = () => {
    setForm(emptyForm());
    setTouched(new Set());
    setStep(1);
    setFailure(null);
    setPhase('form');
  };
  const close = () => {
    if (phase === 'submitting') return;
    closed.current = true;
    trackRemedyEvent(tracking, { caseId, event: 'closed', action: 'close', message: `step ${step}` });
    reset();
    onClose();
  };
  const goTo = (n: number) => {
    setTouched(new Set());
    setStep(n);
  };
  const back = () => (step === 1 ? close() : goTo(step - 1));

  const setTxn = (i: number, next: TxnForm) => {
    touch(changedKeys(form.txns[i]!, next));
    setForm((f) => {
      const txns = [...f.txns] as RemedyForm['txns'];
      txns[i] = next;
      return { ...f, txns };
    });
  };
  /** Deleting a transaction: the other one moves first; from step 3 or later back to step 2 (§4). */
  const deleteTxn = (i: number) => {
    setForm((f) => {
      const kept = f.txns.filter((_, j) => j !== i);
      return { ...f, txns: [kept[0]!, emptyTxn()], added: Math.max(0, f.added - 1) };
    });
    if (step >= 3) goTo(2);
  };
  const setMatching = (next: MatchingForm) => {
    touch(changedKeys(form.matching, next));
    touch(changedKeys(form.matching.on, next.on).length ? ['any'] : []);
    setForm((f) => ({ ...f, matching: next }));
  };
  /** Unchecking an element clears its fields (§4). */
  const toggle = (k: MatchKey, on: boolean) => {
    const m = { ...form.matching, on: { ...form.matching.on, [k]: on } };
    if (!on) {
      if (k === 'address')
        Object.assign(m, {
          address: '',
          address2: '',
          city: '',
          stateRegion: '',
          postalCode: '',
          country: '',
        });
      else m[k] = '';
    }
    setMatching(m);
  };

  async function complete() {
    if (!c) return;
    setPhase('submitting');
    trackRemedyEvent(tracking, { caseId, event: 'submit', action: 'complete' });
    try {
      await submit.mutateAsync(buildBody(c, form));
      setPhase('success');
      trackRemedyEvent(tracking, { caseId, event: 'submitted', action: 'success' });
      setTimeout(() => {
        if (closed.current) return;
        reset();
        onCompleted();
      }, R.successCloseMs);
    } catch (e) {
      setPhase('form');
      const body =
        e instanceof ApiError ? (e.body as { message?: string; data?: { violations?: unknown } }) : null;
      const violations = Array.isArray(body?.data?.violations)
        ? (body.data.violations as RemedyViolation[])
        : [];
      const message = e instanceof ApiError && e.status > 0 && e.status < 500 ? e.message : GENERIC_ERROR;
      setFailure({ message, violations });
      trackRemedyEvent(tracking, { caseId, event: 'submit_failed', action: 'error', message });
    }
  }

  const primary = () => {
    if (!isValid(errors)) return;
    if (step === 5) return void complete();
    if (step === 2 || step === 3) setForm((f) => ({ ...f, added: Math.max(f.added, step - 1) }));
    trackRemedyEvent(tracking, {
      caseId,
      event: 'step',
      action: PRIMARY[step - 1],
      message: STEPS[step - 1],
    });
    goTo(step + 1);
  };

  const currencyOptions = (currencies.data ?? []).map((x) => ({
    value: x.code,
    label: `${x.code} - ${x.currency}`,
  }));
  const countryOptions = (countries.data ?? []).map((x) => ({ value: x.code, label: x.name }));
  const busy = phase !== 'form';

  return (
    <>
      <DialogFrame
        title={M.wizardTitle}
        testId="remedy-wizard"
        onClose={close}
        size="lg"
        closeOnInteractOutside={false}
        closeButton={{ disabled: phase === 'submitting' }}
        footer={
          c &&
          phase === 'form' && (
            <DialogActions
              onCancel={back}
              cancelLabel="Back"
              cancelTestId="remedy-back"
              primary={{
                label: PRIMARY[step - 1],
                onClick: primary,
                disabled: !isValid(errors) || busy,
                testId: 'remedy-primary',
              }}
            />
          )
        }
      >
        {kase.isPending ? (
          <HStack color="fg.muted">
            <Spinner size="sm" />
            <Text>Loading the case…</Text>
          </HStack>
        ) : !c ? (
          <Notice status="error">{GENERIC_ERROR}</Notice>
        ) : phase === 'submitting' ? (
          <HStack py="10" justify="center" data-testid="remedy-submitting">
            <Spinner />
            <Text>{M.submitting}</Text>
          </HStack>
        ) : phase === 'success' ? (
          <Box py="10" textAlign="center" data-testid="remedy-success">
            <Text fontSize="lg" fontWeight="semibold" color="green.600">
              {M.success}
            </Text>
          </Box>
        ) : (
          <Stack gap="4">
            <Summary c={c} form={form} step={step} onDelete={deleteTxn} />
            <HStack gap="2" data-testid="remedy-steps" flexWrap="wrap">
              {STEPS.map((name, i) => (
                <Badge
                  key={name}
                  variant={i + 1 === step ? 'solid' : 'subtle'}
                  colorPalette={i + 1 < step ? 'green' : i + 1 === step ? 'brand' : 'gray'}
                >
                  {i + 1}. {name}
                </Badge>
              ))}
            </HStack>
            <Text fontWeight="semibold" data-testid="remedy-step-title">
              Step {step} of 5: {STEPS[step - 1]}
            </Text>

            {step === 1 && (
              <Stack gap="3" data-testid="remedy-step-1">
                <Text fontSize="sm" color="fg.muted">
                  Additional details of the disputed transaction.
                </Text>
                <TextInput
                  label="Date Merchandise or Services Provided"
                  type="date"
                  max={today}
                  value={form.details.providedDate}
                  onChange={(v) => {
                    touch(['providedDate']);
                    setForm((f) => ({ ...f, details: { ...f.details, providedDate: v } }));
                  }}
                  error={shown.providedDate}
                  required
                  testId="remedy-provided-date"
                />
                <ShippingFields
                  value={form.details}
                  onChange={(v) => {
                    touch(changedKeys(form.details, v));
                    setForm((f) => ({ ...f, details: v }));
                  }}
                  errors={shown}
                  prefix="remedy-details"
                  descriptionLabel="Description"
                />
              </Stack>
            )}

            {(step === 2 || step === 3) && window && (
              <Stack gap="3" data-testid={`remedy-step-${step}`}>
                <Text fontSize="sm" color="fg.muted">
                  An earlier transaction of the same card that the cardholder did not dispute, between{' '}
                  {usDate(window.from)} and {usDate(window.to)} (120 to 365 days before the post date).
                </Text>
                <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                  <TextInput
                    label="ARN/Transaction ID"
                    value={form.txns[txnIndex]!.arnOrTxnId}
                    onChange={(v) => setTxn(txnIndex, { ...form.txns[txnIndex]!, arnOrTxnId: maskTxnId(v) })}
                    error={shown.arnOrTxnId}
                    required
                    helper="15-16 characters (transaction id) or 23-24 (ARN)"
                    testId="remedy-txn-id"
                  />
                  <TextInput
                    label="Order ID"
                    value={form.txns[txnIndex]!.orderId}
                    onChange={(v) => setTxn(txnIndex, { ...form.txns[txnIndex]!, orderId: v.slice(0, 100) })}
                    testId="remedy-txn-order"
                  />
                  <TextInput
                    label="Transaction Amount"
                    inputMode="decimal"
                    placeholder="0.00"
                    value={form.txns[txnIndex]!.amount}
                    onChange={(v) => setTxn(txnIndex, { ...form.txns[txnIndex]!, amount: maskAmount(v) })}
                    error={shown.amount}
                    required
                    testId="remedy-txn-amount"
                  />
                  <SelectInput
                    label="Transaction Currency"
                    value={form.txns[txnIndex]!.currency}
                    onChange={(v) => setTxn(txnIndex, { ...form.txns[txnIndex]!, currency: v })}
                    options={currencyOptions}
                    error={shown.currency}
                    required
                    testId="remedy-txn-currency"
                  />
                  <TextInput
                    label="Transaction Date"
                    type="date"
                    min={window.from}
                    max={window.to}
                    value={form.txns[txnIndex]!.date}
                    onChange={(v) => setTxn(txnIndex, { ...form.txns[txnIndex]!, date: v })}
                    error={shown.date}
                    required
                    testId="remedy-txn-date"
                  />
                </SimpleGrid>
                <ShippingFields
                  value={form.txns[txnIndex]!}
                  onChange={(v) => setTxn(txnIndex, v)}
                  errors={shown}
                  prefix="remedy-txn"
                />
              </Stack>
            )}

            {step === 4 && (
              <MatchingStep
                m={form.matching}
                errors={shown}
                onToggle={toggle}
                onChange={setMatching}
                countryOptions={countryOptions}
              />
            )}

            {step === 5 && (
              <Stack gap="3" data-testid="remedy-step-5">
                <Confirmation c={c} form={form} />
                <Checkbox.Root
                  checked={form.certified}
                  onCheckedChange={(e) => setForm((f) => ({ ...f, certified: e.checked === true }))}
                  data-testid="remedy-certify"
                  alignItems="flex-start"
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control mt="1" />
                  <Checkbox.Label fontSize="sm">
                    I certify that the information provided is true and accurate; that no additional data or
                    traditional representment can follow this remedy for this dispute; and that providing
                    false information could bring fines.
                  </Checkbox.Label>
                </Checkbox.Root>
              </Stack>
            )}
          </Stack>
        )}
      </DialogFrame>
      {failure && (
        <RemedyErrorsDialog
          message={failure.message}
          violations={failure.violations}
          onClose={() => setFailure(null)}
        />
      )}
    </>
  );
}

function Summary({
  c,
  form,
  step,
  onDelete,
}: {
  c: RemedyCase;
  form: RemedyForm;
  step: number;
  onDelete: (i: number) => void;
}) {
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="bg.subtle" data-testid="remedy-summary">
      <Text fontSize="xs" color="fg.muted" textTransform="uppercase" mb="1">
        Disputed Transaction
      </Text>
      <HStack gap="6" flexWrap="wrap" fontSize="sm">
        <Text>
          <b>Case Number:</b> {c.case_no}
        </Text>
        <Text>
          <b>Transaction Date:</b> {usDate(c.date_trans)}
        </Text>
        <Text>
          <b>Amount:</b> {c.trans_amt === null ? '–' : formatMoney(c.trans_amt, c.trans_currency ?? 'USD')}
        </Text>
      </HStack>
      {form.added > 0 && (
        <Stack gap="1" mt="2" data-testid="remedy-added">
          {form.txns.slice(0, form.added).map((t, i) => (
            <HStack key={i} justify="space-between" fontSize="sm" borderTopWidth="1px" pt="1">
              <Text>
                Undisputed Transaction {i + 1}: {t.arnOrTxnId} · {t.amount} {t.currency} · {usDate(t.date)}
              </Text>
              {step >= 3 && (
                <IconButton
                  aria-label={`Delete undisputed transaction ${i + 1}`}
                  size="xs"
                  variant="ghost"
                  onClick={() => onDelete(i)}
                  data-testid={`remedy-delete-txn-${i + 1}`}
                >
                  <Icon size="sm">
                    <X />
                  </Icon>
                </IconButton>
              )}
            </HStack>
          ))}
        </Stack>
      )}
    </Box>
  );
}

const MATCH_ITEMS: Array<{ key: MatchKey; label: string }> = [
  { key: 'ip', label: 'IP Address' },
  { key: 'deviceId', label: 'Device ID' },
  { key: 'fingerprint', label: 'Device Fingerprint' },
  { key: 'login', label: 'Customer Account Login' },
  { key: 'address', label: 'Shipping Address' },
];

function MatchingStep({
  m,
  errors,
  onToggle,
  onChange,
  countryOptions,
}: {
  m: MatchingForm;
  errors: Errors;
  onToggle: (k: MatchKey, on: boolean) => void;
  onChange: (m: MatchingForm) => void;
  countryOptions: Array<{ value: string; label: string }>;
}) {
  const field = (k: Exclude<keyof MatchingForm, 'on'>, label: string, required = true) => (
    <TextInput
      label={label}
      value={m[k]}
      onChange={(v) => onChange({ ...m, [k]: v.slice(0, 200) })}
      error={errors[k]}
      required={required}
      testId={`remedy-match-${k}`}
    />
  );
  return (
    <Stack gap="3" data-testid="remedy-step-4">
      <Notice status="info">
        Identify at least two matching data elements, one of which must be IP address or Device ID. The same
        values must appear on the disputed transaction and on both undisputed transactions.
      </Notice>
      {errors.any && (
        <Text color="fg.error" fontSize="sm" data-testid="remedy-match-any-error">
          {errors.any}
        </Text>
      )}
      {MATCH_ITEMS.map(({ key, label }) => (
        <Box key={key}>
          <Checkbox.Root
            checked={m.on[key]}
            onCheckedChange={(e) => onToggle(key, e.checked === true)}
            data-testid={`remedy-match-on-${key}`}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{label}</Checkbox.Label>
          </Checkbox.Root>
          {m.on[key] && (
            <Box pl="6" pt="2">
              {key === 'ip' && field('ip', 'IP Address Details')}
              {key === 'deviceId' && field('deviceId', 'Device ID Details')}
              {key === 'fingerprint' && field('fingerprint', 'Device Fingerprint Details')}
              {key === 'login' && field('login', 'Customer Account Login')}
              {key === 'address' && (
                <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                  {field('address', 'Address')}
                  {field('address2', 'Address 2', false)}
                  {field('city', 'City')}
                  {field('stateRegion', 'State/Region')}
                  {field('postalCode', 'Postal Code')}
                  <SelectInput
                    label="Country"
                    value={m.country}
                    onChange={(v) => onChange({ ...m, country: v })}
                    options={countryOptions}
                    error={errors.country}
                    required
                    testId="remedy-match-country"
                  />
                </SimpleGrid>
              )}
            </Box>
          )}
        </Box>
      ))}
    </Stack>
  );
}

function Confirmation({ c, form }: { c: RemedyCase; form: RemedyForm }) {
  const d = form.details;
  const m = form.matching;
  const row = (label: string, value: string) => (
    <HStack key={label} fontSize="sm" align="start">
      <Text minW="44" color="fg.muted">
        {label}
      </Text>
      <Text>{value || '–'}</Text>
    </HStack>
  );
  return (
    <Stack gap="3" data-testid="remedy-confirmation">
      <Box>
        <Text fontWeight="semibold" mb="1">
          Disputed Transaction
        </Text>
        {row('Case Number', c.case_no)}
        {row('Merchandise or Services', d.merchOrServ)}
        {row('Provided Date', usDate(d.providedDate))}
        {d.merchOrServ === 'Merchandise' && row('Delivery Status', deliveryName(d.deliveryStatus))}
        {d.merchOrServ === 'Merchandise' && row('Tracking Number', d.tracking)}
        {row('Description', d.description)}
      </Box>
      {form.txns.slice(0, form.added).map((t, i) => (
        <Box key={i}>
          <Text fontWeight="semibold" mb="1">
            Undisputed Transaction {i + 1}
          </Text>
          {row('ARN/Transaction ID', t.arnOrTxnId)}
          {row('Amount', `${t.amount} ${t.currency}`)}
          {row('Date', usDate(t.date))}
          {row('Merchandise or Services', t.merchOrServ)}
          {t.merchOrServ === 'Merchandise' && row('Tracking Number', t.tracking)}
          {row('Description', t.description)}
        </Box>
      ))}
      <Box>
        <Text fontWeight="semibold" mb="1">
          Matching Evidence
        </Text>
        {m.on.ip && row('IP Address', m.ip)}
        {m.on.deviceId && row('Device ID', m.deviceId)}
        {m.on.fingerprint && row('Device Fingerprint', m.fingerprint)}
        {m.on.login && row('Customer Account Login', m.login)}
        {m.on.address &&
          row(
            'Shipping Address',
            [m.address, m.address2, m.city, m.stateRegion, m.postalCode, m.country]
              .filter(Boolean)
              .join(', '),
          )}
      </Box>
    </Stack>
  );
}

export default RemedyWizard;
