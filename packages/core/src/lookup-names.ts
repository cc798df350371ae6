import type {
  CardType,
  CaseStatus,
  Country,
  Currency,
  Cycle,
  Deflector,
  Descriptor,
  InternalContext,
  Processor,
  ReasonCode,
  Source,
  StatusGroup,
  Verdict,
} from '@portal/contracts';
import { isLookupPath, type CaseClient } from './case-client';

/** An item of one of the case service's lookup lists (contracts/lookups.ts). */
export type LookupItem =
  | Country
  | Processor
  | ReasonCode
  | Cycle
  | Currency
  | CardType
  | StatusGroup
  | CaseStatus
  | Verdict
  | Source
  | Deflector
  | Descriptor;

/**
 * How the portal prints a lookup item where a person or a processor reads it: a reason code as its code
 * and description, a currency as its code, a descriptor as itself, anything else by its name.
 */
export function lookupName(item: LookupItem): string {
  if ('card_type' in item) return `${item.code} - ${item.description}`;
  if ('currency' in item) return item.code;
  if ('descriptor' in item) return item.descriptor;
  return item.name;
}

/**
 * The printed names of the lookup lists a select's endpoints name (other endpoints are left out), by
 * endpoint and then by item id as a select saves it (a string). Each list is asked of the case service once,
 * with the caller's context (design §13: the case service owns them).
 */
export async function lookupNames(
  cases: Pick<CaseClient, 'lookup'>,
  ctx: InternalContext,
  endpoints: Iterable<string | null | undefined>,
): Promise<Map<string, Map<string, string>>> {
  const paths = [...new Set([...endpoints].filter(isLookupPath))];
  const lists = await Promise.all(paths.map((path) => cases.lookup<LookupItem>(ctx, path)));
  return new Map(
    paths.map((path, i) => [path, new Map(lists[i]!.map((item) => [String(item.id), lookupName(item)]))]),
  );
}
