import { ApiError, GENERIC_ERROR, UNKNOWN_ERROR } from './errors';

/** Texts of spec 2 §8 used by the case dialogs. */
export const MSG = {
  success: 'Your action was a success!',
  selectOne: 'You must select at least one case.',
  singleType: 'You can only operate on cases that share a single type.',
  dnrConfirm:
    'You are about to move this case to do not represent and mark as a loss, would you like to proceed?',
  revertConfirm: 'You are about to revert case(s)',
  flagError: 'There was an error flagging the case.',
  unflagError: 'There was an error unflagging the case.',
  bulkFlagError: 'There was an error bulk flagging the cases.',
  bulkUnflagError: 'There was an error bulk unflagging the cases.',
  assignedOne: 'The case was successfully assigned!',
  unassignedOne: 'The case was successfully unassigned!',
  assignedMany: 'The selected cases were successfully assigned!',
  unassignedMany: 'The selected cases were successfully unassigned!',
  assignOneError: 'There was an error assigning the case.',
  unassignOneError: 'There was an error unassigning the case.',
  assignManyError: 'There was an error setting the assigned user to bulk cases.',
  unassignManyError: 'There was an error unassigning the user from bulk cases.',
  dnrError: 'There was an error, try again.',
  bulkDnrError: "There was an error when running the bulk 'Do Not Represent' action.",
  bulkRevertError: "There was an error when running the bulk 'Revert Do Not Represent' action.",
  editSuccess: 'Chargeback(s) successfully updated.',
  editError: 'An error occurred while updating chargeback(s).',
  exportStarted:
    "This may take up to 15 minutes. We will send you an email with a link to download your export when it's ready. Thank you!",
  exportUnknown: 'An unknown error has occurred.',
  noCopy: 'No data to copy.',
  noPdf: 'No data to export PDF.',
  noPrint: 'No data to print.',
  /** There are rows, but no column to put in the table (every exportable column hidden). */
  noTableData: 'No table data provided.',
  printBlocked: 'Print window could not be opened. Please check browser settings.',
  generic: GENERIC_ERROR,
  expireZero: 'Primary cases due to expire cannot be 0 days.',
  advancedLoad: 'An error occurred while loading the advanced search filters. Please try again later.',
  unknownProperty: 'Unknown property in payload',
  overwrite: 'Applying this filter will overwrite your advanced search. Do you want to continue?',
} as const;

export const copiedRows = (n: number) => `Copied ${n} rows to clipboard.`;
export const copiedValue = (v: string) => `${v} copied`;

/** The server's own message if it sent one, else the fallback of the catalogue. */
export function serverOr(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message !== GENERIC_ERROR && error.message !== UNKNOWN_ERROR)
    return error.message;
  return fallback;
}
