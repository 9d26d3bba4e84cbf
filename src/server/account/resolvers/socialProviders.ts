/** `socialProviders`: the configured providers, so the login and signup pages show only their buttons. */
import { configuredProviders } from '../../auth/social.ts';
import type { QueryResolvers } from '../types.generated.ts';

export const socialProviders: NonNullable<QueryResolvers['socialProviders']> = (_parent, _args, ctx) =>
  configuredProviders(ctx.services.config);
