import { describe, expect, it } from 'vitest';
import { isUuid } from './uuid.ts';
import { uuidSchema } from './uuid.schema.ts';

const VALID = [
  '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b',
  '3F2B8C1E-9A4D-4E6F-8B2A-1C3D5E7F9A0B',
  '0190f3a2-7b1c-7d2e-9f00-123456789abc',
  '00000000-0000-0000-0000-000000000000',
];
const INVALID = [
  '-'.repeat(36),
  '3f2b8c1e9a4d4e6f8b2a1c3d5e7f9a0b',
  '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0',
  '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0bb',
  '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0g',
  '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b\n',
  ' 3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b',
  '{3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b}',
  '',
];

describe('one UUID check', () => {
  it('accepts ids PostgreSQL and the shop generate, in either case', () => {
    for (const id of VALID) expect([id, isUuid(id)]).toEqual([id, true]);
  });

  it('refuses 36 hyphens and every other near miss before they reach PostgreSQL', () => {
    for (const id of INVALID) expect([id, isUuid(id)]).toEqual([id, false]);
    expect(isUuid(undefined)).toBe(false);
    expect(isUuid(42)).toBe(false);
  });

  it('is the same check inside zod schemas', () => {
    for (const id of [...VALID, ...INVALID]) expect(uuidSchema().safeParse(id).success).toBe(isUuid(id));
    expect(uuidSchema('errors.badRequest').safeParse('-'.repeat(36)).error?.issues[0]?.message).toBe('errors.badRequest');
  });
});
