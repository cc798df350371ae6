import { REPRESENTMENT_MESSAGES, type InternalContext } from '@portal/contracts';
import { HttpError, readTenantFile, type StackConfigValues } from '@portal/core';

/**
 * The user's upload limits (spec 2 §3 'User stack config', §5): the same
 * values the gateway answers in GET /api/config/cfg/stack_config_be, read
 * from the same tenant files (TENANT_CONFIG_DIR) with the same validation
 * (readTenantFile of @portal/core): tenant defaults, then the merchant's
 * overrides, then the user's. Reading the file here (not a header from the
 * client) keeps the limit a server rule; the file is re-read when it changes.
 */
export interface UploadLimits {
  /** Bytes; the whole upload (files and templates). */
  maxBytes: number;
  /** 0 = no page limit. */
  maxPages: number;
}

/** The limits of the caller; the generic upload error when the tenant has none configured. */
export function uploadLimits(
  dir: string,
  ctx: Pick<InternalContext, 'tenant' | 'user_id' | 'merchant_id'>,
): UploadLimits {
  const sc = readTenantFile(dir, ctx.tenant)?.config.stack_config;
  const merged: StackConfigValues = {
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
