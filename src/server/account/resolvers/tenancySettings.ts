/** `tenancySettings`: tenancy info for a member (SPEC §3): address, dates, contact, users, pending invitations. */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { apartments, invitations, properties, tenancies, tenancyMembers, users } from '../../db/schema.ts';
import { invitationShape } from '../invitations.ts';
import { requireMember } from '../tenancyAccess.ts';
import type { QueryResolvers } from '../types.generated.ts';

export const tenancySettings: NonNullable<QueryResolvers['tenancySettings']> = async (_parent, args, ctx) => {
  const { userId, tenancyId, isAdmin } = await requireMember(ctx, args.tenancyId);
  const [row] = await ctx.db
    .select({ tenancy: tenancies, apartment: apartments, property: properties })
    .from(tenancies)
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .innerJoin(properties, eq(properties.id, apartments.propertyId))
    .where(eq(tenancies.id, tenancyId));
  const { tenancy, apartment, property } = row!;
  const members = await ctx.db
    .select({ userId: users.id, name: users.name, email: users.email, isAdmin: tenancyMembers.isAdmin })
    .from(tenancyMembers)
    .innerJoin(users, eq(users.id, tenancyMembers.userId))
    .where(eq(tenancyMembers.tenancyId, tenancyId))
    .orderBy(asc(tenancyMembers.createdAt), asc(users.id));
  const pending = await ctx.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.tenancyId, tenancyId), isNull(invitations.acceptedAt)))
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
  return {
    id: String(tenancy.id),
    tenancyId: tenancy.tenancyId,
    address: apartment.address,
    zipcode: apartment.zipcode,
    city: apartment.city,
    apartment: apartment.apartment,
    start: tenancy.start,
    end: tenancy.end,
    propertyName: property.name,
    contact: { phone: property.contactPhone, email: property.contactEmail },
    isAdmin,
    members: members.map((m) => ({ ...m, userId: String(m.userId), isMe: m.userId === userId })),
    pendingInvitations: pending.map(invitationShape),
  };
};
