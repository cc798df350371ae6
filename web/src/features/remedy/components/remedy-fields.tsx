import { DELIVERY_STATUSES, MERCHANDISE_OR_SERVICES } from '@portal/contracts';
import { Field, Input, NativeSelect, SimpleGrid, Textarea } from '@chakra-ui/react';
import { withChoice, withStatus, type Choice, type Errors, type ShippingForm } from '../lib/remedy-form';

/** Small labelled inputs of the Remedy Assistant; errors show once the field was touched. */

export function TextInput({
  label,
  value,
  onChange,
  error,
  required,
  testId,
  type = 'text',
  min,
  max,
  placeholder,
  inputMode,
  helper,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  required?: boolean;
  testId: string;
  type?: string;
  min?: string;
  max?: string;
  placeholder?: string;
  inputMode?: 'decimal' | 'text';
  helper?: string;
}) {
  return (
    <Field.Root invalid={!!error} required={required}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      <Input
        size="sm"
        type={type}
        value={value}
        min={min}
        max={max}
        placeholder={placeholder}
        inputMode={inputMode}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      {error && <Field.ErrorText data-testid={`${testId}-error`}>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

export function SelectInput({
  label,
  value,
  onChange,
  options,
  error,
  required,
  testId,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  error?: string;
  required?: boolean;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <Field.Root invalid={!!error} required={required} disabled={disabled}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          aria-label={label}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        >
          <option value="">Select</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {error && <Field.ErrorText data-testid={`${testId}-error`}>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

const CHOICES = MERCHANDISE_OR_SERVICES.map((v) => ({ value: v, label: v }));
const STATUSES = DELIVERY_STATUSES.map((s) => ({ value: s.code, label: s.name }));

/**
 * Merchandise or Services, delivery status, tracking and description. Delivery
 * status and tracking show only for Merchandise; Services means status Other
 * and no tracking (spec 2 §4, §5).
 */
export function ShippingFields<T extends ShippingForm>({
  value,
  onChange,
  errors,
  prefix,
  descriptionLabel = 'Merchandise or Services Description',
}: {
  value: T;
  onChange: (v: T) => void;
  errors: Errors;
  prefix: string;
  descriptionLabel?: string;
}) {
  return (
    <>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
        <SelectInput
          label="Merchandise or Services"
          value={value.merchOrServ}
          onChange={(v) => onChange(withChoice(value, v as Choice))}
          options={CHOICES}
          error={errors.merchOrServ}
          required
          testId={`${prefix}-merch-or-serv`}
        />
        {value.merchOrServ === 'Merchandise' && (
          <SelectInput
            label="Delivery Status"
            value={value.deliveryStatus}
            onChange={(v) => onChange(withStatus(value, v))}
            options={STATUSES}
            error={errors.deliveryStatus}
            required
            testId={`${prefix}-delivery-status`}
          />
        )}
      </SimpleGrid>
      {value.merchOrServ === 'Merchandise' && (
        <TextInput
          label="Tracking Number"
          value={value.tracking}
          onChange={(v) => onChange({ ...value, tracking: v.slice(0, 100) })}
          error={errors.tracking}
          required
          testId={`${prefix}-tracking`}
        />
      )}
      <Field.Root invalid={!!errors.description} required>
        <Field.Label>
          {descriptionLabel}
          <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          size="sm"
          rows={3}
          maxLength={1000}
          value={value.description}
          onChange={(e) => onChange({ ...value, description: e.target.value })}
          data-testid={`${prefix}-description`}
        />
        {errors.description && (
          <Field.ErrorText data-testid={`${prefix}-description-error`}>{errors.description}</Field.ErrorText>
        )}
      </Field.Root>
    </>
  );
}
