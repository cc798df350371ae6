/** Texts of spec 3 §8 for the merchant and MID screens. */
export const MA_TEXT = {
  merchantAdded: 'Merchant successfully added!',
  merchantUpdated: 'Merchant successfully updated!',
  midAdded: 'MID successfully added!',
  midUpdated: 'MID successfully updated!',
  generic: 'An error occurred. Please try again later.',
  required: 'Field required!',
  email: 'Please enter a valid email.',
  selectMid: 'You must select a row to see MID details.',
  notAvailable: 'Not available.',
  reloadAll: 'Reload To View All Merchants',
  unavailable: 'Unavailable',
  selectMidNote: 'Please select a MID to see its details.',
  rootReadOnly: 'Editing the root merchant is disabled.',
} as const;
