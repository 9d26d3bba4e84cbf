/** The account backend's full user shape (SPEC §3) from a user row. */
import type { users } from '../db/schema.ts';

/** Maps a user row to the GraphQL User. */
export function userShape(user: typeof users.$inferSelect) {
  return {
    id: String(user.id),
    email: user.email,
    name: user.name,
    language: user.language,
    isSuperuser: user.isSuperuser,
    isActive: user.isActive,
    isAdmin: user.isAdmin,
    userType: user.userType,
    emailNotifications: user.emailNotifications,
    // Resolved per request by User.accountHasStatements (resolvers/userAccountHasStatements.ts), which replaces
    // this placeholder: the user's tenancies decide it, not the user row.
    accountHasStatements: false,
  };
}
