/** Every text of spec 2 §8 'Alerts' and §5 'Mark Outcome' / 'Select MID', exactly. */
export const ALERT_MESSAGES = {
  completed: (id: number) => `Alert record ${id} has been completed.`,
  completeFailed: (id: number) => `There was a problem completing alert record ${id}.`,
  marked: (id: number) => `Alert record ${id} has been marked.`,
  markFailed: (id: number) => `There was a problem marked alert record ${id}.`,
  midApplied: (name: string) => `MID ${name} successfully applied.`,
  midFailed: (name: string) => `There was a problem applying ${name} MID.`,
  noHistory: (id: number) => `No history found for alert ${id}.`,
  descriptorsFailed: 'The was a problem fetching the descriptor options.',
  exportStartedTitle: 'Export started.',
  exportStarted:
    "This may take up to 15 minutes. We will send you an email with a link to download your export when it's ready. Thank you!",
  exportErrorTitle: 'Error.',
  exportUnknown: 'An unknown error has occurred.',
  outcomeRequired: 'An outcome type must be selected.',
  fieldRequired: 'This field is required',
  alreadyCompleted: 'Already Completed',
  allDescriptors: 'All Descriptors',
  loadingAlerts: 'Loading alerts...',
  selectMid: 'Select MID',
  chooseMid: 'A MID must be chosen.',
} as const;
