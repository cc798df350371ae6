import {
  Box,
  Button,
  Field,
  Flex,
  Input,
  NativeSelect,
  RadioGroup,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { UserItem } from '@portal/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Notice } from '../../../components/notice';
import { PageHeader } from '../../../components/page-header';
import { TextField } from '../../../components/text-field';
import { useProfile } from '../../../lib/auth/auth-context';
import { useTenant } from '../../../lib/tenant-config';
import { useCompanies, useCompany } from '../api/get-companies';
import { useRoles } from '../api/get-roles';
import { useSaveUser, type UserFormValues } from '../api/save-user';
import { USERS_TEXT } from '../lib/user-messages';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Client-side checks with the spec's texts (spec 3 §5 'User form'); the server checks them again. */
export function validateUser(v: UserFormValues, allowedDomains: readonly string[]) {
  const errors: Partial<Record<keyof UserFormValues, string>> = {};
  if (!v.firstName.trim()) errors.firstName = USERS_TEXT.fnameRequired;
  if (!v.lastName.trim()) errors.lastName = USERS_TEXT.lnameRequired;
  const email = v.email.trim();
  if (!email || !EMAIL.test(email)) errors.email = USERS_TEXT.emailRequired;
  else if (allowedDomains.length && !allowedDomains.includes(email.split('@')[1]!.toLowerCase()))
    errors.email = USERS_TEXT.emailDomain;
  if (!v.username.trim()) errors.username = 'Username cannot be empty.';
  if (!(v.role > 0)) errors.role = USERS_TEXT.roleRequired;
  return errors;
}

/** Add User (/user/update/) and Edit User (/user/update/{userId}). */
export function UserForm({ user }: { user: UserItem | null }) {
  const me = useProfile();
  const tenant = useTenant();
  const navigate = useNavigate();
  const save = useSaveUser();
  const editingSelf = user !== null && user.id === me.id;
  const listPath = tenant.menu_variant === 'data-grid' ? '/users-new' : '/users';
  const [values, setValues] = useState<UserFormValues>(() => ({
    firstName: user?.fname ?? '',
    lastName: user?.lname ?? '',
    email: user?.email ?? '',
    username: user?.username ?? '',
    role: user?.role.id ?? 0,
    merchantId: user?.merchant.id ?? null,
    isReadOnly: user?.is_read_only ?? false,
  }));
  const [companyText, setCompanyText] = useState(user?.merchant.business_name ?? '');
  const [companySearch, setCompanySearch] = useState('');
  const [touched, setTouched] = useState<Partial<Record<keyof UserFormValues, boolean>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const companies = useCompanies(companySearch);
  const company = useCompany(values.merchantId);
  const roles = useRoles(values.merchantId);
  const domains = useMemo(
    () => (company.data?.allowed_domains ?? company.data?.domain_whitelist ?? []).map((d) => d.toLowerCase()),
    [company.data],
  );
  const errors = validateUser(values, domains);
  const valid = Object.keys(errors).length === 0;

  // Type-ahead debounce 500 ms (spec 3 §9).
  useEffect(() => {
    const t = setTimeout(() => setCompanySearch(companyText.trim()), 500);
    return () => clearTimeout(t);
  }, [companyText]);

  const set = <K extends keyof UserFormValues>(k: K, v: UserFormValues[K]) => {
    setValues((old) => ({ ...old, [k]: v }));
    setTouched((t) => ({ ...t, [k]: true }));
  };
  const shown = (k: keyof UserFormValues) => (touched[k] ? (errors[k] ?? null) : null);

  function chooseCompany(id: number, name: string) {
    // Choosing a company resets the role: roles are per company.
    setValues((old) => ({ ...old, merchantId: id, role: 0 }));
    setCompanyText(name);
    setCompanySearch('');
  }

  function submit() {
    setTouched({ firstName: true, lastName: true, email: true, username: true, role: true });
    if (!valid) return;
    setServerError(null);
    save.mutate(
      { id: user?.id ?? null, values },
      {
        onSuccess: () => navigate(listPath, { state: { success: true } }),
        onError: (e) => setServerError(e.message || USERS_TEXT.saveFailed),
      },
    );
  }

  const selectedName = company.data?.business_name ?? user?.merchant.business_name ?? '';
  const showResults = companySearch.length > 0 && companySearch !== selectedName;
  return (
    <Box p={{ base: 3, md: 6 }} maxW="3xl">
      <PageHeader title={user ? 'Edit User' : 'Add User'} titleTestId="user-form-title" />
      <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 3, md: 6 }}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
          noValidate
        >
          <Stack gap="4">
            <Flex gap="4" direction={{ base: 'column', md: 'row' }}>
              <TextField
                label="First Name"
                name="firstName"
                value={values.firstName}
                onChange={(v) => set('firstName', v)}
                error={shown('firstName')}
              />
              <TextField
                label="Last Name"
                name="lastName"
                value={values.lastName}
                onChange={(v) => set('lastName', v)}
                error={shown('lastName')}
              />
            </Flex>
            <TextField
              label="Username"
              name="username"
              value={values.username}
              onChange={(v) => set('username', v)}
              error={shown('username')}
              disabled={user !== null}
            />
            <Field.Root disabled={editingSelf}>
              <Field.Label>Company</Field.Label>
              <Input
                name="company"
                value={companyText}
                onChange={(e) => setCompanyText(e.target.value)}
                placeholder="Search companies"
                autoComplete="off"
                bg="white"
                data-testid="company-input"
              />
              {company.isError && (
                <Field.HelperText color="red.600">{USERS_TEXT.loadDomains}</Field.HelperText>
              )}
            </Field.Root>
            {showResults && (
              <Box borderWidth="1px" borderRadius="md" p="2" data-testid="company-results" mt="-2">
                {companySearch.length < 2 ? (
                  <Text color="gray.600">{USERS_TEXT.minChars}</Text>
                ) : companies.isLoading ? (
                  <Spinner size="sm" />
                ) : companies.isError ? (
                  <Text color="red.600">{USERS_TEXT.loadCompanies}</Text>
                ) : !companies.data?.length ? (
                  <Text color="gray.600">{USERS_TEXT.noResults}</Text>
                ) : (
                  <Stack gap="0">
                    {companies.data.slice(0, 20).map((c) => (
                      <Button
                        key={c.id}
                        variant="ghost"
                        size="sm"
                        justifyContent="flex-start"
                        onClick={() => chooseCompany(c.id, c.business_name)}
                        data-testid="company-option"
                      >
                        {c.business_name}
                      </Button>
                    ))}
                  </Stack>
                )}
              </Box>
            )}
            <Field.Root invalid={!!shown('role')} disabled={values.merchantId === null || editingSelf}>
              <Field.Label>Role</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field
                  name="role"
                  value={values.role || ''}
                  onChange={(e) => set('role', Number(e.target.value))}
                  data-testid="role-select"
                  bg="white"
                >
                  <option value="">Select a role</option>
                  {/* Editing oneself: the role cannot change, but it still shows. */}
                  {user && !(roles.data ?? []).some((r) => r.id === user.role.id) && (
                    <option value={user.role.id}>{user.role.name}</option>
                  )}
                  {(roles.data ?? []).map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              {roles.isError && <Field.HelperText color="red.600">{USERS_TEXT.loadRoles}</Field.HelperText>}
              {shown('role') && <Field.ErrorText data-testid="role-error">{shown('role')}</Field.ErrorText>}
            </Field.Root>
            <TextField
              label="Email"
              name="email"
              type="email"
              value={values.email}
              onChange={(v) => set('email', v)}
              error={shown('email')}
              helper={domains.length ? `Allowed domains: ${domains.join(', ')}` : undefined}
            />
            {tenant.flags.USERS_READ_ONLY_OPTION && (
              <Field.Root disabled={editingSelf}>
                <Field.Label>Read Only</Field.Label>
                <RadioGroup.Root
                  value={values.isReadOnly ? 'yes' : 'no'}
                  onValueChange={(e) => set('isReadOnly', e.value === 'yes')}
                  disabled={editingSelf}
                  data-testid="read-only-choice"
                >
                  <Flex gap="4">
                    {(['yes', 'no'] as const).map((v) => (
                      <RadioGroup.Item key={v} value={v}>
                        <RadioGroup.ItemHiddenInput />
                        <RadioGroup.ItemIndicator />
                        <RadioGroup.ItemText>{v === 'yes' ? 'Yes' : 'No'}</RadioGroup.ItemText>
                      </RadioGroup.Item>
                    ))}
                  </Flex>
                </RadioGroup.Root>
                <Field.HelperText>{USERS_TEXT.readOnlyHelp}</Field.HelperText>
              </Field.Root>
            )}
            {serverError && <Notice status="error" testId="user-form-error" title={serverError} />}
            <Flex gap="3" justify="flex-end">
              <Button variant="outline" onClick={() => navigate(listPath)}>
                Cancel
              </Button>
              <Button
                type="submit"
                colorPalette="brand"
                loading={save.isPending}
                disabled={me.is_read_only}
                data-testid="save-user"
              >
                {user ? 'Save' : 'Add User'}
              </Button>
            </Flex>
          </Stack>
        </form>
      </Box>
    </Box>
  );
}
