import { messageScopes } from './translate.ts';

/**
 * What every admin island can show: the admin endpoints' refusals, the forms' field errors, the
 * dialogs' and password fields' buttons. Each admin island declares
 * `messageScopes(...ADMIN_SHARED, …its own strings)`.
 */
export const ADMIN_SHARED = messageScopes(
  'admin.cancel',
  'admin.close',
  'admin.confirmDeleteTitle',
  'admin.delete',
  'admin.deleting',
  'admin.errors.',
  'auth.hidePassword',
  'auth.showPassword',
  'errors.',
  'validation.',
);
