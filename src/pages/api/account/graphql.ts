/** Mounts the account backend; the Yoga server is created once per process from the shared services. */
import type { APIRoute } from 'astro';
import { createAccountYoga } from '../../../server/account/yoga.ts';
import { rememberClientAddress } from '../../../server/graphql/context.ts';
import type { BackendYoga } from '../../../server/graphql/yoga.ts';
import { getApiServices } from '../../../server/services.ts';

export const prerender = false;

let yoga: Promise<BackendYoga> | undefined;

export const ALL: APIRoute = async ({ request, clientAddress }) => {
  rememberClientAddress(request, clientAddress);
  yoga ??= getApiServices().then(createAccountYoga);
  return (await yoga).fetch(request);
};
