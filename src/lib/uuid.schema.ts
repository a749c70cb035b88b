import { UUID_PATTERN } from './uuid.ts';
import { z } from './zod.ts';

/** An id in a request body or query, checked by the same pattern as `isUuid`. */
export function uuidSchema(message?: string) {
  return z.string().regex(UUID_PATTERN, message);
}
