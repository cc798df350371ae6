import { BUILDER_MESSAGES as M, type BuilderField } from '@portal/contracts';
import { Field, Input, NativeSelect, Text, Textarea } from '@chakra-ui/react';
import { lookupLabel, useLookup } from '../../../lib/get-lookup';
import { maskMmYy } from '../lib/builder-form';

/** One field of a builder group by its type (spec 2 §2.7); an unknown type says so. */
export function BuilderFieldInput({
  field,
  value,
  errors,
  onChange,
}: {
  field: BuilderField;
  value: string;
  errors: string[] | undefined;
  onChange: (value: string) => void;
}) {
  const id = `builder-field-${field.id}`;
  let control;
  switch (field.type) {
    case 'number':
      control = (
        <Input id={id} inputMode="decimal" value={value} onChange={(e) => onChange(e.target.value)} />
      );
      break;
    case 'date':
      control = <Input id={id} type="date" value={value} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'mmYYDate':
      control = (
        <Input
          id={id}
          placeholder="MM/YY"
          value={value}
          onChange={(e) => onChange(maskMmYy(e.target.value))}
        />
      );
      break;
    case 'textarea':
      control = <Textarea id={id} rows={4} value={value} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'text':
      control = <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'select':
      control = <SelectField id={id} endpoint={field.endpoint ?? ''} value={value} onChange={onChange} />;
      break;
    default:
      return <Text color="fg.error">{M.invalidFieldType(field.type, field.label)}</Text>;
  }
  return (
    <Field.Root
      required={field.is_required}
      invalid={!!errors?.length}
      gridColumn={field.full_width ? '1 / -1' : undefined}
      data-testid={id}
    >
      <Field.Label htmlFor={id}>
        {field.label}
        <Field.RequiredIndicator />
      </Field.Label>
      {control}
      {errors?.map((e) => (
        <Field.ErrorText key={e}>{e}</Field.ErrorText>
      ))}
    </Field.Root>
  );
}

/** A select field fetches its own endpoint with limit 999 (spec 2 §7 'Lookups'). */
function SelectField({
  id,
  endpoint,
  value,
  onChange,
}: {
  id: string;
  endpoint: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const options = useLookup(endpoint);
  return (
    <NativeSelect.Root>
      <NativeSelect.Field id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Select...</option>
        {options.data?.data.map((o) => (
          <option key={o.id} value={String(o.id)}>
            {lookupLabel(o)}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
