import { Type, type Static } from '@sinclair/typebox';

/**
 * Mailed exports (spec 2 §2 'Export', spec 3 §7 Users, §8): an export of more
 * rows than the server streams at once is answered 202 with this body instead
 * of the file; the file is written by a job and its link e-mailed.
 */
export const EXPORT_MESSAGES = {
  /** Spec 2 §9 / spec 3 §8 'Export started'. */
  started:
    "This may take up to 15 minutes. We will send you an email with a link to download your export when it's ready. Thank you!",
  /** Subject of the mail that carries the link. */
  mailSubject: 'Your export is ready',
} as const;

export const MailedExportStarted = Type.Object({
  message: Type.String(),
  /** The job writing the file (jobs.job_status id). */
  job_id: Type.String(),
});
export type MailedExportStarted = Static<typeof MailedExportStarted>;

/** Object-store area of export files (one of DOWNLOADABLE_AREAS). */
export const EXPORT_AREA = 'exports';
