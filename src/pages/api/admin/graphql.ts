/** Mounts the admin backend (the operator console); the Yoga server is created once per process from the shared services. */
import type { APIRoute } from 'astro';
import { createAdminYoga } from '../../../server/admin/yoga.ts';
import { rememberClientAddress } from '../../../server/graphql/context.ts';
import type { BackendYoga } from '../../../server/graphql/yoga.ts';
import { getApiServices } from '../../../server/services.ts';

export const prerender = false;

let yoga: Promise<BackendYoga> | undefined;

export const ALL: APIRoute = async ({ request, clientAddress }) => {
  rememberClientAddress(request, clientAddress);
  yoga ??= getApiServices().then(createAdminYoga);
  return (await yoga).fetch(request);
};
