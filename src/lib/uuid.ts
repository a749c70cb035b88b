/**
 * The one definition of an id the shop accepts (RFC 9562, any version, plus the nil and max ids, as zod's
 * `z.uuid()` reads it). Checked before an id reaches PostgreSQL, whose `uuid` type would otherwise answer
 * a malformed one with an error instead of "no such row". No zod here: browser scripts use it too.
 */
export const UUID_PATTERN =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
