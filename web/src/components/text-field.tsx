import { Field, Input } from '@chakra-ui/react';

export interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | null;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  disabled?: boolean;
  helper?: string;
}

/** A labelled input with its error text (Chakra v3 Field). */
export function TextField({
  label,
  name,
  value,
  onChange,
  onBlur,
  error,
  type = 'text',
  autoComplete,
  autoFocus,
  disabled,
  helper,
}: TextFieldProps) {
  return (
    <Field.Root invalid={!!error} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <Input
        name={name}
        type={type}
        value={value}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        bg="white"
      />
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      {error && <Field.ErrorText data-testid={`${name}-error`}>{error}</Field.ErrorText>}
    </Field.Root>
  );
}
