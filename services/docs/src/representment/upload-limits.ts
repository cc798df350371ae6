import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPRESENTMENT_MESSAGES, type InternalContext } from '@portal/contracts';
import { HttpError } from '@portal/core';

/**
 * The user's upload limits (spec 2 §3 'User stack config', §5): the same
 * values the gateway answers in GET /api/config/cfg/stack_config_be, read
 * from the same tenant files (TENANT_CONFIG_DIR) the gateway validated at
 * start-up: tenant defaults, then the merchant's overrides, then the user's.
 * Reading the file here (not a header from the client) keeps the limit a
 * server rule; the file is re-read when it changes.
 */
export interface UploadLimits {
  /** Bytes; the whole upload (files and templates). */
  maxBytes: number;
  /** 0 = no page limit. */
  maxPages: number;
}

interface Values {
  max_representment_page_count?: number;
  max_representment_upload_size?: number;
}
interface StackConfigFile {
  stack_config?: { defaults?: Values; merchants?: Record<string, Values>; users?: Record<string, Values> };
}

const TENANT = /^[a-z][a-z0-9-]{1,31}$/;
const cache = new Map<string, { mtimeMs: number; config: StackConfigFile }>();

function tenantFile(dir: string, tenant: string): StackConfigFile | null {
  if (!TENANT.test(tenant)) return null;
  for (const ext of ['.yaml', '.yml', '.json']) {
    const file = join(dir, tenant + ext);
    if (!existsSync(file)) continue;
    const { mtimeMs } = statSync(file);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit.config;
    const text = readFileSync(file, 'utf8');
    const config = (ext === '.json' ? JSON.parse(text) : parse(text)) as StackConfigFile;
    cache.set(file, { mtimeMs, config });
    return config;
  }
  return null;
}

/** The limits of the caller; the generic upload error when the tenant has none configured. */
export function uploadLimits(
  dir: string,
  ctx: Pick<InternalContext, 'tenant' | 'user_id' | 'merchant_id'>,
): UploadLimits {
  const sc = tenantFile(dir, ctx.tenant)?.stack_config;
  const merged: Values = {
    ...sc?.defaults,
    ...(ctx.merchant_id !== null ? sc?.merchants?.[String(ctx.merchant_id)] : undefined),
    ...(ctx.user_id !== null ? sc?.users?.[String(ctx.user_id)] : undefined),
  };
  const maxBytes = merged.max_representment_upload_size;
  const maxPages = merged.max_representment_page_count;
  if (!Number.isInteger(maxBytes) || maxBytes! < 1 || !Number.isInteger(maxPages) || maxPages! < 0)
    throw new HttpError(400, REPRESENTMENT_MESSAGES.failed);
  return { maxBytes: maxBytes!, maxPages: maxPages! };
}
