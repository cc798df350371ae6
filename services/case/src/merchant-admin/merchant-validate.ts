import {
  FIELD_REQUIRED,
  FORM_SERVICE_LEVELS,
  INVALID_EMAIL,
  type MerchantCreateBody,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { blank, fieldErrors, trimOrNull } from './access';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Required on create and on a full PUT; a PATCH may leave them out but not blank them (spec 3 §5). */
const REQUIRED = [
  'business_name',
  'business_address',
  'state',
  'zip',
  'city',
  'country',
  'business_phone',
] as const;

/** Columns of cases.merchants a form may set (after validation). */
export interface MerchantColumns {
  business_name?: string;
  alias?: string | null;
  partner_company_id?: string | null;
  business_address?: string;
  city?: string;
  state?: string;
  zip?: string;
  country_id?: number;
  business_phone?: string;
  direct_api?: boolean;
  service_level_id?: number;
  status_id?: number;
  contact_fname?: string | null;
  contact_lname?: string | null;
  contact_email?: string | null;
  contact_phone?: string | null;
}

/**
 * Checks a merchant body with the spec's messages and maps it to columns.
 * `full`: every required field must be there (create, PUT).
 */
export async function validateMerchant(
  db: Queryable,
  body: MerchantCreateBody,
  full: boolean,
): Promise<MerchantColumns> {
  const errors: Record<string, string> = {};
  for (const f of REQUIRED) {
    const present = body[f] !== undefined;
    if ((full || present) && blank(body[f])) errors[f] = FIELD_REQUIRED;
  }
  if (
    body.service_level_id !== undefined &&
    !(FORM_SERVICE_LEVELS as readonly number[]).includes(body.service_level_id)
  )
    errors.service_level_id = FIELD_REQUIRED;
  if (body.status_id !== undefined && body.status_id !== 1 && body.status_id !== 2)
    errors.status_id = 'Status must be 1 (active) or 2 (inactive).';
  const contact = body.contact ?? null;
  const contactFilled =
    contact !== null &&
    [contact.fname, contact.lname, contact.email, contact.phone_number].some((v) => !blank(v));
  if (contactFilled && !blank(contact.email) && !EMAIL.test(contact.email!.trim()))
    errors['contact.email'] = INVALID_EMAIL;
  let countryId: number | undefined;
  if (!blank(body.country)) {
    const { rows } = await db.query<{ id: number }>(
      `select id from cases.countries where upper(code) = upper($1) or upper(name) = upper($1) limit 1`,
      [body.country!.trim()],
    );
    if (!rows[0]) errors.country = `Unknown country code ${body.country!.trim()}.`;
    else countryId = rows[0].id;
  }
  fieldErrors(errors);

  const cols: MerchantColumns = {};
  if (body.business_name !== undefined) cols.business_name = body.business_name.trim();
  // Alias only when non-empty: a blank alias clears it.
  if (body.alias !== undefined) cols.alias = trimOrNull(body.alias);
  if (body.partner_company_id !== undefined) cols.partner_company_id = trimOrNull(body.partner_company_id);
  for (const f of ['business_address', 'city', 'state', 'zip', 'business_phone'] as const)
    if (body[f] !== undefined) cols[f] = body[f].trim();
  if (countryId !== undefined) cols.country_id = countryId;
  if (body.direct_api !== undefined) cols.direct_api = body.direct_api;
  if (body.service_level_id !== undefined) cols.service_level_id = body.service_level_id;
  if (body.status_id !== undefined) cols.status_id = body.status_id;
  // Contact only when filled: an empty contact stores nothing (or clears it on edit).
  if (body.contact !== undefined) {
    cols.contact_fname = contactFilled ? trimOrNull(contact!.fname) : null;
    cols.contact_lname = contactFilled ? trimOrNull(contact!.lname) : null;
    cols.contact_email = contactFilled ? trimOrNull(contact!.email) : null;
    cols.contact_phone = contactFilled ? trimOrNull(contact!.phone_number) : null;
  }
  return cols;
}
