import { z } from '../zod.ts';
import { SearchText } from './search-text.ts';

/** Admin → Users: inputs checked identically by the island and the endpoints. Messages are translation keys. */
export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const RoleChangeSchema = z.object({ role: z.enum(ROLES, 'admin.people.users.roleInvalid') });
export type RoleChange = z.infer<typeof RoleChangeSchema>;

/** The users table shows at most this many rows; a search narrows it down. */
export const USERS_LIST_LIMIT = 200;
export const NEW_USER_WINDOW_DAYS = 30;

export const UserSearchSchema = z.object({ q: SearchText.optional().catch(undefined) });
