import { describe, expect, it } from 'vitest';
import { protectedAreaOf } from './protected-paths.ts';

describe('protectedAreaOf', () => {
  it('finds the admin area however the path is written', () => {
    for (const path of [
      '/en/admin',
      '/en/admin/',
      '/en/%61dmin',
      '/en/%2561dmin',
      '/EN/ADMIN',
      '/en//admin/courses',
      '/en/./admin',
      '/en/x/../admin',
      '/%61dmin',
      '/tr/Admin/users',
      '/en/admin%2Fcourses',
    ]) {
      expect(protectedAreaOf(path), path).toMatchObject({ kind: 'page', role: 'admin' });
    }
  });
  it('finds the dashboard and protected endpoints', () => {
    expect(protectedAreaOf('/tr/dashboard/settings')).toEqual({ kind: 'page', role: 'user', lang: 'tr' });
    expect(protectedAreaOf('/api/account/profile')).toMatchObject({ kind: 'api', role: 'user' });
    expect(protectedAreaOf('/api/%61dmin/courses')).toMatchObject({ kind: 'api', role: 'admin' });
    expect(protectedAreaOf('/API/ADMIN')).toMatchObject({ kind: 'api', role: 'admin' });
  });
  it('leaves public paths alone', () => {
    for (const path of [
      '/en/',
      '/en/courses',
      '/en/administration-tips',
      '/en/blog/admin-guide',
      '/api/courses',
      '/api/auth/sign-in/email',
      '/en/%E0%A4%A',
    ]) {
      expect(protectedAreaOf(path), path).toBeUndefined();
    }
  });
});
