/**
 * After addTenancy: opens the tenancy just added (the one the account did not have before) with a full load, so
 * the session reads the new tenancy list and selects it from the URL, and a success toast says it was added.
 */
import { setFlashToast } from '../flashToast.ts';
import { UserQueryDocument } from '../gql/account.ts';
import { authorizedRequest } from '../graphql.ts';

/** The address of the tenancy not among `before`, or /t/ (the session's choice) when none is found. */
async function addedTenancyPath(before: ReadonlySet<string>): Promise<string> {
  try {
    const data = await authorizedRequest('account', UserQueryDocument, {});
    const added = data.allTenanciesForCurrentUser.find((t) => !before.has(t.id));
    return added ? `/t/${encodeURIComponent(added.id)}/` : '/t/';
  } catch {
    return '/t/';
  }
}

/** Goes to the added tenancy's dashboard, where the toast shows `message`. */
export async function openAddedTenancy(before: ReadonlySet<string>, message: string): Promise<void> {
  const path = await addedTenancyPath(before);
  setFlashToast(message);
  window.location.assign(path);
}
