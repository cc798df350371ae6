/** Spec 3 §8 'Profile' texts. The spec cuts three of them with '...': completed with ' Please try again later.' */
export const PROFILE_TEXT = {
  loadSettings: 'Unable to get user settings. Please try again later.',
  loadNotifications: 'An error occurred while loading notifications. Please try again later.',
  emailSaved: 'Your email has been successfully updated.',
  emailFailed: 'An error occurred while updating your email. Please try again later.',
  emailInvalid: 'A valid email is required.',
  // Ours (issue 19: deadline reminders in the user's time zone).
  timeZoneSaved: 'Your time zone has been successfully updated.',
  timeZoneFailed: 'An error occurred while updating your time zone. Please try again later.',
  passwordSaved: 'Password was successfully updated.',
  passwordFailed: 'An error occurred while updating your password. Please try again later.',
  notificationSaved: 'Notification was successfully updated.',
  notificationFailed: 'An error occurred while updating the notification. Please try again later.',
  ipUnlockFailed: 'There was a problem unlocking this IP.',
  ipLockFailed: 'There was a problem locking this IP.',
} as const;
