import { MERCHANT_COLUMNS, MID_COLUMNS, type OnboardingCell, type OnboardingType } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import type { CheckedUsernames } from './username-lookup';

/**
 * The checks of one onboarding file (spec 3 §3, §5): required columns,
 * service level names, countries, e-mail and phone formats, duplicates within
 * the file and against the tenant's existing merchants or MIDs. Errors depend
 * on the other rows (duplicates), so a change re-checks the whole file.
 */
export type Cells = Record<string, string>;
type CellErrors = Record<string, string[]>;

export const columnsOf = (type: OnboardingType) => (type === 'merchant' ? MERCHANT_COLUMNS : MID_COLUMNS);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const PHONE = /^\+?[0-9 ().-]{7,20}$/;
const USERNAME = /^[A-Za-z0-9._@+-]{3,128}$/;
const MCC = /^[0-9]{4}$/;
const MID = /^[A-Za-z0-9-]{4,32}$/;
const FORMULA = /^[=@\t\r]|^[+-][^0-9 (]/;
const norm = (s: string) => s.trim().toLowerCase();

export interface Reference {
  serviceLevels: Map<string, number>;
  countries: Map<string, number>;
  existing: Set<string>;
  /** Usernames that already exist in the tenant (merchant files), lower case. */
  takenUsernames: Set<string>;
}

/**
 * Names people type for a service level: 'Basic', 'Basic Service' or the id. Taken usernames come
 * from `checked`, the user service's answer asked before the transaction (no call from in here).
 */
export async function loadReference(
  db: Queryable,
  tenant: string,
  type: OnboardingType,
  keys: string[],
  usernames: string[] = [],
  checked?: CheckedUsernames,
): Promise<Reference> {
  const serviceLevels = new Map<string, number>();
  for (const r of (await db.query<{ id: number; name: string }>('select id, name from cases.service_levels'))
    .rows) {
    serviceLevels.set(norm(r.name), r.id);
    serviceLevels.set(norm(r.name.replace(/ service$/i, '')), r.id);
    serviceLevels.set(String(r.id), r.id);
  }
  const countries = new Map<string, number>();
  for (const r of (
    await db.query<{ id: number; code: string; name: string }>('select id, code, name from cases.countries')
  ).rows) {
    countries.set(norm(r.code), r.id);
    countries.set(norm(r.name), r.id);
  }
  const sql =
    type === 'merchant'
      ? 'select lower(business_name) as k from cases.merchants where tenant_id = $1 and lower(business_name) = any($2::text[])'
      : 'select lower(mid) as k from cases.mids where tenant_id = $1 and lower(mid) = any($2::text[])';
  const existing = new Set((await db.query<{ k: string }>(sql, [tenant, keys])).rows.map((r) => r.k));
  const takenUsernames =
    type === 'merchant' && checked && usernames.length ? checked.takenAmong(usernames) : new Set<string>();
  return { serviceLevels, countries, existing, takenUsernames };
}

/** The key checked against existing rows: business name for merchants, the MID for MIDs. */
export const uniqueKey = (type: OnboardingType, cells: Cells) =>
  norm(type === 'merchant' ? (cells.business_name ?? '') : (cells.mid ?? ''));

/** Errors of every live (not deleted) row, keyed by record id; deleted rows carry none. */
export function validateRows(
  type: OnboardingType,
  rows: Array<{ id: number; status_id: number; cells: Cells }>,
  ref: Reference,
): Map<number, CellErrors> {
  const out = new Map<number, CellErrors>();
  const live = rows.filter((r) => r.status_id === 1);
  const dupFields = type === 'merchant' ? ['business_name', 'username', 'email'] : ['mid'];
  const counts = new Map<string, number>();
  for (const r of live)
    for (const f of dupFields) {
      const v = norm(r.cells[f] ?? '');
      if (v) counts.set(`${f}:${v}`, (counts.get(`${f}:${v}`) ?? 0) + 1);
    }
  for (const r of rows) {
    const errors: CellErrors = {};
    if (r.status_id !== 1) {
      out.set(r.id, errors);
      continue;
    }
    const add = (col: string, msg: string) => (errors[col] ??= []).push(msg);
    for (const col of columnsOf(type)) {
      const v = (r.cells[col.name] ?? '').trim();
      if (col.required && !v) add(col.name, `${col.label} is required.`);
      if (v && FORMULA.test(v)) add(col.name, `${col.label} must not start with =, +, - or @.`);
    }
    const v = (k: string) => (r.cells[k] ?? '').trim();
    if (v('service_level') && !ref.serviceLevels.has(norm(v('service_level'))))
      add('service_level', `Unknown service level '${v('service_level')}' (Basic, Self, Full or Pro).`);
    for (const f of dupFields)
      if (v(f) && (counts.get(`${f}:${norm(v(f))}`) ?? 0) > 1) add(f, 'Duplicate value within this file.');
    if (type === 'merchant') {
      if (v('country') && !ref.countries.has(norm(v('country'))))
        add('country', `Unknown country '${v('country')}'.`);
      if (v('email') && !EMAIL.test(v('email'))) add('email', 'Invalid e-mail address.');
      for (const p of ['phone', 'business_phone'])
        if (v(p) && !PHONE.test(v(p))) add(p, 'Invalid phone number.');
      if (v('username') && !USERNAME.test(v('username')))
        add('username', 'A username has 3-128 letters, digits or . _ @ + - only.');
      if (v('username') && ref.takenUsernames.has(norm(v('username'))))
        add('username', 'This username is already taken.');
      if (v('business_name') && ref.existing.has(norm(v('business_name'))))
        add('business_name', 'A merchant with this business name already exists.');
    } else {
      if (v('mid') && !MID.test(v('mid'))) add('mid', 'A MID has 4-32 letters, digits or dashes.');
      if (v('mid') && ref.existing.has(norm(v('mid')))) add('mid', 'This MID already exists.');
      if (v('mcc') && !MCC.test(v('mcc'))) add('mcc', 'MCC must be 4 digits.');
    }
    out.set(r.id, errors);
  }
  return out;
}

export const failingCells = (errors: CellErrors) => Object.values(errors).filter((e) => e.length > 0).length;

export function toCells(
  type: OnboardingType,
  cells: Cells,
  errors: CellErrors,
): Record<string, OnboardingCell> {
  const out: Record<string, OnboardingCell> = {};
  for (const col of columnsOf(type))
    out[col.name] = { value: cells[col.name] ?? '', err_messages: errors[col.name] ?? [] };
  return out;
}
