/** The demo's published logins and the activation code of its vacant tenancy (README lists them). */

export const DEMO_PASSWORD = 'Demo#Tenant2026';
export const DEMO_ACTIVATION_CODE = 'DEMOACTIVATE';

/** The demo logins, for printing on start and in README. */
export const DEMO_USERS = [
  { email: 'tenant@demo.test', password: DEMO_PASSWORD, description: 'tenant of one tenancy' },
  { email: 'admin@demo.test', password: DEMO_PASSWORD, description: 'tenancy admin of that same tenancy' },
  { email: 'multi@demo.test', password: DEMO_PASSWORD, description: 'member of two tenancies' },
] as const;
