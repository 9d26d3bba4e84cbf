/**
 * The monthly report's texts and settings per property (issue 21, /admin/report-texts): read and save the
 * property's report settings (src/lib/reportSettings.ts; stored through src/server/reports/settings.ts), audited
 * with the changed fields before and after. Validation is the settings' own zod schema: a refused input changes
 * nothing and comes back as INVALID_SETTINGS with each field's problem.
 */

import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  consumerOrganisation,
  disputeBodies,
  mergeReportSettings,
  type PropertyReportSettings,
} from '../../lib/reportSettings.ts';
import type { Db } from '../db/client.ts';
import { properties } from '../db/schema.ts';
import { readReportSettings, saveReportSettings } from '../reports/settings.ts';
import { type Actor, recordAudit } from './audit.ts';
import { type OperatorScope, requireProperty } from './scope.ts';
import { settingsError } from './settingsErrors.ts';

type Property = Awaited<ReturnType<typeof requireProperty>>;

/** The landlord's contact on the report (properties.contact_phone and contact_email), edited beside the settings. */
const contactSchema = z
  .object({
    contactPhone: z
      .string()
      .trim()
      .max(40)
      .regex(/^\+?[0-9 ()-]{4,40}$/, 'a phone number like +45 70 20 30 40')
      .nullable(),
    contactEmail: z.string().trim().max(320).pipe(z.email('an email address')).nullable(),
  })
  .partial();

type Contact = { contactPhone: string | null; contactEmail: string | null };

const view = (property: Property, settings: PropertyReportSettings) => ({
  propertyId: String(property.id),
  ...settings,
  contactPhone: property.contactPhone,
  contactEmail: property.contactEmail,
  effectiveBodies: [
    ...disputeBodies(settings, property.country),
    consumerOrganisation(settings, property.country),
  ],
});

export async function reportTexts(db: Db, scope: OperatorScope, propertyId: string) {
  const property = await requireProperty(db, scope, propertyId);
  return view(property, await readReportSettings(db, property.id));
}

/** The fields whose value differs, before and after. */
function changed<T extends object>(before: T, after: T) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof T & string)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}

export async function updateReportTexts(
  db: Db,
  scope: OperatorScope,
  actor: Actor,
  propertyId: string,
  input: unknown,
) {
  const property = await requireProperty(db, scope, propertyId);
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw settingsError('INVALID_SETTINGS', 'settings must be an object', {
      problems: [{ field: 'input', message: 'must be an object' }],
    });
  const { contactPhone, contactEmail, ...rest } = input as Record<string, unknown>;
  const contactInput = Object.fromEntries(
    Object.entries({ contactPhone, contactEmail }).filter(([, v]) => v !== undefined),
  );
  const current = await readReportSettings(db, property.id);
  const merged = mergeReportSettings(current, rest);
  const contact = contactSchema.safeParse(contactInput);
  const problems = [
    ...(merged.ok ? [] : merged.problems.map((p) => ({ field: p.field, message: p.message }))),
    ...(contact.success
      ? []
      : contact.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }))),
  ];
  if (!merged.ok || !contact.success)
    throw settingsError(
      'INVALID_SETTINGS',
      `Invalid settings: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      { problems },
    );
  const contactBefore: Contact = { contactPhone: property.contactPhone, contactEmail: property.contactEmail };
  const contactAfter: Contact = {
    ...contactBefore,
    ...Object.fromEntries(Object.entries(contact.data).map(([k, v]) => [k, v === '' ? null : v])),
  };
  const diff = changed({ ...current, ...contactBefore }, { ...merged.settings, ...contactAfter });
  const saved = await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const result = await saveReportSettings(tx, property.id, rest);
    if (!result.ok) throw settingsError('INVALID_SETTINGS', 'Invalid settings');
    await tx.update(properties).set(contactAfter).where(eq(properties.id, property.id));
    if (Object.keys(diff.after).length > 0)
      await recordAudit(tx, actor, {
        action: 'report_settings.update',
        subjectType: 'property',
        subjectId: property.id,
        propertyId: property.id,
        ...diff,
      });
    return result.settings;
  });
  return view({ ...property, ...contactAfter }, saved);
}
