import type { Readable } from 'node:stream';

/** The proof file types an ERT takes (the upload link names one of them). */
export const PROOF_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'text/csv'] as const;
type ProofType = (typeof PROOF_TYPES)[number];

const SIGNATURES: ReadonlyArray<[Exclude<ProofType, 'text/csv'>, number[]]> = [
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
];

/**
 * The type of a proof file by its first bytes (issue 27.D: the declared type
 * is never taken on trust): PDF, PNG or JPEG by signature; text without NUL
 * or other binary control bytes is CSV; anything else null.
 */
export function sniffProofType(head: Uint8Array): ProofType | null {
  for (const [type, signature] of SIGNATURES)
    if (head.length >= signature.length && signature.every((b, i) => head[i] === b)) return type;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/.test(Buffer.from(head).toString('latin1'))
    ? null
    : 'text/csv';
}

/** Up to `bytes` first bytes of a stream; the rest is not read. */
export async function firstBytes(stream: Readable, bytes = 512): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buf);
      size += buf.length;
      if (size >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}
