import { Button, Flex, Icon, IconButton, Input, NativeSelect, Spinner, Stack, Text } from '@chakra-ui/react';
import { RDR_FAILED, RDR_SAVED, type RuleCondition, type RuleSubject } from '@portal/contracts';
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { useRdrRules, useRuleLists, useSaveRdrRules, type RuleOwner } from '../api/rdr-api';

type Row = { subject_id: number | null; operator_id: number | null; value: string };
const NUMBER = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A value is complete and typed by its subject (spec 3 §5 'RDR rule'). */
export function rowValid(r: Row, subjects: RuleSubject[]): boolean {
  if (r.subject_id === null || r.operator_id === null || !r.value.trim()) return false;
  const type = subjects.find((s) => s.id === r.subject_id)?.type;
  if (type === 'number') return NUMBER.test(r.value.trim());
  if (type === 'date') return DATE.test(r.value.trim());
  return true;
}

function Editor({ owner, onClose }: { owner: RuleOwner; onClose: () => void }) {
  const { subjects, operators } = useRuleLists();
  const rules = useRdrRules(owner);
  const save = useSaveRdrRules(owner);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [result, setResult] = useState<'ok' | 'error' | null>(null);
  const subjectList = subjects.data?.data ?? [];
  const current: Row[] = rows ?? (rules.data?.data ?? []).map((r) => ({ ...r }));

  // Success closes the dialog after 3 seconds (spec 3 §4).
  useEffect(() => {
    if (result !== 'ok') return;
    const t = setTimeout(onClose, 3000);
    return () => clearTimeout(t);
  }, [result, onClose]);

  if (rules.isLoading || subjects.isLoading)
    return (
      <Flex gap="2" align="center">
        <Spinner size="sm" />
        <Text>Loading Verifi RDR Rules</Text>
      </Flex>
    );
  const update = (i: number, patch: Partial<Row>) =>
    setRows(current.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const canAdd = current.every((r) => r.subject_id !== null) && current.length < subjectList.length;
  const canSave = current.every((r) => rowValid(r, subjectList)) && !save.isPending;
  const subjectType = (id: number | null) => subjectList.find((s) => s.id === id);

  return (
    <Stack gap="3">
      <Text>Add Criteria for RDR to automatically refund a transaction.</Text>
      {current.map((r, i) => {
        const s = subjectType(r.subject_id);
        return (
          <Flex key={i} gap="2" align="center" data-testid="rdr-row">
            <NativeSelect.Root size="sm" flex="1">
              <NativeSelect.Field
                aria-label="Attribute"
                value={r.subject_id ?? ''}
                onChange={(e) => update(i, { subject_id: e.target.value ? Number(e.target.value) : null })}
              >
                <option value="">Attribute</option>
                {subjectList.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <NativeSelect.Root size="sm" flex="1">
              <NativeSelect.Field
                aria-label="Operator"
                value={r.operator_id ?? ''}
                onChange={(e) => update(i, { operator_id: e.target.value ? Number(e.target.value) : null })}
              >
                <option value="">Operator</option>
                {(operators.data?.data ?? []).map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Input
              size="sm"
              flex="1"
              aria-label="Value"
              placeholder={s?.type === 'date' ? 'yyyy-mm-dd' : s?.type === 'number' ? '0,000.00' : 'Value'}
              value={r.value}
              onChange={(e) => update(i, { value: e.target.value })}
            />
            <IconButton
              size="sm"
              variant="ghost"
              aria-label="Delete condition"
              onClick={() => setRows(current.filter((_, j) => j !== i))}
            >
              <Icon size="sm">
                <X />
              </Icon>
            </IconButton>
          </Flex>
        );
      })}
      <Flex gap="2">
        <Button
          size="sm"
          variant="outline"
          disabled={!canAdd}
          onClick={() => setRows([...current, { subject_id: null, operator_id: null, value: '' }])}
        >
          Add Condition
        </Button>
        <Button
          size="sm"
          colorPalette="brand"
          disabled={!canSave}
          loading={save.isPending}
          onClick={() => {
            setResult(null);
            save.mutate(
              current.map((r): RuleCondition => ({
                subject_id: r.subject_id,
                operator_id: r.operator_id,
                value: r.value.trim(),
              })),
              { onSuccess: () => setResult('ok'), onError: () => setResult('error') },
            );
          }}
        >
          Save Rule
        </Button>
      </Flex>
      {result === 'ok' && (
        <Notice status="success" title="Success">
          {RDR_SAVED}
        </Notice>
      )}
      {result === 'error' && (
        <Notice status="error" title="Error">
          {RDR_FAILED}
        </Notice>
      )}
    </Stack>
  );
}

/** The 'RDR Rule' modal (spec 3 §2 'Rules editor'). */
export function RdrRuleModal({ owner, onClose }: { owner: RuleOwner; onClose: () => void }) {
  return (
    <DialogFrame title="RDR Rule" testId="rdr-rule-modal" onClose={onClose} size="lg" placement="top">
      <Editor owner={owner} onClose={onClose} />
    </DialogFrame>
  );
}
