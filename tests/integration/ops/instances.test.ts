import { inject } from 'vitest';
import { withDatabase } from '../../../functions/db/provision.ts';
import { describeInstances } from '../../support/instance-cases.ts';

describeInstances('connected directly', {
  settings: () => ({}),
  settingsFor: (name) => ({ DATABASE_URL: withDatabase(inject('postgresServerUrl'), name) }),
  purgeWithinMs: 1000,
});
