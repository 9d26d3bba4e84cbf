/** A valid allocation statement of the fixture's tenancy T-A-2025 (alice's), for import tests. */
import type { StatementFileEntry } from '../../../src/server/statements/model.ts';

/** Heating 100,000.00 split 40 % by area (50 of 200 m²) and 60 % by units (300 of 1,000). */
export const validStatement: StatementFileEntry = {
  tenancy: 'T-A-2025',
  periodStart: '2025-06-01',
  periodEnd: '2026-05-31',
  currency: 'DKK',
  fixedSharePercent: 40,
  variableSharePercent: 60,
  area: { tenantM2: 50, propertyM2: 200 },
  consumption: { unit: 'hca-unit', tenant: 300, property: 1000 },
  expenses: [
    { type: 'heating', propertyTotal: '100000.00', tenantFixed: '10000.00', tenantVariable: '18000.00' },
    { type: 'meter-rental', propertyTotal: 2000, tenantFixed: '200.00', tenantVariable: '360.00' },
  ],
  advancePayments: '27000.00',
  balance: '1560.00',
  degreeDays: { period: 2754, normalYear: 2906 },
  objectionDeadline: '2026-10-15',
};
