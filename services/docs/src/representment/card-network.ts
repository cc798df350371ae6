import { createHash } from 'node:crypto';

/**
 * Where a compiled representment goes: the card network (or the acquirer's
 * gateway to it). The transport job calls `submit` with its job id as the
 * idempotency key, so a retried attempt gets the same submission back.
 */
export interface CardNetworkSubmission {
  tenant: string;
  caseId: number;
  version: number;
  documentKey: string;
  sha256: string;
  pages: number;
  idempotencyKey: string;
}

export interface CardNetworkAdapter {
  readonly name: string;
  /** Answers the network's submission id; `draft`: staged at a processor, not submitted (issue 32). */
  submit(submission: CardNetworkSubmission): Promise<{ submissionId: string; draft?: boolean }>;
}

/**
 * The only adapter today: a simulator that accepts every submission and
 * answers an id derived from the idempotency key (the same key, the same id),
 * which the transport job records on the version.
 */
export class SimulatedCardNetwork implements CardNetworkAdapter {
  readonly name = 'simulator';
  readonly submitted: CardNetworkSubmission[] = [];

  async submit(submission: CardNetworkSubmission): Promise<{ submissionId: string }> {
    this.submitted.push(submission);
    const digest = createHash('sha256')
      .update(submission.idempotencyKey)
      .digest('hex')
      .slice(0, 16)
      .toUpperCase();
    return { submissionId: `SIM-${digest}` };
  }
}
